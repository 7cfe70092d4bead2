"""§5 — the check: pool size, keep mode, explosions, modifiers, outcome, options, breakdown."""

import json
import random

import pytest

from rules.check import (
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    FAILURE,
    SUCCESS,
    Check,
    chain_starters,
    combined_skill,
    pool_advantage,
    roll_check,
)
from rules.errors import RuleError


class ScriptedDice:
    """A random source that returns the given faces in order (randint(1, 10) only)."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 10)
        return self.faces.pop(0)


def test_pool_is_skill_minus_complexity_plus_one_die():
    # §5.1–2: roll |a| + 1 d10, keep the highest if a ≥ 0, else the lowest.
    assert Check(skill=5, complexity=2).dice_count == 4
    assert Check(skill=5, complexity=2).keep_highest
    assert Check(skill=1, complexity=4).dice_count == 4
    assert not Check(skill=1, complexity=4).keep_highest
    assert Check(skill=3, complexity=3).dice_count == 1


def test_one_boon_die_on_a_neutral_roll_gives_two_dice_keep_highest():
    # §5.1 Reading: "one surpuissance die on a neutral roll gives two dice keep the highest".
    check = Check(skill=2, complexity=2, boon=1)
    assert (check.dice_count, check.keep_highest) == (2, True)
    assert pool_advantage(2, 2, boon=0, bane=1) == -1


def test_several_skills_use_the_lowest():
    assert combined_skill(6, 3, 8) == 3


def test_keep_highest_every_ten_starts_a_chain():
    # Two 10s kept high: both chain; the first chain goes on while it shows 10.
    breakdown = roll_check(Check(skill=2), ScriptedDice(10, 4, 10, 10, 3, 7))
    assert breakdown.dice == (10, 4, 10)
    assert breakdown.chains == ((10, 3), (7,))
    assert breakdown.die_result == 10 + 13 + 7
    assert breakdown.outcome == CRITICAL_SUCCESS


def test_keep_lowest_every_one_starts_a_subtracting_chain():
    breakdown = roll_check(Check(complexity=2), ScriptedDice(1, 1, 6, 10, 2, 5))
    assert breakdown.kept == 1
    assert breakdown.chain_sign == -1
    assert breakdown.chains == ((10, 2), (5,))
    assert breakdown.die_result == 1 - 12 - 5
    assert breakdown.outcome == CRITICAL_FAILURE


def test_reading_all_ones_keep_highest_and_all_tens_keep_lowest():
    # §5.3 Reading: all 1s in keep-highest → one subtracting chain; all 10s keep-lowest → one adding.
    assert chain_starters((1, 1, 1), keep_highest=True) == (1, -1)
    assert chain_starters((10, 10), keep_highest=False) == (1, 1)
    assert chain_starters((10, 10, 3), keep_highest=True) == (2, 1)
    assert chain_starters((1, 1, 3), keep_highest=False) == (2, -1)
    assert chain_starters((5, 7), keep_highest=True) == (0, 0)


def test_total_adds_characteristic_expertise_and_hope():
    # §5.4 Reading: total = result + characteristic + expertise d10 + hope spent (+1 each).
    breakdown = roll_check(
        Check(characteristic=4, expertise=True, hope=2, difficulty=15), ScriptedDice(7, 10)
    )
    assert breakdown.expertise_die == 10
    assert breakdown.total == 7 + 4 + 10 + 2
    assert dict(breakdown.modifiers) == {"characteristic": 4, "hope": 2, "expertise": 10}
    # The expertise die never explodes nor makes a critical.
    assert breakdown.chains == ()
    assert breakdown.outcome == SUCCESS


def test_tie_succeeds_and_agony_raises_the_target():
    # §5.5 Reading: success iff total ≥ difficulty + Agonie; margin = total − target.
    tie = roll_check(Check(characteristic=3, difficulty=8), ScriptedDice(5))
    assert (tie.succeeded, tie.margin, tie.outcome) == (True, 0, SUCCESS)
    hurt = roll_check(Check(characteristic=3, difficulty=8, agony=2), ScriptedDice(5))
    assert (hurt.target, hurt.margin, hurt.outcome) == (10, -2, FAILURE)


def test_widened_critical_faces_do_not_explode():
    breakdown = roll_check(Check(critical_success_faces={9, 10}, difficulty=50), ScriptedDice(9))
    assert breakdown.outcome == CRITICAL_SUCCESS
    assert breakdown.chains == ()
    assert not breakdown.succeeded


def test_hope_cancels_a_critical_failure_the_one_stays_without_chain():
    breakdown = roll_check(
        Check(characteristic=5, difficulty=5, cancel_critical_failure=True), ScriptedDice(1)
    )
    assert breakdown.kept == 1
    assert breakdown.chains == ()
    assert breakdown.critical_failure_cancelled
    assert breakdown.outcome == SUCCESS  # 1 + 5 ≥ 5, and no critical


def test_despair_turns_a_failure_into_a_narrow_success():
    breakdown = roll_check(Check(difficulty=20, narrow_success=True), ScriptedDice(4))
    assert (breakdown.succeeded, breakdown.narrow_success, breakdown.margin) == (True, True, 0)
    assert breakdown.outcome == SUCCESS


def test_zone_needs_a_boon_die_a_kept_ten_and_a_ten_on_its_first_explosion():
    # §7 Reading.
    with_boon = roll_check(Check(boon=1), ScriptedDice(3, 10, 10, 2))
    assert with_boon.zone
    without_boon = roll_check(Check(skill=1), ScriptedDice(3, 10, 10, 2))
    assert not without_boon.zone
    no_second_ten = roll_check(Check(boon=1), ScriptedDice(3, 10, 9))
    assert not no_second_ten.zone


def test_breakdown_is_json_serialisable_and_reproducible_with_a_seed():
    check = Check(skill=4, complexity=1, characteristic=3, difficulty=9, expertise=True)
    first = roll_check(check, random.Random(7)).to_dict()
    again = roll_check(check, random.Random(7)).to_dict()
    assert first == again
    assert json.loads(json.dumps(first)) == first
    assert first["total"] == first["die_result"] + sum(m["value"] for m in first["modifiers"])


def test_invalid_check_lists_french_errors():
    with pytest.raises(RuleError) as caught:
        Check(boon=-1, critical_success_faces={1, 10})
    fields = {v.field for v in caught.value.violations}
    assert fields == {"boon", "critical_failure_faces"}
    assert all(v.message.endswith(".") for v in caught.value.violations)


def test_hope_substitutes_might_for_main_and_harmony_for_secondary():
    from rules.check import hope_substitute

    assert hope_substitute("main", might=10, harmony=6) == 10
    assert hope_substitute("secondary", might=10, harmony=6) == 6
    with pytest.raises(RuleError):
        hope_substitute("origin", might=10, harmony=6)


@pytest.mark.parametrize("skill", [11, 15])
def test_a_skill_above_ten_is_refused(skill):
    """RULES.md §2: "Skill levels 0..10." """
    with pytest.raises(RuleError) as refused:
        Check(skill=skill, characteristic=3, difficulty=6)
    assert [v.field for v in refused.value.violations] == ["skill"]
    assert "de 0 à 10" in str(refused.value)
    assert Check(skill=10, characteristic=3, difficulty=6).skill == 10
