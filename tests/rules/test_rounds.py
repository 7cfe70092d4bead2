"""§8, §13 — a round's end as one pure function (`rules.rounds.round_end`).

RULES.md §13: « Once per round: Finesse points return, Péril is rolled (at the round's start),
Agonie grows, regenerations happen, knock-out and incantation counts advance. »"""

import pytest

from rules.alterations import Alterations, altered, npc_alterations, sheet_alterations
from rules.check import Check
from rules.errors import RuleError
from rules.gauges import Gauge
from rules.rounds import (
    RoundFighter,
    forced_regeneration_points,
    knock_out_left,
    round_end,
    round_start_perils,
)
from rules.states import FURY, Condition
from tests.dice import Faces

FULL = Gauge(maximum=15, current=15)
AT_ZERO = Gauge(maximum=15, current=0, peril=True)


def fighter(**changes) -> RoundFighter:
    values = {
        "gauges": {"vitality": FULL, "energy": FULL, "confidence": FULL},
        "finesse": 3,
        "resilience": 3,
        "round": 2,
    }
    gauges = changes.pop("gauges", {})
    return RoundFighter(**{**values, **changes, "gauges": {**values["gauges"], **gauges}})


def test_finesse_points_return_to_the_finesse_score():
    """§1: Finesse points are all regained at each new round."""
    assert round_end(fighter(finesse=4)).finesse_points == 4


# §8 "Agonie: +1 per full turn at 0 not stabilised"; Reading (Agonie in a fight): a combatant
# already at 0 Vitalité when a round starts gains its point at that round's end — round 1 too.
@pytest.mark.parametrize(
    ("vitality", "zero_since", "round_", "gained"),
    [
        (AT_ZERO, 0, 1, 1),  # at 0 before round 1 began
        (AT_ZERO, 1, 2, 1),  # fell in round 1, whole round 2 at 0
        (AT_ZERO, None, 2, 0),  # fell during round 2: not a full round
        (Gauge(maximum=15, current=0, stabilised=True), 0, 2, 0),  # stabilised
        (FULL, 0, 2, 0),  # healed since
    ],
)
def test_agony_grows_for_each_full_round_at_zero(vitality, zero_since, round_, gained):
    end = round_end(
        fighter(gauges={"vitality": vitality}, zero_since=zero_since, round=round_, agony=1),
        Faces(then=5),
    )
    assert end.agony_gained == gained and end.agony == 1 + gained


def test_the_round_a_combatant_falls_in_starts_its_count():
    end = round_end(fighter(gauges={"vitality": AT_ZERO}, round=3, agony=1), Faces(then=5))
    assert end.zero_since == 3 and end.agony == 1
    assert round_end(fighter(round=3, zero_since=2)).zero_since is None


def test_agony_is_judged_before_the_rounds_regeneration():
    """Reading: the round was spent at 0; the regeneration comes at its end."""
    end = round_end(
        fighter(gauges={"vitality": AT_ZERO}, zero_since=1, regeneration={"vitality": 4}),
        Faces(then=5),
    )
    assert (end.agony, end.gauges["vitality"].current, end.zero_since) == (1, 4, None)


# §13 Reading: characters and NPCs regenerate at round end alike; a turn's regeneration heals,
# never past the maximum, with no serious wound.
@pytest.mark.parametrize(
    ("current", "points", "after", "regenerated"),
    [(10, 3, 13, 3), (14, 3, 15, 1), (15, 3, 15, 0), (10, 0, 10, 0)],
)
def test_regeneration_at_round_end(current, points, after, regenerated):
    hurt = Gauge(maximum=15, current=current, scars=2)
    end = round_end(fighter(gauges={"energy": hurt}, regeneration={"energy": points}))
    assert end.gauges["energy"] == Gauge(maximum=15, current=after, scars=2)
    assert end.regenerated.get("energy", 0) == regenerated


# §8 Reading (criticals in a fight): a knock-out makes the combatant miss its *next*
# max(Aggravation, Agonie) rounds: the round it fell in is not one of them.
@pytest.mark.parametrize(
    ("left", "fresh", "after", "wakes"),
    [(1, True, 1, False), (1, False, 0, True), (3, False, 2, False), (0, False, 0, False)],
)
def test_knock_out_counts_the_rounds_after_the_fall(left, fresh, after, wakes):
    assert knock_out_left(left, fresh=fresh) == after
    end = round_end(fighter(knocked_out=left, knocked_out_fresh=fresh))
    assert (end.knocked_out, end.wakes) == (after, wakes)


