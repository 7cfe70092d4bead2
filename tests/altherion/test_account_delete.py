"""Leaving for good (issue 16 §20): a page that says what happens, a decision for every campaign
one runs, the password, then one transaction — or nothing at all."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership, Role
from campaigns.services import campaign_create
from characters.models import Character
from sessions.models import Roll
from tests.altherion.test_french_pages import _Page, choice_keys, offending_words

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"
User = get_user_model()


@pytest.fixture
def table(campaign, storyteller, player, other_player):
    """The Conteur runs « Les Brumes d'Emeshar » and plays Kael in Aelis's own « Le Val »."""
    valley = campaign_create(creator=player, name="Le Val")
    Membership.objects.create(campaign=valley, user=storyteller, role=Role.PLAYER)
    kael = Character.objects.create(campaign=valley, owner=storyteller, name="Kael")
    aelis = Character.objects.create(campaign=campaign, owner=player, name="Aelis")
    roll = Roll.objects.create(
        campaign=valley, character=kael, rolled_by=storyteller, characteristic="strength",
        outcome="success", total=9, target=8, margin=1, idempotency_key="k-1",
    )  # fmt: skip
    return {"valley": valley, "kael": kael, "aelis": aelis, "roll": roll}


def heir_field(campaign) -> str:
    return f"campaign_{campaign.pk}"


def membership(campaign, user) -> Membership:
    return Membership.objects.get(campaign=campaign, user=user)


def test_the_page_says_what_happens_and_asks_for_each_campaign_run(
    client, storyteller, campaign, table
):
    client.force_login(storyteller)
    body = client.get(reverse("account_delete")).content.decode()
    assert "La suppression est définitive" in body
    assert "Kael (campagne « Le Val »)" in body
    assert "restent dans le journal de leur table" in body
    assert "« Les Brumes d&#x27;Emeshar »" in body or "« Les Brumes d'Emeshar »" in body
    assert "Confier la campagne à aelis" in body and "Confier la campagne à brann" in body
    assert "Supprimer la campagne et tout son contenu" in body
    # Only the campaigns one runs are asked about: « Le Val » is Aelis's.
    assert f'name="{heir_field(table["valley"])}"' not in body


def test_deleting_with_a_campaign_handed_over_keeps_it_with_the_new_conteur(
    client, storyteller, player, campaign, table
):
    client.force_login(storyteller)
    heir = membership(campaign, player)
    response = client.post(
        reverse("account_delete"), {heir_field(campaign): str(heir.pk), "password": PASSWORD}
    )
    assert response["Location"] == reverse("account_deleted")
    assert not User.objects.filter(username="conteur").exists()
    heir.refresh_from_db()
    assert heir.role == Role.STORYTELLER
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    assert Character.objects.filter(pk=table["aelis"].pk).exists()
    # Their own character elsewhere goes; their roll stays in that table's log, with no author.
    assert not Character.objects.filter(pk=table["kael"].pk).exists()
    table["roll"].refresh_from_db()
    assert table["roll"].rolled_by is None and table["roll"].character is None
    # Signed out, and told so in French.
    done = client.get(response["Location"])
    assert "Votre compte et vos personnages sont supprimés" in done.content.decode()
    assert "Bonjour" not in client.get(reverse("home")).content.decode()


def test_deleting_a_campaign_one_runs_removes_it_for_everyone(client, storyteller, campaign, table):
    client.force_login(storyteller)
    response = client.post(
        reverse("account_delete"), {heir_field(campaign): "delete", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert not Character.objects.filter(pk=table["aelis"].pk).exists()
    assert Campaign.objects.filter(pk=table["valley"].pk).exists()


def test_a_wrong_password_changes_nothing(client, storyteller, player, campaign, table):
    client.force_login(storyteller)
    heir = membership(campaign, player)
    response = client.post(
        reverse("account_delete"), {heir_field(campaign): str(heir.pk), "password": "faux"}
    )
    assert response.status_code == 200
    assert "Mot de passe incorrect : rien n&#x27;a été supprimé." in response.content.decode()
    assert User.objects.filter(username="conteur").exists()
    assert membership(campaign, storyteller).role == Role.STORYTELLER
    assert Character.objects.filter(pk=table["kael"].pk).exists()
    assert "Bonjour, conteur" in client.get(reverse("home")).content.decode()


def test_a_campaign_left_without_a_decision_changes_nothing(client, storyteller, campaign, table):
    client.force_login(storyteller)
    response = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Choisissez ce que devient « Les Brumes d" in body
    assert User.objects.filter(username="conteur").exists()
    assert Character.objects.filter(pk=table["kael"].pk).exists()


def test_a_campaign_cannot_go_to_someone_outside_it(client, storyteller, outsider, campaign, table):
    valley_member = membership(table["valley"], storyteller)
    client.force_login(storyteller)
    response = client.post(
        reverse("account_delete"),
        {heir_field(campaign): str(valley_member.pk), "password": PASSWORD},
    )
    assert response.status_code == 200
    assert User.objects.filter(username="conteur").exists()
    assert membership(campaign, storyteller).role == Role.STORYTELLER


def test_a_campaign_created_meanwhile_stops_the_deletion(client, storyteller, campaign, table):
    """The decisions cover the campaigns run when the form was read; one more since: nothing."""
    from altherion.account_delete import account_delete

    campaign_create(creator=storyteller, name="Nouvelle")
    with pytest.raises(Exception, match="Vos campagnes ont changé"):
        account_delete(user=storyteller, decisions={campaign.pk: None})
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    assert User.objects.filter(username="conteur").exists()


def test_a_player_deletes_only_their_own_account(client, player, other_player, campaign, table):
    client.force_login(other_player)
    body = client.get(reverse("account_delete")).content.decode()
    assert "Les campagnes dont vous êtes le Conteur" not in body
    # Another user's campaign cannot be decided by them: the field is not theirs to send.
    response = client.post(
        reverse("account_delete"),
        {heir_field(table["valley"]): "delete", "password": PASSWORD},
    )
    assert response.status_code == 302
    assert not User.objects.filter(username="brann").exists()
    assert Campaign.objects.filter(pk=table["valley"].pk).exists()
    assert User.objects.filter(username="aelis").exists()
    assert Character.objects.filter(pk=table["aelis"].pk).exists()


def test_the_pages_need_a_signed_in_user(client):
    for name in ("account_delete", "account_data"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.post(reverse("account_delete"), {"password": PASSWORD}).status_code == 302


def test_repeated_wrong_passwords_count_towards_the_login_lockout(
    client, player, campaign, settings
):
    client.force_login(player)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("account_delete"), {"password": "faux"})
    locked = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert locked.status_code == 429
    assert User.objects.filter(username="aelis").exists()


def test_the_delete_page_speaks_french(client, storyteller, campaign, table):
    client.force_login(storyteller)
    keys = choice_keys()
    for response in (
        client.get(reverse("account_delete")),
        client.post(reverse("account_delete"), {"password": ""}),
        Client().get(reverse("account_deleted")),
    ):
        page = _Page()
        page.feed(response.content.decode())
        assert offending_words(" ".join(page.text), keys) == set()
    empty = client.post(reverse("account_delete"), {"password": ""}).content.decode()
    assert "Ce champ est obligatoire" in empty


def test_the_account_pages_are_never_stored_and_run_no_inline_script(client, player):
    from tests.altherion.test_csp import assert_csp_safe

    client.force_login(player)
    for name in ("account_delete", "profile"):
        response = client.get(reverse(name))
        assert "no-store" in response["Cache-Control"], name
        assert_csp_safe(response.content.decode())
    anonymous = Client()
    for name in ("password_reset", "password_reset_done", "password_reset_complete", "login"):
        assert_csp_safe(anonymous.get(reverse(name)).content.decode())
