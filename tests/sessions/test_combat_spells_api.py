"""Spells through the API (issue 14 §5, issue 39 items 20, 21, 24): the preview, the cast
begun, its resolution the next round, idempotency, refusals."""

import random

import pytest
from rest_framework.test import APIClient

from characters.models import Character
from sessions.models import Combatant, Encounter, Roll
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def fight(campaign, storyteller, aelis, brann):
    """Brann (Combativité 2) acts first, then Aelis, then Brann again."""
    Character.objects.filter(pk=brann.pk).update(combativeness=2)
    conteur = api(storyteller)
    base = f"/api/campaigns/{campaign.pk}/"
    opened = conteur.post(base + "encounters/", {"name": "Crypte"}, format="json").json()
    url = base + f"encounters/{opened['id']}/"
    conteur.post(url + "combatants/", {"characters": [brann.pk, aelis.pk]}, format="json")
    assert conteur.post(url + "initiative/").status_code == 200
    encounter = Encounter.objects.get()
    brann_id = Combatant.objects.get(name="Brann").pk
    first = [s for s in encounter.order if s["pass"] == 1]
    first.sort(key=lambda s: s["combatant"] != brann_id)
    encounter.order = first + [s for s in encounter.order if s["pass"] > 1]
    encounter.save()
    return url


def test_preview_then_cast_a_healing_spell(
    fight, storyteller, player, other_player, outsider, aelis, monkeypatch
):
    """RULES §15: "Healing spell: difficulty = wounds to heal; complexity by scars against the
    gauge maximum…"; the focus is a surpuissance die; the incantation takes the turn."""
    monkeypatch.setattr("rules.check.system_rng", lambda: random.Random(5))
    Character.objects.filter(pk=aelis.pk).update(vitality_current=4, vitality_scars=2)
    aelis_id = Combatant.objects.get(name="Aelis").pk
    query = {"kind": "healing", "target": aelis_id, "gauge": "vitality", "focus": 1}
    assert api(outsider).get(fight + "spells/preview/", query).status_code == 404
    preview = api(other_player).get(fight + "spells/preview/", query)
    assert preview.status_code == 200, preview.json()
    shown = preview.json()
    assert shown["caster_name"] == "Brann" and shown["actions_left"] == 1 and not shown["errors"]
    healing = shown["healing"]
    assert healing["difficulty"] == healing["wounds"] == healing["maximum"] - 4
    assert healing["complexity"] == healing["scar_complexity"] >= 2
    assert shown["incantation"]["boon_dice"] == 1

    state = api(other_player).get(fight).json()
    body = {**query, "turn": state["turn"], "characteristic": "power", "skills": ["sorcellerie"]}
    assert api(outsider).post(fight + "spells/", body, format="json").status_code == 404
    assert api(player).post(fight + "spells/", body, format="json").status_code == 403
    made = api(other_player).post(fight + "spells/", body, format="json", HTTP_IDEMPOTENCY_KEY="c1")
    assert made.status_code == 201, made.json()
    cast = made.json()
    assert cast["healing"]["complexity"] == healing["complexity"]
    assert cast["actions_given_up"] == 1 and cast["incantation"]["combativeness_spent"] == 1
    assert cast["state"] == "begun" and cast["rolls"] == []
    again = api(other_player).post(
        fight + "spells/", body, format="json", HTTP_IDEMPOTENCY_KEY="c1"
    )
    assert again.status_code == 200 and again.json() == cast
    after = api(other_player).get(fight).json()
    assert after["turn"] > state["turn"] and after["acting"]["name"] == "Aelis"
    stale = api(storyteller).post(fight + "spells/", body, format="json", HTTP_IDEMPOTENCY_KEY="c2")
    assert stale.status_code == 409
    early = api(other_player).post(
        fight + "spells/resolve/", {"turn": after["turn"]}, format="json"
    )
    assert early.status_code == 403  # Aelis acts: not Brann's to resolve

    next_round(fight, storyteller)
    turn = api(other_player).get(fight).json()["turn"]
    done = api(other_player).post(fight + "spells/resolve/", {"turn": turn}, format="json")
    assert done.status_code == 201, done.json()
    resolved = done.json()
    assert resolved["state"] == "resolved" and resolved["healing"]["target"] == aelis_id
    roll = Roll.objects.get(pk=resolved["rolls"][0]["id"])
    assert roll.inputs["complexity"] == healing["complexity"] and roll.inputs["boon"] == 1


def next_round(url, storyteller, caster="Brann"):
    """End actions until the caster's first slot of the next round."""
    state = api(storyteller).get(url).json()
    start = state["round"]
    while state["round"] == start or state["acting"]["name"] != caster:
        api(storyteller).post(url + "next/", {"turn": state["turn"]}, format="json")
        state = api(storyteller).get(url).json()


