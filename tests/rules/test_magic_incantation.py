"""RULES §15 Magic: the healing spell's parts, the area's checks and the incantation's
Combativité (the rules functions the table calls, sessions/combat/spells.py)."""

import pytest

from rules.errors import RuleError
from rules.gauges import Gauge
from rules.magic import (
    GAUGE_AT_ZERO,
    GAUGE_IN_PERIL,
    RESILIENCE_AT_ZERO,
    area_checks,
    healing_aggravations,
    healing_complexity,
    healing_difficulty,
    healing_scar_complexity,
    incantation,
    incantation_actions,
)


@pytest.mark.parametrize(
    ("scars", "expected"),
    [(0, 1), (1, 2), (4, 3), (8, 4), (10, 5), (20, 6), (30, 7), (40, 7)],
)
def test_healing_complexity_by_scars_against_the_gauge_maximum(scars, expected):
    """RULES §15: "Healing spell: difficulty = wounds to heal; complexity by scars against the
    gauge maximum: 1 no scar; 2 at least one; 3 ≥ 1/10; 4 ≥ 1/5; 5 ≥ 1/4; 6 ≥ 1/2; 7 ≥ 3/4"."""
    gauge = Gauge(maximum=40, current=30, scars=scars)
    assert healing_scar_complexity(gauge) == expected
    assert healing_complexity(gauge, resilience_points=1) == expected
    assert healing_difficulty(gauge) == 10  # the wounds to heal: maximum − current


def test_each_plus_one_is_named():
    """RULES §15: "+1 each if the gauge is at 0, Résilience is at 0, or the gauge is in péril"."""
    gauge = Gauge(maximum=40, current=0, scars=0, peril=True)
    assert healing_aggravations(gauge, 0) == (GAUGE_AT_ZERO, RESILIENCE_AT_ZERO, GAUGE_IN_PERIL)
    assert healing_complexity(gauge, resilience_points=0) == 1 + 3
    assert healing_aggravations(Gauge(maximum=40, current=5), 2) == ()


def test_an_area_spell_checks_once_per_target_or_group():
    """RULES §15: "Area spell: one check per character or group affected"."""
    assert area_checks(4) == 4
    with pytest.raises(RuleError):
        area_checks(-1)


def test_the_incantation_spends_at_most_the_actions_left_this_round():
    """RULES §15: "Incantation takes a whole turn, during which the caster does nothing else.
    Spending Combativité adds: focus (+1 die, keep the best; stackable); gestures…; words…;
    material components…; overcharge (pay twice the cost, + the spell's points, once)";
    §1: "Combativité = actions per turn". Reading: the Combativité is drawn from the caster's
    actions still to come this round, all of which the incantation takes."""
    spell = incantation(3, focus=2, gestures=3, overcharge=True)
    assert (spell.boon_dice, spell.extra_points, spell.cost_multiplier) == (2, 6, 2)
    assert spell.combativeness_spent == 4
    assert incantation_actions(spell, actions_left=4) == 4
    with pytest.raises(RuleError) as refused:
        incantation_actions(spell, actions_left=1)
    assert refused.value.violations[0].message == (
        "L'incantation demande 4 points de Combativité et il n'en reste qu'un ce tour "
        "(un par action encore à venir)."
    )
    assert incantation_actions(incantation(2), actions_left=0) == 0  # casting itself spends none
