"""A whole fight through the API alone (issue 14, done when): two players, four brigands from one
stat block, hidden then revealed; initiative, two rounds with Combativité's extra action, a
parried attack, an attack blocked with armour, a non-lethal blow, a critical and its Aggravation,
a delayed turn, a defeated brigand skipped across the round change, a healing spell with its
computed complexity, the Péril and Agonie of the turns — and the fight's closing summary.

The dice are the test's (`tests.dice.Faces`): every step's outcome is certain."""

import pytest
from rest_framework.test import APIClient

from characters.models import Character
from tests.dice import Faces, route_draws
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def dice(monkeypatch) -> Faces:
    return route_draws(monkeypatch, Faces(then=5))


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_whole_fight_through_the_api(
    campaign, storyteller, player, other_player, aelis, brann, dice
):
    conteur, joueuse, joueur = api(storyteller), api(player), api(other_player)
    Character.objects.filter(pk=aelis.pk).update(combativeness=2, power=4)
    Character.objects.filter(pk=brann.pk).update(vitality_current=6, vitality_scars=2)
    base = f"/api/campaigns/{campaign.pk}/"

    # The Conteur's bestiary: one stat block, four hidden copies of it.
    brigand = {"name": "Brigand", "agility": 4, "perception": 3, "vigor": 3, "armour": 6}
    block = conteur.post(base + "stat-blocks/", {**brigand, "hidden": True}, format="json")
    assert block.status_code == 201, block.json()
    opened = conteur.post(base + "encounters/", {"name": "Embuscade"}, format="json").json()
    fight = base + f"encounters/{opened['id']}/"

    def post(client, path, body=None, status=200):
        answer = client.post(fight + path, body or {}, format="json")
        assert answer.status_code == status, answer.json()
        return answer.json()

    def step() -> int:
        return conteur.get(fight).json()["turn"]

    def seen_by_brann() -> dict:
        return joueur.get(fight).json()

    post(conteur, "combatants/", {"characters": [aelis.pk, brann.pk]}, 201)
    post(conteur, "combatants/", {"stat_block": block.json()["id"], "count": 4}, 201)
    assert [c["name"] for c in seen_by_brann()["combatants"]] == ["Aelis", "Brann"]

    # Initiative (§13, the Finesse check of §5's Reading): one die each, in the order they joined.
    dice.next(9, 8, 6, 5, 4, 3)
    post(conteur, "initiative/")
    everyone = conteur.get(fight).json()
    ids = {c["name"]: c["id"] for c in everyone["combatants"]}
    assert [c["initiative"] for c in everyone["combatants"]] == [11, 10, 9, 8, 7, 6]
    hidden_view = seen_by_brann()
    assert [c["name"] for c in hidden_view["combatants"]] == ["Aelis", "Brann"]
    assert all("Brigand" not in s["name"] for s in hidden_view["upcoming"])
    for n in (1, 2, 3, 4):
        post(conteur, f"combatants/{ids[f'Brigand {n}']}/reveal/")
    assert len(seen_by_brann()["combatants"]) == 6
    # "every character acts once, then those with Combativité ≥ 2 act again" (§13)
    assert everyone["acting"]["name"] == "Aelis"

    # Round 1 — Aelis attacks Brigand 1, who parries: "Parade (…; Agilité…)" (§13).
    dice.next(then=3)
    strike = {"characteristic": "strength", "skills": ["melee"], "damage": 4}
    attack = post(joueuse, "attacks/", {**strike, "turn": step(), "target": ids["Brigand 1"]}, 201)
    assert attack["total"] == 3 + 4  # kept 3 + Force 4
    offered = {d["key"]: d for d in conteur.get(fight).json()["pending_attack"]["defences"]}
    assert offered["parry"]["characteristic"] == 4 and offered["parry"]["source"] == "agility"
    dice.next(then=8)
    parry = {"attack": attack["id"], "defence": "parry", "skill_level": 2}
    blow = post(conteur, "defence/", parry, 201)
    assert blow["defended"] and blow["damage"] == 0
    assert "Parade) : 12 contre 7, réussie. Brigand 1 évite le coup." in blow["summary"]
    assert post(conteur, "defence/", parry) == blow  # a retried defence answers the same blow
    assert seen_by_brann()["last_attack"]["summary"] == blow["summary"]
    post(joueuse, "next/", {"turn": step()})  # the player ends her own action

    # Brann attacks Brigand 2, who blocks with its armour: "Blocage (…; Vigueur, or the
    # armour's value…)" (§13) — the armour's 6 beats the Vigueur's 3.
    dice.next(then=3)
    strike = {"characteristic": "vigor", "skills": ["melee"], "damage": 4}
    attack = post(joueur, "attacks/", {**strike, "turn": step(), "target": ids["Brigand 2"]}, 201)
    offered = {d["key"]: d for d in conteur.get(fight).json()["pending_attack"]["defences"]}
    assert offered["block"]["source"] == "armour" and offered["block"]["characteristic"] == 6
    dice.next(then=8)
    blow = post(conteur, "defence/", {"attack": attack["id"], "defence": "block"}, 201)
    assert blow["defended"] and blow["damage"] == 0
    assert "(Blocage) : 14 contre 8, réussie" in blow["summary"]
    post(joueur, "next/", {"turn": step()})

    # Brigand 1 (the Conteur) strikes Brann with a critical success: a kept 10 explodes (§5), the
    # target "takes a level of Aggravation" and rolls on its Fragilité's row (§8): 3 on row 0 is
    # "1–5 Fragilisation: +1 Fragilité"; at 0 Vitalité, unconscious for max(Aggravation, Agonie).
    dice.next(10, 2, 2, 2)
    npc = {"characteristic": "strength", "characteristic_value": 4, "skill_level": 2}
    strike = {**npc, "skills": ["melee"], "damage": 6}
    attack = post(conteur, "attacks/", {**strike, "turn": step(), "target": ids["Brann"]}, 201)
    assert attack["outcome"] == "critical_success" and attack["exploded"]
    assert attack["total"] == 10 + 2 + 4
    dice.next(3)
    blow = post(joueur, "defence/", {"attack": attack["id"], "defence": "none"}, 201)
    assert blow["aggravation"] == {"attacker": 0, "defender": 1}
    assert "Vitalité : 6 → 0. Vitalité en péril" in blow["summary"]
    assert "d10 tiré 3 sur la ligne Fragilité 0 → Fragilisation" in blow["summary"]
    assert "Brann tombe inconscient pour 1 tour." in blow["summary"]
    brann.refresh_from_db()
    assert (brann.vitality_current, brann.agony, brann.aggravation, brann.fragility) == (0, 1, 1, 1)
    post(conteur, "next/", {"turn": step()})

    # Brigand 2 delays its action: Brigand 3 acts at once, then Brigand 2, then Brigand 4.
    assert post(conteur, "delay/", {"turn": step()})["acting"]["name"] == "Brigand 3"
    assert post(conteur, "next/", {"turn": step()})["acting"]["name"] == "Brigand 2"
    assert post(conteur, "next/", {"turn": step()})["acting"]["name"] == "Brigand 4"
    acting = post(conteur, "next/", {"turn": step()})["acting"]
    assert acting == {"combatant": ids["Aelis"], "name": "Aelis", "action": 2}  # Combativité 2

    # Aelis's second action: a non-lethal blow on Brigand 4 — "no scars and no damage bonus"
    # (§8): its 5 base damage, nothing more.
    dice.next(then=6)
    strike = {"characteristic": "strength", "skills": ["melee"], "damage": 5, "nonlethal": True}
    attack = post(joueuse, "attacks/", {**strike, "turn": step(), "target": ids["Brigand 4"]}, 201)
    blow = post(conteur, "defence/", {"attack": attack["id"], "defence": "none"}, 201)
    assert (
        blow["damage"] == 5 and blow["summary"] == "Brigand 4 subit 5 dégâts. Vitalité : 15 → 10."
    )
    post(conteur, f"combatants/{ids['Brigand 4']}/status/", {"status": "defeated"})

    # The round ends: Brann, knocked out for 1 round, misses round 2 (§8 Reading: « its next
    # max(Aggravation, Agonie) rounds »); his Vitalité in péril is checked at the turn's start
    # (§8 Reading: Résilience against the gauge's scars, plus his Agonie 1 (§13 Product); a 1
    # with a subtractive chain of 3, 1 − 3 + 3, fails by 2: two scars more); the defeated
    # Brigand 4 has no place in round 2.
    dice.next(1, 3)
    round_two = post(joueuse, "next/", {"turn": step()})
    assert round_two["round"] == 2 and round_two["acting"]["name"] == "Aelis"
    names = [s["name"] for s in round_two["upcoming"]]
    assert names == ["Brigand 1", "Brigand 2", "Brigand 3", "Aelis"]
    log = [e["summary"] for e in joueur.get(base + "log/").json()["results"]]
    assert "Brann reprend connaissance." not in log[0]
    assert "Péril (Vitalité) : Brann fait 1 contre 3, raté : 2 cicatrices de plus." in log[0]
    assert "Tour 2 : Aelis, Brigand 1, Brigand 2, Brigand 3, Aelis (2ᵉ action)." in log[0]
    brann.refresh_from_db()
    assert brann.vitality_scars == 4

    # Round 2 — Aelis heals Brann: "complexity by scars against the gauge maximum: 1 no scar;
    # 2 at least one; 3 ≥ 1/10 …; +1 each if the gauge is at 0, … or the gauge is in péril"
    # (§15): 4 scars of 50 is under 1/10 → 2, at 0 → 3, in péril → 4; difficulty = the 50 wounds.
    query = {"kind": "healing", "target": ids["Brann"], "gauge": "vitality"}
    healing = joueuse.get(fight + "spells/preview/", query).json()["healing"]
    assert (healing["scar_complexity"], healing["complexity"], healing["difficulty"]) == (2, 4, 50)
    dice.next(then=7)
    body = {**query, "turn": step(), "characteristic": "power", "skills": ["sorcellerie"]}
    cast = post(joueuse, "spells/", body, 201)
    assert cast["state"] == "begun" and cast["rolls"] == []
    assert cast["healing"]["complexity"] == 4 and cast["actions_given_up"] == 1
    assert (
        "complexité 4 (4 cicatrices sur 50 : 2, +1 constitution à 0, +1 en péril)"
        in (cast["summary"])
    )
    # "Incantation takes a whole turn" (§15): her second action of the round is gone.
    state = seen_by_brann()
    assert state["acting"]["name"] == "Brigand 1"
    assert [s["name"] for s in state["upcoming"]] == ["Brigand 2", "Brigand 3"]
    while state["round"] == 2:
        dice.next(then=9)
        state = post(conteur, "next/", {"turn": state["turn"]})

    # Round 3 starts: a whole turn at 0 Vitalité, not stabilised, is +1 Agonie (§8); Brann
    # wakes, and his Péril counts the Agonie just grown (4 scars + 2).
    log = [e["summary"] for e in joueur.get(base + "log/").json()["results"]]
    assert "Brann passe un tour entier à 0 de Vitalité : Agonie 2." in log[0]
    assert "Brann reprend connaissance." in log[0]
    assert "Péril (Vitalité) : Brann fait 12 contre 6, réussi." in log[0]
    brann.refresh_from_db()
    assert (brann.agony, brann.vitality_scars) == (2, 4)

    # Round 3 — the incantation begun in round 2 resolves at Aelis's first slot (§15 Reading):
    # 7s on 5 dice keep the lowest (complexity 4) do not reach the 50 wounds; nothing healed.
    state = seen_by_brann()
    assert state["acting"]["name"] == "Aelis"
    dice.next(then=7)
    resolved = post(joueuse, "spells/resolve/", {"turn": state["turn"]}, 201)
    assert resolved["state"] == "resolved" and resolved["healing"]["difficulty"] == 50
    assert resolved["healed_points"] == 0 and "rien n'est soigné" in resolved["summary"]

    # The fight closes with its summary, for everyone.
    assert post(conteur, "end/")["status"] == "ended"
    closing = joueur.get(base + "log/").json()["results"][0]["summary"]
    assert "Brann inflige 0 et reçoit 6, 1 critique subi" in closing
    assert "Brigand 1 inflige 6 et reçoit 0" in closing
    assert "Hors de combat : Brigand 4." in closing
