"""Downloading one's own data from the profile (issue 16 §20): a JSON attachment with the user's
account, characters (sheet, notes, history), rolls and notifications — nothing of anyone else's."""

import json

import pytest
from django.urls import reverse

from altherion.account_data import attachment_name
from campaigns.models import Notification
from characters.models import Character, CharacterChange
from sessions.models import Roll

pytestmark = pytest.mark.django_db


def make_roll(campaign, user, character, label: str, key: str) -> Roll:
    return Roll.objects.create(
        campaign=campaign,
        character=character,
        rolled_by=user,
        label=label,
        characteristic="strength",
        outcome="success",
        total=9,
        target=8,
        margin=1,
        idempotency_key=key,
    )


@pytest.fixture
def table(campaign, storyteller, player, other_player):
    """Aelis and Brann, each with a character, a roll and a notification."""
    aelis = Character.objects.create(
        campaign=campaign, owner=player, name="Aelis", notes="Cherche sa sœur.",
        private_notes="Sait où est la clé.",
    )  # fmt: skip
    CharacterChange.objects.create(
        character=aelis, version=2, field="strength", old_value=2, new_value=3, by=storyteller
    )
    brann = Character.objects.create(
        campaign=campaign, owner=other_player, name="Brann", notes="Secret de Brann."
    )
    make_roll(campaign, player, aelis, "Forcer la porte", "a-1")
    make_roll(campaign, other_player, brann, "Escalader le mur", "b-1")
    Notification.objects.create(user=player, campaign=campaign, kind="award", key="k1", text="+3")
    Notification.objects.create(user=other_player, kind="award", key="k2", text="Pour Brann")
    return aelis, brann


def download(client):
    response = client.get(reverse("account_data"))
    assert response.status_code == 200
    return response, json.loads(response.content)


def test_the_export_needs_a_signed_in_user(client):
    response = client.get(reverse("account_data"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_export_is_an_attachment_with_a_french_name(client, player, table):
    client.force_login(player)
    response, _data = download(client)
    assert response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert disposition.startswith('attachment; filename="altherion-mes-donnees-aelis-')
    assert disposition.endswith('.json"')
    assert "no-store" in response["Cache-Control"]


def test_the_export_holds_my_character_roll_and_notes_and_nothing_of_another_player(
    client, player, table
):
    client.force_login(player)
    _response, data = download(client)
    assert data["format"] == "altherion-account" and data["account"]["username"] == "aelis"
    assert data["memberships"] == [
        {"role": "player", "joined_at": data["memberships"][0]["joined_at"],
         "campaign": "Les Brumes d'Emeshar"},
    ]  # fmt: skip
    [character] = data["characters"]
    assert character["campaign"] == "Les Brumes d'Emeshar"
    assert character["sheet"]["name"] == "Aelis"
    assert character["sheet"]["notes"] == "Cherche sa sœur."
    assert character["sheet"]["private_notes"] == "Sait où est la clé."
    assert character["sheet"]["format"] == "altherion.character/1"  # the sheet import reads it
    [change] = character["history"]
    assert (change["field"], change["old_value"], change["new_value"], change["by"]) == (
        "strength", 2, 3, "conteur",
    )  # fmt: skip
    assert [roll["label"] for roll in data["rolls"]] == ["Forcer la porte"]
    assert data["rolls"][0]["character"] == "Aelis"
    assert [n["text"] for n in data["notifications"]] == ["+3"]
    text = json.dumps(data, ensure_ascii=False)
    assert "Brann" not in text and "Escalader" not in text and "brann" not in text


def test_the_file_name_keeps_to_safe_characters(player):
    import datetime

    player.username = "élise d'or"
    assert attachment_name(player, today=datetime.date(2026, 12, 1)) == (
        "altherion-mes-donnees-elise-d-or-2026-12-01.json"
    )


def test_the_profile_links_the_download_and_the_deletion(client, player):
    client.force_login(player)
    body = client.get(reverse("profile")).content.decode()
    assert f'href="{reverse("account_data")}"' in body
    assert f'href="{reverse("account_delete")}"' in body


def test_the_profile_saves_the_address_a_reset_is_sent_to(client, player):
    client.force_login(player)
    response = client.post(reverse("profile_email"), {"email": "aelis@example.org"})
    assert response["Location"] == reverse("profile")
    player.refresh_from_db()
    assert player.email == "aelis@example.org"
    refused = client.post(reverse("profile_email"), {"email": "pas une adresse"})
    assert refused.status_code == 200
    assert "Saisissez une adresse e-mail valide" in refused.content.decode()
    player.refresh_from_db()
    assert player.email == "aelis@example.org"
