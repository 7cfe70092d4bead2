"""§10 — end-of-arc award from the checklist, XP costs, spending eligibility."""

import pytest

from rules.errors import RuleError
from rules.experience import (
    ActRecord,
    CharacterChecklist,
    GroupChecklist,
    Improvement,
    award,
    can_spend,
    needs_training_time,
    xp_cost,
)


def test_award_formula_with_source_values():
    group = GroupChecklist(
        danger=3,  # "dangereux"
        balance=frozenset({"all_active", "no_monopoly", "even_speech"}),  # 1 + 1 + 1
        ingenuity=frozenset({"arc_finished", "good_idea"}),  # 1 + 1
        ending="act",  # 2
        ending_items=frozenset({"satisfying_ending"}),  # +1
        length="weeks",  # ×3
    )
    ana = CharacterChecklist("ana", frozenset({"took_part", "funny"}), optional_objectives=2)
    bo = CharacterChecklist("bo", frozenset({"took_part"}))
    awards = award(group, [ana, bo])
    shared = 3 + 3 + 2 + 2 + 1
    assert awards["ana"].total == (shared + 2 + 1) * 3 + 2
    assert awards["bo"].total == (shared + 2) * 3
    assert sum(line.points for line in awards["bo"].lines) == shared + 2
    assert awards["ana"].to_dict()["lines"][0] == {"label": "Danger : Dangereux", "points": 3}


def test_length_multipliers():
    for length, factor in [("hours", 1), ("days", 2), ("weeks", 3), ("months", 4), ("years", 5)]:
        got = award(GroupChecklist(danger=1, length=length), [CharacterChecklist("a")])
        assert got["a"].total == (1 + 2) * factor


def test_impossible_checklists_are_refused():
    with pytest.raises(RuleError):
        award(GroupChecklist(danger=6), [])
    with pytest.raises(RuleError) as caught:
        award(GroupChecklist(danger=2, balance=frozenset({"even_speech"})), [])
    assert caught.value.violations[0].field == "balance"


def test_xp_costs():
    assert xp_cost(Improvement("characteristic", "strength")) == 5
    assert xp_cost(Improvement("skill", "melee")) == 10
    assert xp_cost(Improvement("combativeness")) == 25
    assert xp_cost(Improvement("forgotten_domain", "runes")) == 25
    assert xp_cost(Improvement("specialty", "melee")) == 5
    tiers = {"founding": 10, "superior": 15, "heroic": 20, "legendary": 30, "supreme": 50}
    for tier, cost in tiers.items():
        assert xp_cost(Improvement("ability", "x", tier=tier)) == cost


def test_skill_needs_use_opposition_and_once_per_act():
    wish = Improvement("skill", "melee", level=4)
    record = ActRecord(used_in_arc=frozenset({"melee"}), opposition_levels={"melee": 4})
    assert can_spend(wish, record, xp_available=10) == (True, [])
    weak = ActRecord(used_in_arc=frozenset({"melee"}), opposition_levels={"melee": 3})
    allowed, reasons = can_spend(wish, weak, xp_available=10)
    assert not allowed and "opposition" in reasons[0]
    again = ActRecord(
        improved_this_act=frozenset({("skill", "melee")}),
        used_in_arc=frozenset({"melee"}),
        opposition_levels={"melee": 9},
    )
    allowed, reasons = can_spend(wish, again, xp_available=5)
    assert not allowed and len(reasons) == 2  # not enough XP, already this act
    training = ActRecord(
        training_this_act=frozenset({("skill", "melee")}),
        used_in_arc=frozenset({"melee"}),
        opposition_levels={"melee": 9},
    )
    allowed, reasons = can_spend(wish, training, xp_available=10)
    assert not allowed and reasons == [
        "Cette amélioration est déjà à l'entraînement pendant cet acte : "
        "elle sera faite à la fin de son entraînement (une fois par acte)."
    ]


def test_theoretical_skill_needs_means_and_combativeness_needs_a_reason():
    allowed, reasons = can_spend(
        Improvement("skill", "histoire", level=0), ActRecord(), xp_available=50
    )
    assert not allowed and "moyens" in reasons[0]
    ok = ActRecord(means_for=frozenset({"histoire"}), opposition_levels={"histoire": 0})
    assert can_spend(Improvement("skill", "histoire", level=0), ok, 50)[0]
    assert not can_spend(Improvement("combativeness"), ActRecord(), 50)[0]
    assert can_spend(Improvement("combativeness"), ActRecord(nearly_died=True), 50)[0]


def test_spending_modes():
    assert needs_training_time("training")
    assert not needs_training_time("hope") and not needs_training_time("on_receipt")
