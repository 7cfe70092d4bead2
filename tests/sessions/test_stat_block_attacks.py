"""NPC stat blocks carry their attacks (issue 39 §4): an NPC's attack is one choice and a target,
through the bestiary form, the tracker and the API; a new block is visible unless hidden; the
form's title names the block."""

from html import unescape

import pytest
from rest_framework.test import APIClient

from sessions.models import Combatant, Encounter, Roll, StatBlock
from tests.dice import Faces, route_draws
from tests.sessions.combat_fixtures import HTMX, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db

BLOCK = {
    "name": "Brigand",
    "agility": 4,
    "perception": 3,
    "wisdom": 2,
    "strength": 3,
    "vigor": 3,
    "combativeness": 1,
    "vitality_max": 20,
    "energy_max": 10,
    "confidence_max": 10,
    "armour": 4,
    "annulation": 0,
    "resistance": 0,
}
ROWS = {
    "attacks-TOTAL_FORMS": "2",
    "attacks-INITIAL_FORMS": "0",
    "attacks-0-weapon": "Arbalète",
    "attacks-0-characteristic": "perception",
    "attacks-0-skill": "tir",
    "attacks-0-level": "2",
    "attacks-0-damage": "6",
    "attacks-0-gauge": "vitality",
    "attacks-0-ranged": "on",
    "attacks-1-weapon": "",
    "attacks-1-characteristic": "strength",
    "attacks-1-skill": "melee",
    "attacks-1-level": "0",
    "attacks-1-damage": "0",
    "attacks-1-gauge": "vitality",
}


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_bestiary_form_keeps_the_attacks_and_its_title_names_the_block(
    campaign, storyteller_client, player_client
):
    created = storyteller_client.post(url(campaign, "stat_block_create"), {**BLOCK, **ROWS})
    assert created.status_code == 302, created.context["attacks"].errors
    block = StatBlock.objects.get()
    assert not block.hidden  # visible unless the Conteur hides it
    assert block.attacks == [
        {
            "weapon": "Arbalète",
            "characteristic": "perception",
            "skill": "tir",
            "level": 2,
            "damage": 6,
            "gauge": "vitality",
            "ranged": True,
            "nonlethal": False,
        }
    ]
    edit = unescape(
        storyteller_client.get(url(campaign, "stat_block_edit", block.pk)).content.decode()
    )
    assert "Modifier « Brigand »" in edit and "campaign_content" not in edit
    assert 'value="Arbalète"' in edit
    shown = unescape(player_client.get(url(campaign, "bestiary")).content.decode())
    assert "Brigand" in shown and "Arbalète" in shown and "à distance" in shown


def test_a_new_block_through_the_api_is_visible_and_carries_its_attacks(
    campaign, storyteller, player
):
    base = f"/api/campaigns/{campaign.pk}/stat-blocks/"
    sword = {"weapon": "Épée", "characteristic": "strength", "skill": "melee", "damage": 5}
    made = api(storyteller).post(base, {"name": "Garde", "attacks": [sword]}, format="json")
    assert made.status_code == 201, made.json()
    (seen,) = api(player).get(base).json()["results"]
    assert seen["name"] == "Garde" and seen["attacks"][0]["weapon"] == "Épée"
    assert seen["attacks"][0]["level"] == 0 and not seen["attacks"][0]["nonlethal"]
    bad = api(storyteller).post(
        base, {"name": "X", "attacks": [{**sword, "characteristic": "power"}]}, format="json"
    )
    assert bad.status_code == 400
    assert all(key.startswith("attacks") for key in bad.json()["errors"])


def test_a_blocks_attacks_refuse_what_their_schema_forbids(campaign, storyteller):
    """An unknown key, a blank weapon, a seventh attack: refused, as the schema says
    (`additionalProperties: false`, the weapon's pattern, `maxItems`)."""
    base = f"/api/campaigns/{campaign.pk}/stat-blocks/"
    sword = {"weapon": "Épée"}
    for attacks in (
        [{**sword, "edge": 3}],
        [{"weapon": "   "}],
        [sword] * 7,
    ):
        bad = api(storyteller).post(base, {"name": "X", "attacks": attacks}, format="json")
        assert bad.status_code == 400, attacks
        assert all(key.startswith("attacks") for key in bad.json()["errors"])
    assert not StatBlock.objects.exists()
    six = api(storyteller).post(base, {"name": "X", "attacks": [sword] * 6}, format="json")
    assert six.status_code == 201 and len(six.json()["attacks"]) == 6


