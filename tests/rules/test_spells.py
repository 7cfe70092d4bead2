"""RULES §15 held against the one spell function (`rules.spells`): the healing's table, the
healing's effect, the area's checks, the incantation's Combativité and its Énergie cost."""

import pytest

from rules.errors import RuleError
from rules.gauges import Gauge
from rules.spells import (
    AREA,
    DUE,
    HEALING,
    LOST_HELD,
    LOST_LATE,
    LOST_OUT,
    PLAIN,
    WAITING,
    SpellInput,
    answer_loses_incantation,
    incantation_state,
    spell_outcome,
    spell_plan,
)

# RULES §15: "complexity by scars against the gauge maximum: 1 no scar; 2 at least one;
# 3 ≥ 1/10; 4 ≥ 1/5; 5 ≥ 1/4; 6 ≥ 1/2; 7 ≥ 3/4; +1 each if the gauge is at 0, Résilience is
# at 0, or the gauge is in péril."
HEALING_TABLE = [
    # maximum, current, scars, peril, resilience points → complexity, difficulty
    (40, 30, 0, False, 1, 1, 10),
    (40, 30, 1, False, 1, 2, 10),
    (40, 30, 4, False, 1, 3, 10),  # 1/10
    (40, 30, 8, False, 1, 4, 10),  # 1/5
    (40, 30, 10, False, 1, 5, 10),  # 1/4
    (40, 30, 20, False, 1, 6, 10),  # 1/2
    (40, 30, 30, False, 1, 7, 10),  # 3/4
    (40, 0, 0, False, 1, 2, 40),  # +1 gauge at 0
    (40, 30, 0, False, 0, 2, 10),  # +1 Résilience points at 0
    (40, 0, 0, True, 0, 4, 40),  # +1 +1 +1
    (40, 0, 30, True, 0, 10, 40),  # 7 + 3
]


@pytest.mark.parametrize(
    ("maximum", "current", "scars", "peril", "resilience", "complexity", "difficulty"),
    HEALING_TABLE,
)
def test_healing_complexity_and_difficulty_follow_the_table(
    maximum, current, scars, peril, resilience, complexity, difficulty
):
    """§15: difficulty = wounds to heal; complexity from the table above."""
    gauge = Gauge(maximum=maximum, current=current, scars=scars, peril=peril)
    plan = spell_plan(SpellInput(kind=HEALING, healed=gauge, healed_resilience_points=resilience))
    assert [(c.complexity, c.difficulty) for c in plan.checks] == [(complexity, difficulty)]


@pytest.mark.parametrize(
    ("wounds", "difficulty", "healed_to"),
    [(None, 25, 40), (10, 10, 25), (0, 0, 15), (99, 25, 40)],
)
def test_the_caster_may_heal_fewer_wounds_for_a_lower_difficulty(wounds, difficulty, healed_to):
    """§15 Reading (healing): the caster may choose to heal fewer wounds (a lower difficulty);
    on success the gauge regains the wounds the difficulty was computed for, and is stabilised."""
    gauge = Gauge(maximum=40, current=15, peril=True)
    spell = SpellInput(kind=HEALING, healed=gauge, healed_resilience_points=1, wounds=wounds)
    plan = spell_plan(spell)
    assert plan.checks[0].difficulty == difficulty
    outcome = spell_outcome(gauge, plan.healing, (True,))
    assert outcome.healed.current == healed_to
    assert outcome.healed_points == healed_to - 15
    assert outcome.stabilised and outcome.healed.stabilised and not outcome.healed.peril


def test_a_failed_healing_changes_nothing():
    gauge = Gauge(maximum=40, current=15, peril=True)
    plan = spell_plan(SpellInput(kind=HEALING, healed=gauge, healed_resilience_points=1))
    outcome = spell_outcome(gauge, plan.healing, (False,))
    assert outcome.healed == gauge and outcome.healed_points == 0 and not outcome.stabilised


