"""Issue 39: the halves of items 4, 10 and 15 that the item tests of test_combat_exchange.py leave
to the table's behaviour — each written so that it fails on the main the issue was filed against
and passes now."""

import pytest
from rest_framework.test import APIClient

from characters import sheet as character_sheet
from characters.models import Character
from sessions import consequences, services
from sessions.checks import RollRequest
from sessions.models import Combatant, Roll
from tests.dice import Faces, route_draws
from tests.sessions.combat_fixtures import running_fight
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_combat_attacks import _to_brann, defend, named, swing
from tests.sessions.test_combat_exchange import BRIGAND_STRIKE, conteur, fight  # noqa: F401

pytestmark = pytest.mark.django_db


def test_item_4_the_attacker_may_spend_resilience_on_a_replys_critical_success(
    campaign, storyteller, player, aelis, brann, as_member, monkeypatch
):
    """Reading §8 (criticals in a fight): "whoever suffers a critical — the attacker's own
    fumble, or the opponent's critical success — chooses Résilience or the table": the Loup's
    reply is a critical success against Aelis, who chose Résilience for her attack."""
    fight_ = running_fight(as_member(campaign, storyteller), storyteller, aelis, brann)
    Character.objects.filter(pk=aelis.pk).update(resilience_points=1)
    base = f"/api/campaigns/{campaign.pk}/encounters/{fight_.pk}/"
    players, conteurs = APIClient(), APIClient()
    players.force_authenticate(player)
    conteurs.force_authenticate(storyteller)
    # Aelis: Force 4, Mêlée 3 → four dice, 5 kept → 9.
    route_draws(monkeypatch, Faces(5, 4, 3, 2, then=None))
    attack = players.post(
        base + "attacks/",
        {
            "turn": players.get(base).json()["turn"],
            "target": Combatant.objects.get(name="Loup").pk,
            "characteristic": "strength",
            "skills": ["melee"],
            "damage": 2,
            "critical": "resilience",
        },
        format="json",
    )
    assert attack.status_code == 201, attack.json()
    # The Loup answers in a reactive confrontation: one die, a 10 and its chain 3 → 13 + 3 = 16,
    # a critical success; any later die (the table's d10) shows 5: Fragilisation at Fragilité 0.
    route_draws(monkeypatch, Faces(10, 3, then=5))
    reply = {"characteristic": "agility", "characteristic_value": 3, "skill_level": 0, "damage": 2}
    blow = conteurs.post(
        base + "defence/",
        {"attack": attack.json()["id"], "defence": "reactive", "reply": reply},
        format="json",
    )
    assert blow.status_code == 201, blow.json()
    assert Roll.objects.get(pk=blow.json()["reply_roll"]).outcome == "critical_success"
    aelis.refresh_from_db()
    assert (aelis.aggravation, aelis.resilience_points, aelis.fragility) == (1, 0, 0)


def test_item_10_one_big_confiance_hit_keeps_its_impuissance_die_on_the_next_roll(
    conteur,  # noqa: F811 (fixture)
    storyteller,
    fight,  # noqa: F811 (fixture)
    aelis,
):
    """Reading §8 (Découragement by one hit): "damage ≥ maximum Confiance in one attack makes the
    character discouraged (1 impuissance die per roll) until its next rest": after the blow,
    Aelis's next table roll is two dice, keep the lowest."""
    _to_brann(conteur, storyteller, fight)
    maximum = character_sheet.gauges(Character.objects.get(pk=aelis.pk))["confidence"].maximum
    pending = swing(
        conteur,
        storyteller,
        fight,
        "Aelis",
        faces=(6,),
        damage=maximum + 5,
        gauge="confidence",
        **BRIGAND_STRIKE,
    )
    defend(conteur, storyteller, fight, pending, "none")
    roll = services.roll_create(
        campaign=conteur,
        by=storyteller,
        request=RollRequest(characteristic="strength"),
        character_id=aelis.pk,
        idempotency_key="after-the-blow",
        rng=Faces(6, 4, then=None),
    )
    assert (roll.breakdown["dice"], roll.breakdown["mode"], roll.breakdown["kept"]) == (
        [6, 4],
        "lowest",
        4,
    )


def test_item_15_a_character_who_avoids_the_critical_with_resilience_stays_conscious(
    conteur,  # noqa: F811 (fixture)
    storyteller,
    fight,  # noqa: F811 (fixture)
    aelis,
):
    """Reading §8: knock-out at 0 Vitalité "follows only an offensive critical whose effect was
    suffered (no Résilience spent)": the Brigand's critical brings Aelis to 0 Vitalité, she
    spends a Résilience point on it and stays in the fight."""
    _to_brann(conteur, storyteller, fight)
    Character.objects.filter(pk=aelis.pk).update(vitality_current=3, resilience_points=1)
    # The Brigand: 10, then 4 → 14 + Agilité 4 = 18, a critical success.
    pending = swing(conteur, storyteller, fight, "Aelis", faces=(10, 4), damage=5, **BRIGAND_STRIKE)
    result = defend(conteur, storyteller, fight, pending, "none", critical=consequences.RESILIENCE)
    aelis.refresh_from_db()
    assert (aelis.vitality_current, aelis.aggravation, aelis.resilience_points) == (0, 1, 0)
    assert named("Aelis").status == "active"
    assert "perd connaissance" not in result["summary"]
