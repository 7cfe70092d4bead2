"""§7–§8 — special states, Fragilité, Épuisement, Aggravation table, Péril, Agonie, death."""

import pytest

from rules import reference as ref
from rules.check import Breakdown, roll_check
from rules.errors import RuleError
from rules.gauges import Gauge, stabilise, take_damage
from rules.states import (
    BLAZE,
    COMEDOWN,
    FURY,
    SERENITY,
    ZONE,
    Condition,
    after_rest,
    aggravation_effect,
    agony_after_turn,
    apply_aggravation,
    apply_peril,
    bane_dice,
    boon_dice,
    effective_agony,
    end_state,
    exhaustion_recovered,
    knocked_out_for,
    negation_malus,
    nonlethal_against_agony,
    outlook,
    peril_check,
    suffer_critical,
    unconscious_turns,
)
from tests.dice import Faces


def test_special_states_give_a_boon_die_and_ignore_agony_comedown_a_bane_die():
    for state in (ZONE, FURY, BLAZE, SERENITY):
        assert boon_dice(Condition(state=state)) == 1
        assert effective_agony(3, state) == 0
    assert bane_dice(Condition(state=COMEDOWN)) == 1
    assert effective_agony(3, COMEDOWN) == 3
    assert negation_malus(FURY) == 0


def test_bane_dice_from_exhaustion_discouragement_comedown():
    assert bane_dice(Condition(exhaustion=2, discouraged=True, state=COMEDOWN)) == 4


def test_state_endings():
    gauges = {"vitality": Gauge(30, 18, scars=2), "energy": Gauge(30, 10, stabilised=True)}
    fury = end_state(Condition(state=FURY, fragility=1, gauges=gauges))
    assert (fury.state, fury.fragility) == (COMEDOWN, 2)
    assert fury.gauges["vitality"].scars == 12  # scars become equal to wounds
    assert fury.gauges["energy"].scars == 0  # a stable gauge stays as it was
    assert end_state(Condition(state=BLAZE)).fragility == 1
    assert end_state(Condition(state=SERENITY)) == Condition(state=COMEDOWN)
    assert end_state(Condition(state=ZONE)) == Condition()


@pytest.mark.parametrize(
    ("fragility", "die", "key"),
    [
        (0, 5, "fragilisation"),
        (0, 6, "protection"),
        (1, 8, "disarmed"),
        (1, 9, "off_balance"),
        (2, 6, "scarred"),
        (2, 7, "broken_bones"),
        (2, 10, "damaged_item"),
        (3, 1, "stomach"),
        (3, 4, "arm_tendons"),
        (3, 7, "leg_tendons"),
        (3, 8, "ear"),
        (4, 2, "rib_cage"),
        (4, 3, "eye"),
        (4, 7, "arm_lost"),
        (4, 8, "leg_lost"),
        (5, 1, "head"),
        (5, 10, "neck"),
    ],
)
def test_aggravation_table_rows(fragility, die, key):
    assert aggravation_effect(fragility, die).key == key


def test_aggravation_table_covers_every_face_and_its_consequences():
    for row in ref.AGGRAVATION_TABLE.values():
        assert sorted(f for e in row for f in range(e.low, e.high + 1)) == list(range(1, 11))
    assert all(e.fragility == 1 for e in ref.AGGRAVATION_TABLE[4])  # every result also +1
    assert all(e.death for e in ref.AGGRAVATION_TABLE[5])
    stomach = apply_aggravation(Condition(fragility=3), aggravation_effect(3, 1))
    assert (stomach.fragility, stomach.agony, stomach.agony_locked) == (4, 1, True)
    assert aggravation_effect(4, 1).harder_rest_gauges == ("vitality", "energy")
    with pytest.raises(RuleError):
        aggravation_effect(0, 11)


def test_aggravation_level_and_rest():
    hurt = suffer_critical(suffer_critical(Condition(state=COMEDOWN, agony=2)))
    assert hurt.aggravation == 2
    assert unconscious_turns(hurt.aggravation, 3) == 3
    rested = after_rest(hurt, full=True, stable=True)
    assert (rested.aggravation, rested.state, rested.agony) == (0, None, 0)
    locked = after_rest(Condition(agony=1, agony_locked=True), full=True, stable=True)
    assert locked.agony == 1


def test_a_new_knock_out_never_shortens_one_under_way():
    """§8: "unconscious for max(Aggravation, Agonie) turns" — a second critical while still
    out for 3 rounds, worth 2, leaves 3; worth 4, makes it 4."""
    assert knocked_out_for(3, 2) == 3 and knocked_out_for(3, 4) == 4


def test_agony_is_lost_after_any_rest_if_stable():
    """Source: « Vous perdez votre Agonie après un repos si vous êtes stable ». RULES.md §8:
    "Agonie: … lost after a rest if stable" — any rank, not only a full rest. Aggravation's
    reset stays with the full rest ("Reading: back to 0 after a full rest"), as does the end of
    Descente ("until a full rest", §7)."""
    hurt = Condition(agony=2, aggravation=2, state=COMEDOWN)
    quick = after_rest(hurt, full=False, stable=True)
    assert quick == Condition(agony=0, aggravation=2, state=COMEDOWN)
    assert after_rest(hurt, full=False, stable=False) == hurt  # not stable: Agonie stays
    held = Condition(agony=1, agony_locked=True)  # a stomach wound not healed holds it
    assert after_rest(held, full=False, stable=True).agony == 1
    full = after_rest(hurt, full=True, stable=False)
    assert (full.agony, full.aggravation, full.state) == (2, 0, None)


def test_exhaustion_removal_reading():
    assert exhaustion_recovered(3, full_rest_days=3, wounds=0) == 2
    assert exhaustion_recovered(3, full_rest_days=2, wounds=0) == 3
    assert exhaustion_recovered(3, full_rest_days=5, wounds=1) == 3


def test_death_unconscious_discouraged():
    ok = {g: Gauge(30, 30) for g in ("vitality", "energy", "confidence")}
    assert outlook(ok) == outlook(ok, fragility=5, exhaustion=5)
    assert not outlook(ok).dead
    assert outlook(ok, fragility=6).dead and outlook(ok, exhaustion=6).dead
    assert outlook(ok, hits={"energy": 30}).unconscious
    scarred = {**ok, "confidence": Gauge(30, 0, scars=30)}
    assert outlook(scarred).discouraged
    assert not outlook({**scarred, "confidence": Gauge(30, 0, scars=30, ephemeral=1)}).discouraged


def test_peril_and_agony():
    vitality = take_damage(Gauge(30, 4, scars=5, ephemeral=2), 6)
    assert (vitality.current, vitality.ephemeral, vitality.peril) == (0, 0, True)
    check = peril_check(vitality, resilience=2)
    assert (check.characteristic, check.difficulty, check.skill, check.complexity) == (2, 5, 0, 0)

    breakdown: Breakdown = roll_check(check, Faces(2))  # total 4 vs 5: fails by 1
    assert apply_peril(vitality, breakdown).scars == 6
    assert agony_after_turn(1, vitality) == 2
    assert agony_after_turn(1, stabilise(vitality)) == 1
    assert nonlethal_against_agony(3, critical_success=False) == 2
    assert nonlethal_against_agony(3, critical_success=True) == 0


def test_despair_fortune_for_all_capped_at_five():
    from rules.states import fortune_for_all

    fortunes, fate = fortune_for_all({"ana": 4, "bo": 5}, fate=2)
    assert fortunes == {"ana": 5, "bo": 5} and fate == 3
    assert fortune_for_all({}, fate=5)[1] == 5