@pytest.mark.parametrize(("targets", "checks"), [(1, 1), (3, 3), (5, 5)])
def test_an_area_spell_rolls_one_check_per_target(targets, checks):
    """§15: "Area spell: one check per character or group affected"."""
    plan = spell_plan(SpellInput(kind=AREA, targets=targets, complexity=2, difficulty=12))
    assert len(plan.checks) == checks
    assert {(c.complexity, c.difficulty) for c in plan.checks} == {(2, 12)}


def test_an_area_spell_names_at_least_one_target():
    with pytest.raises(RuleError):
        spell_plan(SpellInput(kind=AREA, targets=0))


@pytest.mark.parametrize(
    ("cost", "overcharge", "energy", "paid"),
    [(0, False, 0, 0), (3, False, 10, 3), (3, True, 10, 6), (5, True, 10, 10)],
)
def test_a_spell_costs_energy_and_overcharge_pays_it_twice(cost, overcharge, energy, paid):
    """§15 Reading (cost): a spell costs Énergie points; overcharge pays that cost twice."""
    spell = SpellInput(
        kind=PLAIN,
        spell_points=4,
        energy_cost=cost,
        overcharge=overcharge,
        caster_energy=energy,
        actions_left=1,
    )
    assert spell_plan(spell).energy_paid == paid


@pytest.mark.parametrize(("cost", "overcharge", "energy"), [(4, False, 3), (3, True, 5)])
def test_a_caster_short_of_energy_cannot_begin_the_spell(cost, overcharge, energy):
    spell = SpellInput(
        energy_cost=cost, overcharge=overcharge, caster_energy=energy, actions_left=1
    )
    with pytest.raises(RuleError) as error:
        spell_plan(spell)
    assert "Énergie" in str(error.value)


@pytest.mark.parametrize(
    ("spends", "actions_left", "boon", "combativeness"),
    [
        ({}, 0, 0, 0),
        ({"focus": 2}, 2, 2, 2),
        ({"gestures": 3, "words": 1}, 3, 0, 2),
        ({"overcharge": True, "focus": 1}, 2, 1, 2),
    ],
)
def test_the_incantation_spends_combativeness_from_the_slots_given_up(
    spends, actions_left, boon, combativeness
):
    """§15: "Spending Combativité adds: focus (+1 die, keep the best; stackable); gestures,
    words, components, overcharge (once each)"; Reading (incantation): the caster's remaining
    slots this round are given up and may each buy one enhancement."""
    plan = spell_plan(SpellInput(spell_points=3, actions_left=actions_left, **spends))
    assert plan.checks[0].boon_dice == boon
    assert plan.incantation.combativeness_spent == combativeness
    assert plan.actions_given_up == actions_left


def test_spends_beyond_the_slots_left_are_refused():
    with pytest.raises(RuleError):
        spell_plan(SpellInput(spell_points=3, focus=2, actions_left=1))


@pytest.mark.parametrize(
    ("began", "now", "fighting", "held", "state"),
    [
        (2, 2, True, False, WAITING),
        (2, 3, True, False, DUE),
        (2, 4, True, False, LOST_LATE),
        (2, 3, False, False, LOST_OUT),
        (2, 3, True, True, LOST_HELD),
        (2, 2, False, False, LOST_OUT),
    ],
)
def test_the_spell_resolves_the_next_round_or_is_lost(began, now, fighting, held, state):
    """§15 Reading (incantation): "resolves at the caster's first slot of the next round … A
    caster who defends, is knocked out or is held loses the spell"."""
    assert incantation_state(began_round=began, round_=now, fighting=fighting, held=held) == state


@pytest.mark.parametrize(
    ("answer", "lost"),
    [("block", True), ("dodge", True), ("parry", True), ("reactive", True), ("none", False)],
)
def test_a_caster_who_answers_a_blow_loses_the_spell(answer, lost):
    assert answer_loses_incantation(answer, no_defence="none") is lost
