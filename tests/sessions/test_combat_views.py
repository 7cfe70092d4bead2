"""The combat pages (issue 14): the bestiary, the Conteur's page, the tracker at the table."""

import pytest

from sessions.combat import fights as combat
from sessions.models import Encounter, StatBlock, TableEventKind
from tests.sessions.combat_fixtures import HTMX, running_fight, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(campaign, storyteller, as_member, aelis, brann):
    """A running fight: Aelis (14), a hidden Ombre (12), Brann (8)."""
    conteur = as_member(campaign, storyteller)
    return running_fight(
        conteur, storyteller, aelis, brann, npc="Ombre", hidden=True, initiatives=(14, 12, 8)
    )


def test_the_bestiary_is_the_conteurs(campaign, storyteller_client, player_client, client_for):
    data = {
        "name": "Brigand",
        "agility": 4,
        "perception": 3,
        "wisdom": 2,
        "strength": 3,
        "vigor": 3,
        "combativeness": 2,
        "vitality_max": 20,
        "energy_max": 10,
        "confidence_max": 10,
        "annulation": 0,
        "resistance": 1,
        "hidden": "on",
    }
    response = storyteller_client.post(url(campaign, "stat_block_create"), data)
    assert response.status_code == 302
    block = StatBlock.objects.get()
    page = storyteller_client.get(url(campaign, "bestiary")).content.decode()
    assert "Brigand" in page and "Finesse" in page
    assert "Brigand" not in player_client.get(url(campaign, "bestiary")).content.decode()
    assert player_client.get(url(campaign, "stat_block_create")).status_code == 403
    delete = url(campaign, "stat_block_delete", block.pk)
    assert "Supprimer « Brigand »" in storyteller_client.get(delete).content.decode()
    assert player_client.post(delete).status_code == 403
    storyteller_client.post(delete)
    assert not StatBlock.objects.exists()
    bad = storyteller_client.post(url(campaign, "stat_block_create"), {**data, "combativeness": 9})
    assert bad.status_code == 200 and not StatBlock.objects.exists()


def test_outsiders_get_404(campaign, running, outsider_client):
    assert outsider_client.get(url(campaign, "combat")).status_code == 404
    assert outsider_client.get(url(campaign, "bestiary")).status_code == 404
    next_url = url(campaign, "combat_next", running.pk)
    assert outsider_client.post(next_url, {"turn": 1}).status_code == 404


def test_the_table_shows_the_tracker_hidden_npcs_only_to_the_conteur(
    campaign, running, storyteller_client, player_client
):
    table = url(campaign, "table")
    mine = player_client.get(table).content.decode()
    assert 'id="combat-tracker"' in mine
    assert "Ombre" not in mine
    assert 'data-combat="acting">Aelis' in mine
    assert "Finir mon action" in mine  # Aelis is the player's
    theirs = storyteller_client.get(table).content.decode()
    assert "Ombre" in theirs and "Action suivante" in theirs


def test_a_player_ends_their_turn_with_and_without_htmx(
    campaign, running, player_client, client_for, other_player
):
    next_url = url(campaign, "combat_next", running.pk)
    refused = client_for(other_player).post(next_url, {"turn": 1, "back": "table"}, **HTMX)
    assert "Seuls le Conteur et le joueur" in refused.content.decode()
    response = player_client.post(next_url, {"turn": 1, "back": "table"}, **HTMX)
    assert response.status_code == 200
    assert "table-poll" in response["HX-Trigger"]
    body = response.content.decode()
    assert "Ombre" not in body and "Le Conteur a la main." in body  # the hidden NPC acts
    running.refresh_from_db()
    assert running.turn == 2
    again = player_client.post(next_url, {"turn": 1, "back": "table"})  # a double click
    assert again.status_code == 302 and again["Location"] == url(campaign, "table")
    running.refresh_from_db()
    assert running.turn == 2


def test_the_poll_announces_combat_events_and_hides_the_hidden(
    campaign, running, storyteller_client, player_client, storyteller
):
    poll = url(campaign, "poll")
    storyteller_client.post(url(campaign, "combat_next", running.pk), {"turn": 1})
    response = player_client.get(poll, {"after": 0}, **HTMX)
    assert "combat-changed" in response["HX-Trigger"]
    assert "Aelis termine son action." in response.content.decode()
    assert "Ombre" not in response.content.decode()
    assert "Ombre" in storyteller_client.get(poll, {"after": 0}, **HTMX).content.decode()


def test_tracker_fragment_with_and_without_htmx(campaign, running, player_client):
    tracker = url(campaign, "combat_tracker")
    assert player_client.get(tracker).status_code == 302
    fragment = player_client.get(tracker, **HTMX)
    assert fragment.status_code == 200 and fragment["Vary"].count("HX-Request")
    assert fragment.content.decode().lstrip().startswith("<section")


def test_the_conteur_page_adds_copies_and_asks_before_removing(
    campaign, running, storyteller_client, player_client
):
    block = StatBlock.objects.create(campaign=campaign, name="Loup", hidden=False)
    page = storyteller_client.get(url(campaign, "combat"))
    assert page.status_code == 200 and "PNJ improvisé" in page.content.decode()
    assert player_client.get(url(campaign, "combat")).status_code == 403
    storyteller_client.post(
        url(campaign, "combat_block", running.pk),
        {"stat_block": block.pk, "count": 3, "idempotency_key": "k"},
    )
    assert list(running.combatants.filter(stat_block=block).values_list("name", flat=True)) == [
        "Loup 1",
        "Loup 2",
        "Loup 3",
    ]
    loup = running.combatants.get(name="Loup 2")
    remove = url(campaign, "combatant_remove", running.pk, loup.pk)
    assert "Retirer « Loup 2 » du combat ?" in storyteller_client.get(remove).content.decode()
    storyteller_client.post(remove, {"back": "combat"})
    loup.refresh_from_db()
    assert loup.status == "left"
    assert running.campaign.table_events.filter(kind=TableEventKind.COMBAT).exists()


def test_the_table_costs_the_same_queries_with_more_combatants(
    campaign, running, storyteller, as_member, player_client, django_assert_max_num_queries
):
    table = url(campaign, "table")
    player_client.get(table)
    with django_assert_max_num_queries(30) as few:
        player_client.get(table)
    before = len(few.captured_queries)
    conteur = as_member(campaign, storyteller)
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=running.pk,
        joining=combat.quick_joining("Renfort", 2, 2, False) * 8,
    )
    assert Encounter.objects.get().combatants.count() == 11
    player_client.get(table)  # the first reader renders the log's new row, as before
    with django_assert_max_num_queries(before):
        player_client.get(table)
