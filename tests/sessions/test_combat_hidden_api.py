"""A fight with a hidden NPC through the API, by the Conteur and two players (issue 39 §4): the
player is asked to defend against « une attaque » (no name, no figures), every answer works, the
log and the summary tell each one the truth they may see, and the fight goes to its end."""

import json

import pytest
from rest_framework.test import APIClient

from campaigns.models import Notification
from characters.models import Character, CharacterChange
from sessions.models import Encounter
from tests.dice import Faces, route_draws
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db

WOLF = {"characteristic": "strength", "characteristic_value": 4, "skill_level": 2}


@pytest.fixture
def dice(monkeypatch) -> Faces:
    return route_draws(monkeypatch, Faces(then=5))


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def table(campaign, storyteller, player, other_player, aelis, brann, dice):
    """A running fight: the hidden Loup acts first, then Aelis (player), then Brann."""
    conteur = api(storyteller)
    base = f"/api/campaigns/{campaign.pk}/"
    block = conteur.post(
        base + "stat-blocks/", {"name": "Loup", "agility": 3, "hidden": True}, format="json"
    ).json()
    opened = conteur.post(base + "encounters/", {"name": "Lisière"}, format="json").json()
    fight = base + f"encounters/{opened['id']}/"
    conteur.post(fight + "combatants/", {"characters": [aelis.pk, brann.pk]}, format="json")
    conteur.post(fight + "combatants/", {"stat_block": block["id"]}, format="json")
    assert conteur.post(fight + "initiative/").status_code == 200
    encounter = Encounter.objects.get()
    ids = {c.name: c.pk for c in encounter.combatants.all()}
    encounter.order = sorted(encounter.order, key=lambda s: s["combatant"] != ids["Loup 1"])
    encounter.save(update_fields=["order"])
    return {
        "base": base,
        "fight": fight,
        "ids": ids,
        "conteur": conteur,
        "joueuse": api(player),
        "joueur": api(other_player),
    }


def post(client, url, body=None, status=200):
    answer = client.post(url, body or {}, format="json")
    assert answer.status_code == status, answer.json()
    return answer.json()


def wolf_attacks(t, target: str, damage: int = 5) -> dict:
    turn = t["conteur"].get(t["fight"]).json()["turn"]
    body = {**WOLF, "skills": ["melee"], "damage": damage, "turn": turn, "target": t["ids"][target]}
    return post(t["conteur"], t["fight"] + "attacks/", body, 201)


def test_the_player_is_asked_to_defend_against_a_hidden_npc_without_learning_it(
    table, player, aelis
):
    t = table
    attack = wolf_attacks(t, "Aelis")
    seen = t["joueuse"].get(t["fight"]).json()
    pending = seen["pending_attack"]
    assert pending is not None and pending["id"] == attack["id"] and pending["masked"]
    assert pending["attacker"] is None and pending["total"] is None
    assert {d["key"] for d in pending["defences"]} == {"block", "dodge", "parry"}
    assert "Loup" not in json.dumps(seen)
    other = t["joueur"].get(t["fight"]).json()["pending_attack"]
    assert other["target"] == t["ids"]["Aelis"] and other["defences"] == []  # not Brann's to answer
    # Told at once, the fight named, the NPC not.
    (note,) = Notification.objects.filter(user=player, kind="combat_defence")
    assert "Lisière" in note.text and "Aelis" in note.text and "Loup" not in note.text


@pytest.mark.parametrize("defence", ["none", "dodge", "block", "parry"])
def test_every_answer_to_a_hidden_npc_works_and_the_log_tells_the_player_the_truth(
    table, aelis, defence
):
    t = table
    attack = wolf_attacks(t, "Aelis")
    blow = post(
        t["joueuse"], t["fight"] + "defence/", {"attack": attack["id"], "defence": defence}, 201
    )
    assert blow["masked"] and blow["attacker"] is None and "Loup" not in json.dumps(blow)
    again = post(
        t["joueuse"], t["fight"] + "defence/", {"attack": attack["id"], "defence": defence}
    )
    assert again == blow  # a retried answer: the same blow, still masked
    aelis.refresh_from_db()
    assert aelis.vitality_current == 15 - blow["damage"]
    log = [e["summary"] for e in t["joueuse"].get(t["base"] + "log/").json()["results"]]
    assert not any("Loup" in line for line in log)
    if blow["damage"]:
        assert f"Une attaque inflige {blow['damage']} points de Vitalité à Aelis." in log[0]
    assert t["joueuse"].get(t["fight"]).json()["last_attack"]["summary"] == blow["summary"]
    # The Conteur reads the whole.
    conteur_log = [e["summary"] for e in t["conteur"].get(t["base"] + "log/").json()["results"]]
    assert any("Loup 1" in line for line in conteur_log)