def test_incantation_count_advances_once_a_round():
    assert round_end(fighter(incantation=1)).incantation == 0
    assert round_end(fighter(incantation=0)).incantation == 0


# §8 Reading (Péril): « a check with characteristic = Résilience score, skill 0, complexity 0,
# difficulty = that gauge's scars; on failure the gauge gains as many scars as the margin ».
# §13 Product: built from the roller's sheet — its dice and Agonie.
@pytest.mark.parametrize(
    ("faces", "agony", "bane", "scars_added"),
    [
        ((4,), 0, 0, 0),  # 4 + 3 = 7 ≥ 5 scars
        ((2,), 0, 0, 0),  # 2 + 3 = 5 ≥ 5: a tie succeeds
        ((1, 5), 0, 0, 6),  # 1 − 5 + 3 = −1 vs 5: margin −6
        ((4,), 3, 0, 1),  # Agonie 3: 7 vs 8, margin −1
        ((4, 2), 0, 1, 0),  # Épuisement 1: two dice keep the lowest, 2 + 3 = 5
        ((4, 1, 3), 0, 1, 4),  # Épuisement 1, kept 1 chains down: 1 − 3 + 3 = 1 vs 5
    ],
)
def test_peril_rolls_against_scars_with_agony_and_the_sheets_dice(faces, agony, bane, scars_added):
    hurt = Gauge(maximum=15, current=0, scars=5, peril=True)
    end = round_end(
        fighter(gauges={"energy": hurt}, agony=agony, bane=bane),
        Faces(*faces, then=None),
    )
    (peril,) = end.perils
    assert peril.gauge == "energy"
    assert peril.scars_added == scars_added
    assert end.gauges["energy"].scars == 5 + scars_added


def test_peril_uses_the_agony_the_round_just_gave():
    hurt = Gauge(maximum=15, current=0, scars=5, peril=True)
    end = round_end(fighter(gauges={"vitality": hurt}, zero_since=1, agony=2), Faces(4))
    assert end.agony == 3 and end.perils[0].breakdown.target == 8


def test_a_special_state_ignores_agony_on_peril():
    hurt = Gauge(maximum=15, current=0, scars=5, peril=True)
    end = round_end(fighter(gauges={"energy": hurt}, agony=3, agony_counts=False), Faces(4))
    assert end.perils[0].scars_added == 0


def test_no_peril_roll_once_stabilised():
    cared = Gauge(maximum=15, current=0, scars=5, peril=True, stabilised=True)
    assert round_end(fighter(gauges={"energy": cared})).perils == ()


def test_peril_scars_reaching_the_maximum_kill():
    """§8 Death: Vitalité scars ≥ maximum, no ephemeral, not stabilised."""
    dying = Gauge(maximum=15, current=0, scars=14, peril=True)
    end = round_end(fighter(gauges={"vitality": dying}, resilience=0), Faces(1, 1))
    assert end.gauges["vitality"].scars >= 15 and end.outlook.dead


# §5, §7, §8: what a roller brings to every roll.
def test_sheet_alterations_follow_the_table_roll():
    assert sheet_alterations(Condition(exhaustion=2, agony=1)) == Alterations(0, 2, 1)
    assert sheet_alterations(Condition(state=FURY, agony=3)) == Alterations(1, 0, 0)
    assert sheet_alterations(Condition(discouraged=True), injury_bane=1) == Alterations(0, 2, 0)


def test_an_npcs_agony_counts_on_its_rolls():
    check = altered(Check(characteristic=3, difficulty=4, bane=1), npc_alterations(2))
    assert (check.bane, check.agony, check.target) == (1, 2, 6)


# §13 Reading: only a gauge the combatant regenerates can be forced, by at most its points.
@pytest.mark.parametrize(("requested", "regeneration"), [(3, 0), (5, 4), (0, 4)])
def test_forced_regeneration_refused(requested, regeneration):
    with pytest.raises(RuleError):
        forced_regeneration_points(requested, regeneration)


def test_forced_regeneration_up_to_the_regeneration():
    assert forced_regeneration_points(4, 4) == 4


def test_the_first_rounds_start_rolls_peril_only():
    """§8 Reading: « at each turn start » — round 1's too, before anyone acts."""
    hurt = Gauge(maximum=15, current=0, scars=5, peril=True)
    gauges, (peril,) = round_start_perils(fighter(gauges={"energy": hurt}, agony=1), Faces(1, 2))
    # 1 − 2 + 3 = 2 against 5 scars + Agonie 1: four scars more.
    assert peril.scars_added == 4 and gauges["energy"].scars == 9
