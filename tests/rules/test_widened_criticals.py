"""Widened critical ranges (RULES.md §5) and Apaisement's effects paid by the opposite point (§7).

§5: « Some abilities widen the critical range: the faces that count as critical are a parameter of
the check (default {10} and {1}); explosions stay on natural 10s and 1s. »
§7: « Apaisement: the character is Calme. Extra: may use hope or despair effects, each use adds the
opposite point to the Moral; not while the Moral is full, and it may not spend Moral points. »
"""

from __future__ import annotations

import pytest

from rules.check import Check, critical_faces, roll_check
from rules.errors import RuleError
from rules.morale import GROUP, PERSONAL, SERENITY, Member, Morale, spend_despair, spend_hope
from rules.odds import check_odds


class Dice:
    """Hands out the given faces in order (the kept die, then any chain)."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_default_ranges_are_ten_and_one():
    assert critical_faces() == (frozenset({10}), frozenset({1}))


def test_a_widened_range_grows_from_its_own_end():
    success, failure = critical_faces(success_from=9, failure_to=2)
    assert success == {9, 10} and failure == {1, 2}


@pytest.mark.parametrize(
    ("success_from", "failure_to", "field"),
    [(1, 1, "critical_success_from"), (11, 1, "critical_success_from"),
     (10, 0, "critical_failure_to"), (10, 10, "critical_failure_to"),
     (5, 5, "critical_failure_to"), (4, 6, "critical_failure_to")],
)  # fmt: skip
def test_ranges_that_leave_the_die_or_meet_are_refused_in_french(success_from, failure_to, field):
    with pytest.raises(RuleError) as caught:
        critical_faces(success_from=success_from, failure_to=failure_to)
    assert [v.field for v in caught.value.violations] == [field]
    assert "critique" in caught.value.violations[0].message


def test_a_nine_counts_as_a_critical_success_but_does_not_explode():
    success, failure = critical_faces(success_from=9)
    check = Check(characteristic=3, difficulty=10, critical_success_faces=success)
    breakdown = roll_check(check, Dice(9))
    assert breakdown.outcome == "critical_success"
    assert breakdown.total == 12  # 9 + 3, no chain: explosions stay on natural 10s
    plain = roll_check(Check(characteristic=3, difficulty=10), Dice(9))
    assert plain.outcome == "success"


def test_a_two_counts_as_a_critical_failure_and_the_odds_follow():
    success, failure = critical_faces(failure_to=2)
    check = Check(characteristic=3, difficulty=4, critical_failure_faces=failure)
    assert roll_check(check, Dice(2)).outcome == "critical_failure"
    # One d10 kept: each face is 1/10, so {1, 2} is 20 % and {9, 10} 20 %.
    assert check_odds(check).critical_failure == pytest.approx(0.2)
    wide = Check(critical_success_faces=critical_faces(success_from=9)[0])
    assert check_odds(wide).critical_success == pytest.approx(0.2)
    assert check_odds(Check()).critical_success == pytest.approx(0.1)


CALM = Morale(members=(Member("ana", 3, serenity=True), Member("bo", 3)))


def test_in_apaisement_a_hope_effect_adds_a_despair_to_the_moral():
    after, events = spend_hope(CALM, "ana", SERENITY)
    assert (after.hope, after.despair) == (0, 1)
    assert events[0].kind == "serenity_effect"


def test_in_apaisement_a_despair_effect_adds_a_hope_to_the_moral():
    after, _ = spend_despair(CALM, "ana", SERENITY)
    assert (after.hope, after.despair) == (1, 0)


def test_not_while_the_moral_is_full():
    full = Morale(hope=1, despair=1, members=CALM.members)
    with pytest.raises(RuleError) as caught:
        spend_hope(full, "ana", SERENITY)
    assert "plein" in caught.value.violations[0].message


@pytest.mark.parametrize("source", [GROUP, PERSONAL])
def test_in_apaisement_no_moral_point_is_spent(source):
    rich = Morale(hope=1, members=(Member("ana", 3, hope=1, serenity=True), Member("bo", 3)))
    with pytest.raises(RuleError) as caught:
        spend_hope(rich, "ana", source)
    assert "Apaisement" in caught.value.violations[0].message


def test_only_a_character_in_apaisement_uses_it():
    with pytest.raises(RuleError) as caught:
        spend_hope(CALM, "bo", SERENITY)
    assert "pas en Apaisement" in caught.value.violations[0].message