def test_a_hidden_fight_is_played_to_its_end_by_the_conteur_and_two_players(
    table, aelis, brann, dice
):
    t = table
    ids, fight = t["ids"], t["fight"]

    # Round 1: the hidden Loup bites Aelis, who does not defend.
    attack = wolf_attacks(t, "Aelis", damage=4)
    bitten = post(
        t["joueuse"], fight + "defence/", {"attack": attack["id"], "defence": "none"}, 201
    )
    assert bitten["damage"] > 0
    state = post(t["conteur"], fight + "next/", {"turn": t["conteur"].get(fight).json()["turn"]})
    assert state["acting"]["name"] == "Aelis"
    # Aelis and Brann end their own actions: nothing is stuck.
    state = post(t["joueuse"], fight + "next/", {"turn": state["turn"]})
    assert state["acting"]["name"] == "Brann"
    state = post(t["joueur"], fight + "next/", {"turn": state["turn"]})
    assert state["round"] == 2

    # Round 2: the players see the Conteur play a hidden NPC; the Loup goes for Brann, who
    # dodges; then it steps out of the shadows.
    while (state := t["conteur"].get(fight).json())["acting"]["name"] != "Loup 1":
        post(t["conteur"], fight + "next/", {"turn": state["turn"]})
    assert t["joueur"].get(fight).json()["hidden_acting"]
    attack = wolf_attacks(t, "Brann", damage=4)
    dodged = post(
        t["joueur"], fight + "defence/", {"attack": attack["id"], "defence": "dodge"}, 201
    )
    assert dodged["masked"], dodged
    post(t["conteur"], fight + f"combatants/{ids['Loup 1']}/reveal/")
    state = post(t["conteur"], fight + "next/", {"turn": t["conteur"].get(fight).json()["turn"]})
    assert state["acting"]["name"] == "Aelis"
    strike = {"characteristic": "strength", "skills": ["melee"], "damage": 6}
    attack = post(
        t["joueuse"],
        fight + "attacks/",
        {**strike, "turn": state["turn"], "target": ids["Loup 1"]},
        201,
    )
    if attack["result"] is None:
        post(t["conteur"], fight + "defence/", {"attack": attack["id"], "defence": "none"}, 201)
    assert post(t["conteur"], fight + "end/")["status"] == "ended"

    # Each reads the truth they may see: Aelis took the bite, whoever gave it.
    closing = t["joueuse"].get(t["base"] + "log/").json()["results"][0]["summary"]
    assert "Aelis inflige" in closing and f"reçoit {bitten['damage']}" in closing
    aelis.refresh_from_db()
    assert aelis.vitality_current == 15 - bitten["damage"]


def test_the_fight_summary_is_its_own_operation_with_each_ones_truth(table, aelis, outsider):
    t = table
    attack = wolf_attacks(t, "Aelis", damage=4)
    blow = post(
        t["joueuse"], t["fight"] + "defence/", {"attack": attack["id"], "defence": "none"}, 201
    )
    ids = t["ids"]
    mine = t["joueuse"].get(t["fight"] + "summary/")
    assert mine.status_code == 200
    seen = mine.json()
    assert [row["name"] for row in seen["combatants"]] == ["Aelis", "Brann"]
    aelis_row = seen["combatants"][0]
    assert aelis_row["taken"] == blow["damage"] == aelis_row["taken_by_gauge"]["vitality"]
    assert aelis_row["status"] == "active"
    assert seen["blows"] == [
        {
            "round": 1,
            "attacker": None,  # « une attaque »
            "target": ids["Aelis"],
            "gauge": "vitality",
            "damage": blow["damage"],
            "reply_damage": 0,
            "aggravation": {"attacker": 0, "defender": 0},
        }
    ]
    whole = t["conteur"].get(t["fight"] + "summary/").json()
    assert whole["blows"][0]["attacker"] == ids["Loup 1"]
    assert {row["name"] for row in whole["combatants"]} == {"Aelis", "Brann", "Loup 1"}
    assert api(outsider).get(t["fight"] + "summary/").status_code == 404


def test_the_summary_is_an_operation_of_the_schema(client):
    schema = client.get("/api/schema/").content.decode()
    assert "/encounters/{id}/summary/" in schema and "FightSummary" in schema


def test_the_sheet_history_names_the_attacks_author_not_the_player_who_answered(
    table, aelis, storyteller, player
):
    t = table
    attack = wolf_attacks(t, "Aelis", damage=4)
    blow = post(
        t["joueuse"], t["fight"] + "defence/", {"attack": attack["id"], "defence": "none"}, 201
    )
    change = CharacterChange.objects.filter(character=aelis, field="vitality_current").first()
    assert change.new_value == 15 - blow["damage"] and change.action == "damage"
    assert change.by == storyteller  # the Conteur struck (« une attaque »), not Aelis's player


def test_losing_consciousness_is_said_once(table, aelis):
    t = table
    energy = Character.objects.get(pk=aelis.pk).energy_current
    attack = wolf_attacks(t, "Aelis", damage=energy + 90)  # more than her whole Énergie
    encounter = Encounter.objects.get()  # the blow aims at her Énergie
    encounter.pending_attack = {**encounter.pending_attack, "gauge": "energy"}
    encounter.save(update_fields=["pending_attack"])
    blow = post(
        t["joueuse"], t["fight"] + "defence/", {"attack": attack["id"], "defence": "none"}, 201
    )
    conteur = t["conteur"].get(t["fight"]).json()["last_attack"]["summary"]
    assert conteur.count("connaissance") == 1 and "Aelis perd connaissance." in conteur
    assert blow["summary"].count("connaissance") == 1


def test_an_error_never_names_a_field_the_client_did_not_send(table):
    t = table
    attack = wolf_attacks(t, "Aelis")
    turn = t["conteur"].get(t["fight"]).json()["turn"]
    body = {**WOLF, "turn": turn, "target": t["ids"]["Brann"]}
    busy = t["conteur"].post(t["fight"] + "attacks/", body, format="json")
    assert busy.status_code == 409
    assert set(busy.json()["errors"]) <= set(body) | {"non_field_errors"}
    assert "attend déjà sa défense" in busy.json()["detail"]
    answer = {"attack": attack["id"], "defence": "dodge"}
    done = t["joueuse"].post(t["fight"] + "defence/", answer, format="json")
    assert done.status_code == 201  # a player's roll against a hidden NPC: no « visibility »
    ended = post(t["conteur"], t["fight"] + "end/")
    assert ended["status"] == "ended"
    late = t["conteur"].post(
        t["fight"] + "attacks/", {**body, "turn": ended["turn"]}, format="json"
    )
    assert late.status_code == 400
    assert set(late.json()["errors"]) <= set(body) | {"non_field_errors"}