def test_item_24_the_energy_cost_is_paid_as_the_spell_begins(fight, other_player, brann):
    """RULES §15 Reading (cost): the cost is typed at the cast, overcharge pays it twice."""
    Character.objects.filter(pk=brann.pk).update(energy_current=9)
    state = api(other_player).get(fight).json()
    body = {"turn": state["turn"], "energy_cost": 4, "overcharge": True, "spell_points": 1}
    made = api(other_player).post(fight + "spells/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["energy_paid"] == 8
    assert Character.objects.get(pk=brann.pk).energy_current == 1
    state = api(other_player).get(fight).json()
    body = {"turn": state["turn"], "energy_cost": 4}
    assert api(other_player).post(fight + "spells/", body, format="json").status_code in (
        400,
        403,
    )


def test_refusals_in_french(fight, other_player):
    state = api(other_player).get(fight).json()
    body = {"turn": state["turn"], "spell_points": 1, "gestures": 2}
    refused = api(other_player).post(fight + "spells/", body, format="json")
    assert refused.status_code == 400
    assert "Les gestes apportent entre 0 et 1 points de sort." in refused.json()["detail"]
    body = {"turn": state["turn"], "focus": 2}
    refused = api(other_player).post(fight + "spells/", body, format="json")
    assert refused.status_code == 400 and "il n'en reste qu'un" in refused.json()["detail"]
    area = {"turn": state["turn"], "kind": "area", "targets": 0}
    assert api(other_player).post(fight + "spells/", area, format="json").status_code == 400
    assert not Roll.objects.exists()


def test_item_21_an_area_spell_names_its_targets_through_the_api(fight, other_player, storyteller):
    """RULES §15 Reading (area): the spell names its targets; one check each."""
    state = api(other_player).get(fight).json()
    aelis_id = Combatant.objects.get(name="Aelis").pk
    body = {"turn": state["turn"], "kind": "area", "area_targets": [aelis_id], "difficulty": 8}
    made = api(other_player).post(fight + "spells/", body, format="json")
    assert made.status_code == 201 and made.json()["checks"] == 1
    assert made.json()["area_targets"] == [aelis_id]
    next_round(fight, storyteller)
    turn = api(other_player).get(fight).json()["turn"]
    done = api(other_player).post(fight + "spells/resolve/", {"turn": turn}, format="json")
    assert len(done.json()["rolls"]) == 1
    assert Roll.objects.get().label.endswith("sur Aelis")
    turn = api(storyteller).get(fight).json()["turn"]
    unknown = {"turn": turn, "kind": "area", "area_targets": [99999]}
    assert api(storyteller).post(fight + "spells/", unknown, format="json").status_code == 400


def test_an_area_spell_through_the_api(fight, other_player):
    state = api(other_player).get(fight).json()
    body = {"turn": state["turn"], "kind": "area", "targets": 2, "difficulty": 8}
    made = api(other_player).post(fight + "spells/", body, format="json")
    assert made.status_code == 201 and made.json()["checks"] == 2
    assert "2 jets, un par cible ou groupe" in made.json()["summary"]


def test_item_21_through_the_api_the_target_defends_the_spells_roll(
    fight, other_player, player, storyteller, aelis
):
    """The same through the API: the caster names Aelis and the damage; Aelis's player sees
    the pending blow in the fight and answers it on `defence/`."""
    url = fight
    state = api(other_player).get(url).json()
    aelis_id = next(c["id"] for c in state["combatants"] if c["name"] == "Aelis")
    body = {
        "turn": state["turn"], "kind": "area", "area_targets": [aelis_id], "difficulty": 1,
        "damage": 3, "gauge": "energy", "characteristic": "power",
    }  # fmt: skip
    assert api(other_player).post(url + "spells/", body, format="json").status_code == 201
    next_round(url, storyteller)
    turn = api(other_player).get(url).json()["turn"]
    done = api(other_player).post(url + "spells/resolve/", {"turn": turn}, format="json")
    assert done.status_code == 201, done.json()
    seen = api(player).get(url).json()
    pending = seen["pending_attack"]
    assert pending["target"] == aelis_id and pending["gauge"] == "energy"
    before = Character.objects.get(pk=aelis.pk).energy_current
    answered = api(player).post(
        url + "defence/", {"attack": pending["id"], "defence": "none"}, format="json"
    )
    assert answered.status_code == 201, answered.json()
    assert answered.json()["damage"] >= 3
    assert Character.objects.get(pk=aelis.pk).energy_current == before - answered.json()["damage"]
    assert api(player).get(url).json()["pending_attack"] is None