@pytest.fixture
def guard_fight(campaign, storyteller, aelis, brann, monkeypatch):
    """A running fight where the Garde (two attacks) acts first against Aelis and Brann."""
    route_draws(monkeypatch, Faces(then=6))
    conteur = api(storyteller)
    base = f"/api/campaigns/{campaign.pk}/"
    attacks = [
        {"weapon": "Épée", "characteristic": "strength", "skill": "melee", "level": 2, "damage": 5},
        {
            "weapon": "Matraque",
            "characteristic": "vigor",
            "skill": "melee",
            "level": 1,
            "damage": 3,
            "nonlethal": True,
        },
    ]
    block = conteur.post(
        base + "stat-blocks/",
        {"name": "Garde", "strength": 4, "vigor": 3, "attacks": attacks},
        format="json",
    ).json()
    opened = conteur.post(base + "encounters/", {"name": "Poste"}, format="json").json()
    fight = base + f"encounters/{opened['id']}/"
    conteur.post(fight + "combatants/", {"characters": [aelis.pk, brann.pk]}, format="json")
    conteur.post(fight + "combatants/", {"stat_block": block["id"]}, format="json")
    conteur.post(fight + "initiative/")
    encounter = Encounter.objects.get()
    garde = Combatant.objects.get(name="Garde 1")
    encounter.order = sorted(encounter.order, key=lambda s: s["combatant"] != garde.pk)
    encounter.save(update_fields=["order"])
    return fight


def test_an_npc_attacks_with_one_choice_and_a_target_through_the_api(guard_fight, storyteller):
    conteur = api(storyteller)
    state = conteur.get(guard_fight).json()
    aelis = next(c["id"] for c in state["combatants"] if c["name"] == "Aelis")
    body = {"turn": state["turn"], "target": aelis, "profile": 1}
    made = conteur.post(guard_fight + "attacks/", body, format="json")
    assert made.status_code == 201, made.json()
    attack = made.json()
    assert attack["nonlethal"] and attack["damage"] == 3 and not attack["ranged"]
    roll = Roll.objects.get(pk=attack["roll"])
    assert roll.total == 6 + 3  # the kept die and Vigueur 3: the Matraque's (Épée: Force 4)


def test_a_profile_the_npc_lacks_is_refused_naming_the_field_sent(guard_fight, storyteller):
    conteur = api(storyteller)
    state = conteur.get(guard_fight).json()
    aelis = next(c["id"] for c in state["combatants"] if c["name"] == "Aelis")
    refused = conteur.post(
        guard_fight + "attacks/",
        {"turn": state["turn"], "target": aelis, "profile": 4},
        format="json",
    )
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["profile"]
    nothing = conteur.post(
        guard_fight + "attacks/", {"turn": state["turn"], "target": aelis}, format="json"
    )
    assert nothing.status_code == 400 and "characteristic" not in nothing.json()["errors"]


def test_the_tracker_offers_the_npcs_attacks_as_one_choice(
    campaign, guard_fight, storyteller_client
):
    page = unescape(storyteller_client.get(url(campaign, "table")).content.decode())
    assert "Épée — Force, Mêlée 2, 5 dégâts" in page
    assert "Matraque — Vigueur, Mêlée 1, 3 dégâts, non létale" in page
    encounter = Encounter.objects.get()
    aelis = Combatant.objects.get(name="Aelis")
    response = storyteller_client.post(
        url(campaign, "combat_attack", encounter.pk),
        {
            "turn": encounter.turn,
            "idempotency_key": "p1",
            "target": aelis.pk,
            "profile": 0,
            "characteristic": "strength",
            "complexity": 0,
            "difficulty": 0,
            "damage": 0,
            "gauge": "vitality",
            "back": "table",
        },
        **HTMX,
    )
    assert response.status_code == 200
    pending = Encounter.objects.get().pending_attack
    assert pending["damage"] == 5 and pending["target"] == aelis.pk
