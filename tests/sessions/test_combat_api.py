"""The combat API (issue 14): access, idempotent retries, hidden NPCs, constant query counts."""

import pytest
from rest_framework.test import APIClient

from sessions.models import Combatant, Encounter, StatBlock
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def api_for():
    def make(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


def base(campaign) -> str:
    return f"/api/campaigns/{campaign.pk}/"


@pytest.fixture
def fight(campaign, storyteller, api_for, aelis, brann):
    """A fight with the party and four hidden brigands, initiative rolled."""
    conteur = api_for(storyteller)
    block = conteur.post(
        base(campaign) + "stat-blocks/",
        {"name": "Brigand", "agility": 4, "perception": 3, "wisdom": 2, "hidden": True},
        format="json",
    )
    assert block.status_code == 201, block.json()
    opened = conteur.post(base(campaign) + "encounters/", {"name": "Embuscade"}, format="json")
    assert opened.status_code == 201, opened.json()
    url = base(campaign) + f"encounters/{opened.json()['id']}/"
    party = conteur.post(url + "combatants/", {"characters": [aelis.pk, brann.pk]}, format="json")
    assert party.status_code == 201
    body = {"stat_block": block.json()["id"], "count": 4}
    added = conteur.post(url + "combatants/", body, format="json", HTTP_IDEMPOTENCY_KEY="b4")
    assert added.status_code == 201
    again = conteur.post(url + "combatants/", body, format="json", HTTP_IDEMPOTENCY_KEY="b4")
    assert again.status_code == 200  # a retry adds nobody
    assert Combatant.objects.count() == 6
    rolled = conteur.post(url + "initiative/")
    assert rolled.status_code == 200, rolled.json()
    return url


def test_non_members_get_404_and_players_403_on_conteur_actions(
    campaign, fight, api_for, outsider, player
):
    assert api_for(outsider).get(fight).status_code == 404
    assert api_for(outsider).get(base(campaign) + "encounters/").status_code == 404
    joueur = api_for(player)
    assert joueur.post(fight + "initiative/").status_code == 403
    refused = joueur.post(fight + "combatants/", {"name": "Moi"}, format="json")
    assert refused.status_code == 403
    assert "Conteur" in refused.json()["detail"]
    assert joueur.post(base(campaign) + "stat-blocks/", {"name": "X"}).status_code == 403


def test_players_never_see_hidden_npcs_or_blocks(campaign, fight, api_for, player, storyteller):
    seen = api_for(player).get(fight).json()
    assert [c["name"] for c in seen["combatants"]] == ["Aelis", "Brann"]
    assert all("Brigand" not in s["name"] for s in seen["upcoming"])
    assert api_for(player).get(base(campaign) + "stat-blocks/").json()["results"] == []
    everything = api_for(storyteller).get(fight).json()
    assert len(everything["combatants"]) == 6
    log = api_for(player).get(base(campaign) + "log/").json()["results"]
    assert log and not any("Brigand" in e["summary"] for e in log)
    brigand = Combatant.objects.get(name="Brigand 1")
    assert api_for(player).delete(fight + f"combatants/{brigand.pk}/").status_code == 404


def test_next_turn_needs_the_step_read_and_a_player_ends_only_their_own(
    campaign, fight, api_for, storyteller, player, other_player
):
    state = api_for(storyteller).get(fight).json()
    acting = state["acting"]["combatant"]
    character = Combatant.objects.get(pk=acting).character
    owner = {player.pk: player, other_player.pk: other_player}.get(
        character.owner_id if character else None
    )
    if owner is not None:
        stranger = other_player if owner == player else player
        refused = api_for(stranger).post(fight + "next/", {"turn": state["turn"]}, format="json")
        assert refused.status_code == 403
        done = api_for(owner).post(fight + "next/", {"turn": state["turn"]}, format="json")
    else:
        done = api_for(storyteller).post(fight + "next/", {"turn": state["turn"]}, format="json")
    assert done.status_code == 200
    assert done.json()["turn"] == state["turn"] + 1
    twice = api_for(storyteller).post(fight + "next/", {"turn": state["turn"]}, format="json")
    assert twice.status_code == 409
    assert "déjà avancé" in twice.json()["detail"]
    assert api_for(storyteller).get(fight).json()["turn"] == state["turn"] + 1


def test_reveal_status_and_remove(campaign, fight, api_for, storyteller, player):
    conteur = api_for(storyteller)
    brigand = Combatant.objects.get(name="Brigand 2")
    assert conteur.post(fight + f"combatants/{brigand.pk}/reveal/").status_code == 200
    names = [c["name"] for c in api_for(player).get(fight).json()["combatants"]]
    assert "Brigand 2" in names
    out = conteur.post(
        fight + f"combatants/{brigand.pk}/status/", {"status": "defeated"}, format="json"
    )
    assert out.status_code == 200
    removed = conteur.delete(fight + f"combatants/{brigand.pk}/")
    assert removed.status_code == 204 and not removed.content  # as documented (issue 39 §4)
    brigand.refresh_from_db()
    assert brigand.status == "left"
    assert conteur.post(fight + "end/").json()["status"] == "ended"


def test_the_fight_costs_the_same_queries_with_more_combatants(
    campaign, fight, api_for, storyteller, django_assert_max_num_queries
):
    conteur = api_for(storyteller)
    with django_assert_max_num_queries(8):
        conteur.get(fight)
    encounter = Encounter.objects.get()
    block = StatBlock.objects.get()
    conteur.post(fight + "combatants/", {"stat_block": block.pk, "count": 10}, format="json")
    assert encounter.combatants.count() == 16
    with django_assert_max_num_queries(8):
        conteur.get(fight)
