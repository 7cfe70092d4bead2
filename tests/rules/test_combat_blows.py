"""§1, §8, §13 — a blow: the defence's check, the damage bonus, what a defence stops."""

import pytest

from rules import combat as rules_combat
from rules.check import Check
from rules.combat import (
    BLOCK,
    DODGE,
    NO_DEFENCE,
    PARRY,
    Attack,
    blow,
    damage_bonus,
    defence_check,
    defence_options,
    finesse_points_for_turn,
)
from rules.errors import RuleError
from rules.gauges import annul, resist

CHARS = dict(strength=5, vigor=3, agility=6, perception=2)


def test_each_defence_says_which_characteristic_it_uses():
    """§13: Blocage "Vigueur, or the armour's value, or Force with a shield"; Esquive "Agilité,
    or min(Agilité, Perception) against a hidden attack"; Parade "Agilité, or against ranged
    weapons min(Force, Agilité)"."""
    plain = {d.key: d for d in defence_options(Attack(), armour=4, **CHARS)}
    assert (plain["block"].source, plain["dodge"].source) == ("armour", "agility")
    tricky = {d.key: d for d in defence_options(Attack(ranged=True, hidden=True), **CHARS)}
    assert (tricky["dodge"].source, tricky["dodge"].characteristic) == ("perception", 2)
    assert (tricky["parry"].source, tricky["parry"].characteristic) == ("strength", 5)
    shielded = {d.key: d for d in defence_options(Attack(), shield=True, **CHARS)}
    assert (shielded["block"].source, shielded["block"].characteristic) == ("strength", 5)


def test_a_defence_is_a_check_against_the_attacks_total():
    """Reading (§13): the defence's difficulty is the attack roll's total (a tie succeeds, §5)."""
    parry = next(d for d in defence_options(Attack(), **CHARS) if d.key == PARRY)
    check = defence_check(parry, 14, skill=3, complexity=1)
    assert check == Check(skill=3, complexity=1, characteristic=6, difficulty=14)


def test_finesse_points_come_back_each_turn():
    """§1: Finesse points "are all regained each combat turn" (a pool up to the row score)."""
    assert finesse_points_for_turn(4) == 4


def test_damage_bonus_none_when_non_lethal():
    """§1: "Corps → physical damage bonus"; §8: "non-lethal attacks give … no damage bonus"."""
    assert damage_bonus(3, nonlethal=False) == 3
    assert damage_bonus(3, nonlethal=True) == 0


def test_annulation_and_resistance():
    """§8: "an annulation cancels all damage if the attack roll is below it, else does nothing;
    a résistance subtracts its value from damage"."""
    assert annul(9, attack_total=11, annulation=12) == 0
    assert annul(9, attack_total=12, annulation=12) == 9
    assert resist(9, 4) == 5 and resist(3, 4) == 0


def test_what_a_defence_stops():
    """§13: Parade and Blocage stop the blow; Esquive "only mitigates explosions, never avoids
    them fully" (Reading: half); a failed Blocage takes "the full blow" (Reading: all scars),
    "non-lethal attacks give no scars" (§8)."""
    hit = dict(damage=9, exploded=False, nonlethal=False)
    assert blow(defence=PARRY, defended=True, **hit).avoided
    assert blow(defence=BLOCK, defended=True, **hit).avoided
    assert blow(defence=DODGE, defended=True, **hit).avoided
    boom = blow(defence=DODGE, defended=True, damage=9, exploded=True, nonlethal=False)
    assert (boom.damage, boom.halved, boom.avoided) == (4, True, False)
    broken = blow(defence=BLOCK, defended=False, **hit)
    assert (broken.damage, broken.scars) == (9, 9)
    soft = blow(defence=BLOCK, defended=False, damage=9, exploded=False, nonlethal=True)
    assert (soft.damage, soft.scars) == (9, 0)
    assert blow(defence=NO_DEFENCE, defended=False, **hit).scars == 0


def test_reactive_confrontation_the_higher_total_wins_the_attacker_on_a_tie():
    # §13: "neither defends; the winner deals full damage, the loser half if still conscious".
    assert rules_combat.attacker_wins_confrontation(12, 11)
    assert rules_combat.attacker_wins_confrontation(12, 12)  # Reading: the attacker on a tie
    assert not rules_combat.attacker_wins_confrontation(11, 12)


def test_a_failed_attack_misses_and_a_critical_failure_too():
    assert not rules_combat.attack_missed(succeeded=True, critical_failure=False)
    assert rules_combat.attack_missed(succeeded=False, critical_failure=False)
    assert rules_combat.attack_missed(succeeded=True, critical_failure=True)


def test_a_sheet_resists_with_its_column_score_and_annuls_nothing():
    # §8: "a résistance subtracts its value from damage"; Reading: a character's is its column's.
    assert rules_combat.sheet_resistance(4) == 4 and rules_combat.sheet_resistance(-1) == 0
    assert rules_combat.sheet_annulation() == 0


def test_a_full_turn_at_zero_is_one_that_began_at_zero():
    # §8: "+1 per full turn at 0 not stabilised": not the turn one fell in.
    from rules.states import full_turn_at_zero

    assert not full_turn_at_zero(fell_in_turn=3, turn=3)
    assert full_turn_at_zero(fell_in_turn=3, turn=4)


def test_a_defence_costs_one_finesse_point():
    """§1: "Finesse points pay secondary actions such as defences"; §13: "Defences (paid with
    Finesse points)"."""
    assert rules_combat.finesse_after_defence(3) == 2
    assert rules_combat.can_pay_defence(1) and not rules_combat.can_pay_defence(0)
    with pytest.raises(RuleError):
        rules_combat.finesse_after_defence(0)


def test_a_parry_uses_the_better_of_its_two_skills():
    """§13: a Parade with Bagarre or Mêlée — the one the defender knows best."""
    parry = next(d for d in defence_options(Attack(), **CHARS) if d.key == PARRY)
    assert set(parry.skills) == {"bagarre", "melee"}
    assert rules_combat.best_defence_skill(parry, {"bagarre": 1, "melee": 3}) == ("melee", 3)
    assert rules_combat.best_defence_skill(parry, {"bagarre": 2}) == ("bagarre", 2)
