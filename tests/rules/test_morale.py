"""§6 — the Moral as a state machine, with its invariants under any sequence of moves."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.morale import (
    PERSONAL,
    Member,
    Morale,
    despair_exploit,
    gain_despair,
    gain_hope,
    gain_personal_despair,
    gain_personal_hope,
    hope_exploit,
    morale_violations,
    serenity_effect,
    spend_despair,
    spend_hope,
)

TRIO = (Member("ana", 3), Member("bo", 1), Member("cy", 9))


def test_gain_hope_fills_then_removes_despair_then_goes_personal_when_galvanized():
    m = Morale(hope=1, despair=1, members=TRIO)
    m, events = gain_hope(m)
    assert (m.hope, m.despair, events[0].kind) == (2, 1, "group_hope_gained")
    m, events = gain_hope(m)
    assert (m.hope, m.despair, events[0].kind) == (2, 0, "group_despair_removed")
    m, _ = gain_hope(m)
    assert m.galvanized
    m, events = gain_hope(m, taker="ana")
    assert m.member("ana").hope == 1
    m, events = gain_hope(m)
    assert events[0].kind == "hope_lost"


def test_gain_despair_when_tormented_goes_personal_then_fragility_for_all():
    m = Morale(despair=3, members=TRIO)
    assert m.tormented
    for _ in range(1 + 1 + 5):  # caps: ana 2, bo 1, cy 5 → 8 in all
        m, events = gain_despair(m)
    m, events = gain_despair(m)
    assert events[0].kind == "personal_despair_gained"
    m, events = gain_despair(m)
    assert [e.kind for e in events] == ["fragility"] * 3
    assert all(e.message.endswith(".") for e in events)


def test_personal_caps_extra_hope_lost_extra_despair_to_group():
    m = Morale(members=(Member("bo", 1, hope=1, despair=1),))
    same, events = gain_personal_hope(m, "bo")
    assert same == m and events[0].kind == "hope_lost"
    m, events = gain_personal_despair(m, "bo")
    assert m.despair == 1 and [e.kind for e in events] == [
        "despair_to_group",
        "group_despair_gained",
    ]


def test_tormented_characters_with_personal_points_cannot_use_the_moral():
    m = Morale(despair=2, members=(Member("ana", 3, hope=1), Member("bo", 3)))
    with pytest.raises(RuleError) as caught:
        spend_despair(m, "ana")
    assert "Tourmenté" in caught.value.violations[0].message
    m2, _ = spend_despair(m, "bo")
    assert m2.despair == 1
    m3, _ = spend_hope(m, "ana", source=PERSONAL)
    assert m3.member("ana").hope == 0


def test_calm_and_serenity():
    m = Morale(members=(Member("ana", 3, serenity=True), Member("bo", 3)))
    assert m.is_calm("ana")
    m, events = serenity_effect(m, "ana", "hope")
    assert m.despair == 1 and events[0].kind == "serenity_effect"
    with pytest.raises(RuleError):
        spend_hope(Morale(hope=1, members=m.members), "ana")


def test_exploits_need_the_state_and_unanimity():
    full = Morale(hope=2, members=TRIO[:2])
    with pytest.raises(RuleError):
        hope_exploit(full, agreeing=["ana"], rng=random.Random(1))
    after, _, result = hope_exploit(full, agreeing=["ana", "bo"], rng=random.Random(1))
    assert after.hope == 0 and 1 <= result.degree <= 10
    dark = Morale(despair=2, members=TRIO[:2])
    after, _, result = despair_exploit(dark, agreeing=["ana", "bo"], rng=random.Random(2))
    assert after.despair == 0
    assert result.degree == max(result.dice) and result.fragility == min(result.dice)


MOVES = st.lists(
    st.tuples(
        st.sampled_from(["gh", "gd", "ph", "pd", "sh", "sd", "shp", "sdp"]), st.integers(0, 2)
    ),
    max_size=40,
)


@given(MOVES, st.lists(st.integers(1, 9), min_size=1, max_size=3))
def test_invariants_hold_after_any_sequence(moves, exaltations):
    members = tuple(Member(f"m{i}", e) for i, e in enumerate(exaltations))
    m = Morale(members=members)
    for move, who in moves:
        key = members[who % len(members)].key
        action = {
            "gh": lambda s, k=key: gain_hope(s, taker=k),
            "gd": lambda s, k=key: gain_despair(s, taker=k),
            "ph": lambda s, k=key: gain_personal_hope(s, k),
            "pd": lambda s, k=key: gain_personal_despair(s, k),
            "sh": lambda s, k=key: spend_hope(s, k),
            "sd": lambda s, k=key: spend_despair(s, k),
            "shp": lambda s, k=key: spend_hope(s, k, PERSONAL),
            "sdp": lambda s, k=key: spend_despair(s, k, PERSONAL),
        }[move]
        try:
            m, events = action(m)
        except RuleError:
            continue
        assert events and all(e.message for e in events)
        assert morale_violations(m) == []
        assert m.hope + m.despair <= m.capacity
