"""§13 and §15 — turn order, defences, confrontation; healing complexity, incantation."""

import pytest

from rules.combat import (
    Attack,
    Combatant,
    defence_options,
    forced_regeneration,
    initiative_check,
    reactive_confrontation,
    turn_order,
)
from rules.errors import RuleError
from rules.gauges import Gauge
from rules.magic import healing_complexity, healing_difficulty, incantation


def test_initiative_is_a_finesse_check():
    check = initiative_check(4)
    assert (check.skill, check.complexity, check.characteristic) == (0, 0, 4)


def test_turn_order_with_combativeness():
    order = turn_order([Combatant("a", 12, 1), Combatant("b", 18, 3), Combatant("c", 15, 2)])
    assert order == [(1, "b"), (1, "c"), (1, "a"), (2, "b"), (2, "c"), (3, "b")]


def test_defences():
    chars = dict(strength=5, vigor=3, agility=6, perception=2)
    plain = {d.key: d for d in defence_options(Attack(), armour=4, **chars)}
    assert plain["block"].characteristic == 4  # armour beats Vigueur
    assert plain["dodge"].characteristic == 6 and plain["parry"].characteristic == 6
    tricky = {
        d.key: d for d in defence_options(Attack(ranged=True, hidden=True), shield=True, **chars)
    }
    assert tricky["block"].characteristic == 5  # Force with a shield
    assert tricky["dodge"].characteristic == 2  # min(Agilité, Perception)
    assert tricky["parry"].characteristic == 5  # min(Force, Agilité)
    boom = {d.key: d for d in defence_options(Attack(exploded=True), **chars)}
    assert not boom["parry"].available and boom["dodge"].note


def test_confrontation_and_regeneration():
    assert reactive_confrontation(9, 7, loser_conscious=True) == (9, 3)
    assert reactive_confrontation(9, 7, loser_conscious=False) == (9, 0)
    assert forced_regeneration(4) == 4


@pytest.mark.parametrize(
    ("scars", "complexity"),
    [(0, 1), (1, 2), (4, 3), (8, 4), (10, 5), (20, 6), (30, 7), (40, 7)],
)
def test_healing_complexity_thresholds(scars, complexity):
    # maximum 40: 1/10 = 4, 1/5 = 8, 1/4 = 10, 1/2 = 20, 3/4 = 30
    assert healing_complexity(Gauge(40, 20, scars=scars), resilience_points=2) == complexity


def test_healing_complexity_plus_one_each():
    gauge = Gauge(40, 0, scars=0, peril=True)
    assert healing_complexity(gauge, resilience_points=0) == 1 + 3
    assert healing_difficulty(Gauge(40, 25)) == 15


def test_incantation_options():
    spell = incantation(3, focus=2, gestures=3, words=1, overcharge=True)
    assert (spell.boon_dice, spell.extra_points) == (2, 3 + 1 + 3)
    assert (spell.combativeness_spent, spell.cost_multiplier) == (2 + 3, 2)
    with pytest.raises(RuleError):
        incantation(3, gestures=4)
