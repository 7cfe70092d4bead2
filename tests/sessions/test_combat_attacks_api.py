"""The attack → defence → damage sequence through the API (issue 14 §4)."""

import random

import pytest
from rest_framework.test import APIClient

from characters.models import Character
from sessions.models import Combatant, Encounter
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def fight(campaign, storyteller, aelis, brann):
    """Brann acts first; a visible Brigand with armour; Aelis."""
    conteur = api(storyteller)
    base = f"/api/campaigns/{campaign.pk}/"
    block = conteur.post(
        base + "stat-blocks/",
        {"name": "Brigand", "agility": 4, "armour": 6, "hidden": False},
        format="json",
    ).json()
    opened = conteur.post(base + "encounters/", {"name": "Embuscade"}, format="json").json()
    url = base + f"encounters/{opened['id']}/"
    conteur.post(url + "combatants/", {"characters": [brann.pk, aelis.pk]}, format="json")
    conteur.post(url + "combatants/", {"stat_block": block["id"]}, format="json")
    assert conteur.post(url + "initiative/").status_code == 200
    encounter = Encounter.objects.get()
    brann_slot = Combatant.objects.get(name="Brann").pk
    encounter.order = sorted(encounter.order, key=lambda s: s["combatant"] != brann_slot)
    encounter.save()
    return url


def test_attack_defence_damage(
    fight, storyteller, player, other_player, outsider, aelis, monkeypatch
):
    monkeypatch.setattr("rules.check.system_rng", lambda: random.Random(11))  # dice of the test
    state = api(other_player).get(fight).json()
    assert state["may_attack"] and state["acting"]["name"] == "Brann"
    aelis_id = Combatant.objects.get(name="Aelis").pk
    body = {
        "turn": state["turn"],
        "target": aelis_id,
        "characteristic": "vigor",
        "skills": ["melee"],
        "damage": 4,
    }
    assert api(outsider).post(fight + "attacks/", body, format="json").status_code == 404
    assert api(player).post(fight + "attacks/", body, format="json").status_code == 403
    made = api(other_player).post(
        fight + "attacks/", body, format="json", HTTP_IDEMPOTENCY_KEY="a1"
    )
    assert made.status_code == 201, made.json()
    attack = made.json()
    assert attack["target"] == aelis_id and attack["defences"] == []  # Brann does not defend
    assert attack["result"] is None  # it waits for Aelis's defence
    again = api(other_player).post(
        fight + "attacks/", body, format="json", HTTP_IDEMPOTENCY_KEY="a1"
    )
    assert again.status_code == 200 and again.json()["id"] == attack["id"]

    seen = api(player).get(fight).json()["pending_attack"]
    assert seen["id"] == attack["id"]
    offered = {d["key"]: d for d in seen["defences"]}
    assert set(offered) == {"block", "dodge", "parry"}
    assert offered["parry"]["available"] == (not seen["exploded"])  # no Parade on an explosion
    assert all(0 <= d["success"] <= 1 for d in offered.values() if d["available"])

    defence = fight + "defence/"
    refused = api(other_player).post(
        defence, {"attack": attack["id"], "defence": "dodge"}, format="json"
    )
    assert refused.status_code == 403
    version = Character.objects.get(pk=aelis.pk).version
    done = api(player).post(defence, {"attack": attack["id"], "defence": "none"}, format="json")
    assert done.status_code == 201, done.json()
    blow = done.json()
    assert blow["defence"] == "none" and not blow["defended"] and blow["damage"] >= 0
    aelis.refresh_from_db()
    assert aelis.vitality_current == 15 - blow["damage"]
    assert (aelis.version > version) == (blow["damage"] > 0)
    retried = api(player).post(defence, {"attack": attack["id"], "defence": "none"}, format="json")
    assert retried.status_code == 200 and retried.json() == blow
    state = api(player).get(fight).json()
    assert state["pending_attack"] is None and state["last_attack"]["id"] == attack["id"]
    gone = api(player).post(defence, {"attack": "nope", "defence": "none"}, format="json")
    assert gone.status_code == 409
    log = api(player).get(f"/api/campaigns/{aelis.campaign_id}/log/").json()["results"]
    assert any("Brann attaque Aelis" in e["summary"] for e in log)


def test_the_fight_costs_the_same_queries_with_an_attack_waiting(
    fight, storyteller, other_player, django_assert_max_num_queries
):
    state = api(other_player).get(fight).json()
    body = {
        "turn": state["turn"],
        "target": Combatant.objects.get(name="Brigand 1").pk,
        "characteristic": "vigor",
        "damage": 4,
    }
    assert api(other_player).post(fight + "attacks/", body, format="json").status_code == 201
    with django_assert_max_num_queries(12):
        api(storyteller).get(fight)
