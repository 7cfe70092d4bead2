"""The creation wizard: live budget through HTMX, rules errors next to their field."""

from html import unescape

import pytest
from django.urls import reverse

from characters.models import Character

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def as_post(data: dict) -> dict:
    """The wizard's form fields for the services' plain data."""
    post = {
        "name": data["name"],
        "origin": data["origin"],
        "combativeness": data["combativeness"],
        **data["characteristics"],
        **{f"premice_{g}": v for g, v in data["premices"].items()},
        **{r: data[r] for r in ("classes", "abilities", "assets", "flaws")},
    }
    from rules import reference

    for skill in reference.SKILLS:
        value = data["skills"].get(skill.key, {"level": 0, "expertises": []})
        post[f"skill_{skill.key}"] = value["level"]
        post[f"skillexp_{skill.key}"] = ", ".join(value["expertises"])
    for language in reference.LANGUAGES:
        value = data["languages"].get(language.key, {"level": 0, "writing": False})
        post[f"lang_{language.key}"] = value["level"]
        if value["writing"]:
            post[f"langw_{language.key}"] = "on"
    return post


def test_the_wizard_starts_with_the_whole_budget(client, player, campaign):
    client.force_login(player)
    response = client.get(reverse("characters:create", args=[campaign.pk]))
    assert response.status_code == 200
    assert "0 / 75 points dépensés — reste 75" in response.content.decode()


def test_each_change_recounts_the_budget_and_puts_errors_next_to_fields(
    client, player, campaign, creation_data
):
    client.force_login(player)
    creation_data["characteristics"]["strength"] = 9  # +1 over the cap and over the budget
    url = reverse("characters:budget", args=[campaign.pk])
    response = client.post(url, as_post(creation_data), **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<aside id="budget"')
    assert "76 / 75 points dépensés — 1 point de trop" in body
    assert "reste -" not in body
    assert "Le budget de création est dépassé de 1 point (76 dépensés sur 75)." in body
    # Force's slot, sent out of band, carries its cost and the engine's French error.
    start = body.index('<span id="fx-strength" class="fx" hx-swap-oob="true"')
    strength_slot = body[start : body.index("</span></span>", start)]
    assert "7 pts" in strength_slot and "Force ne peut dépasser 8." in strength_slot
    assert 'id="fx-skill_melee" class="fx" hx-swap-oob="true"' in body


def test_a_valid_sheet_is_created_and_opens_its_page(client, player, campaign, creation_data):
    client.force_login(player)
    response = client.post(reverse("characters:create", args=[campaign.pk]), as_post(creation_data))
    character = Character.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("characters:sheet", args=[character.pk])
    assert (character.owner, character.strength) == (player, 8)


def test_points_left_are_said_and_the_player_confirms_before_the_sheet_is_saved(
    client, player, campaign, creation_data
):
    """Three points of Force unspent: the wizard does not save in silence; it says what is left
    and asks. « Créer quand même » creates the sheet as it is."""
    client.force_login(player)
    creation_data["characteristics"]["strength"] = 5
    url = reverse("characters:create", args=[campaign.pk])
    response = client.post(url, as_post(creation_data))
    body = unescape(response.content.decode())
    assert response.status_code == 200
    assert not Character.objects.exists()
    assert "Des points de création restent à dépenser" in body
    assert (
        "Il reste 3 points de création à dépenser (72 sur 75) : "
        "une fois le personnage créé, ils ne serviront plus." in body
    )
    assert 'name="unspent_confirmed" value="1">Créer quand même</button>' in body
    assert 'value="5"' in body  # what the player typed is kept
    response = client.post(url, {**as_post(creation_data), "unspent_confirmed": "1"})
    character = Character.objects.get()
    assert response["Location"] == reverse("characters:sheet", args=[character.pk])
    assert character.strength == 5


def test_a_sheet_spending_every_point_is_saved_without_a_question(
    client, player, campaign, creation_data
):
    client.force_login(player)
    response = client.post(reverse("characters:create", args=[campaign.pk]), as_post(creation_data))
    assert response.status_code == 302 and Character.objects.count() == 1


def test_a_sheet_breaking_the_rules_is_not_saved(client, player, campaign, creation_data):
    client.force_login(player)
    creation_data["characteristics"]["wisdom"] = 5
    response = client.post(reverse("characters:create", args=[campaign.pk]), as_post(creation_data))
    assert response.status_code == 200
    assert "dépassé de 1 point" in response.content.decode()
    assert not Character.objects.exists()


def test_a_name_is_required(client, player, campaign, creation_data):
    client.force_login(player)
    creation_data["name"] = ""
    response = client.post(reverse("characters:create", args=[campaign.pk]), as_post(creation_data))
    assert "Donnez un nom au personnage." in response.content.decode()
    assert not Character.objects.exists()


def test_outsiders_cannot_open_the_wizard(client, outsider, campaign):
    client.force_login(outsider)
    assert client.get(reverse("characters:create", args=[campaign.pk])).status_code == 404
