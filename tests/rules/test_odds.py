"""§5 Product — exact odds: closed form checked against first principles, icepool and sampling."""

import random
from collections import Counter
from fractions import Fraction
from math import comb

import icepool
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.check import Check, roll_check
from rules.odds import (
    _TABLE_LENGTH,
    MAX_NEGLECTED_MASS,
    MAX_TABLED_POOL,
    TRUNCATION_BUDGET,
    _chains_on_pool,
    _chains_on_pool_reference,
    _pool_total,
    _times_die_chains,
    check_odds,
    clear_caches,
    kept_die_distribution,
)

checks = st.builds(
    Check,
    skill=st.integers(0, 10),
    complexity=st.integers(0, 10),
    characteristic=st.integers(-2, 12),
    difficulty=st.integers(-5, 40),
    expertise=st.booleans(),
    boon=st.integers(0, 3),
    bane=st.integers(0, 3),
    hope=st.integers(0, 3),
    agony=st.integers(0, 3),
    cancel_critical_failure=st.booleans(),
)


def icepool_result(n: int, high: bool, cancel: bool, expertise: bool, depth: int = 12):
    """The same pool written with icepool's primitives, as an independent oracle."""
    chain = icepool.d10.explode(depth=depth)
    counts = icepool.Die({j: comb(n, j) * 9 ** (n - j) for j in range(1, n + 1)})
    if high:
        rest = icepool.d9.highest(n).map(lambda k: k if k >= 2 else (1 if cancel else 1 - chain))
        special = counts.map(lambda j: 10 + j @ chain)
    else:
        rest = (icepool.d9 + 1).lowest(n).map(lambda k: 10 + chain if k == 10 else k)
        special = counts.map(lambda j: 1 if cancel else 1 - j @ chain)
    result = icepool.Die([rest, special], times=[9**n, 10**n - 9**n])
    return result + icepool.d10 if expertise else result


@given(checks)
def test_distribution_sums_to_one_within_1e12(check):
    odds = check_odds(check)
    assert abs(sum(odds.probabilities) - 1) < 1e-12
    assert odds.neglected_mass < MAX_NEGLECTED_MASS
    assert min(odds.probabilities) >= 0


@given(checks)
def test_mean_and_success_agree_with_the_distribution(check):
    odds = check_odds(check)
    dist = odds.distribution
    assert odds.mean == pytest.approx(sum(t * p for t, p in dist.items()), abs=1e-9)
    reached = sum(p for t, p in dist.items() if t >= check.difficulty + check.agony)
    assert odds.success == pytest.approx(reached, abs=1e-12)


@given(checks, st.integers(1, 3))
def test_success_never_falls_when_skill_rises(check, step):
    assume(check.skill + step <= 10)  # §2: skill levels 0..10
    higher = Check(**{**check.__dict__, "skill": check.skill + step})
    assert check_odds(higher).success >= check_odds(check).success - 1e-12


@given(checks, st.integers(1, 5))
def test_success_never_falls_when_difficulty_falls(check, step):
    easier = Check(**{**check.__dict__, "difficulty": check.difficulty - step})
    assert check_odds(easier).success >= check_odds(check).success - 1e-12


def test_single_die_values_two_to_nine_are_one_in_ten():
    odds = check_odds(Check(characteristic=0))
    for face in range(2, 10):
        assert odds.distribution[face] == pytest.approx(0.1)
    # a 10 always explodes, a 1 always subtracts a chain: neither total is reachable.
    assert 10 not in odds.distribution and 1 not in odds.distribution
    # one chain: P(10 + 10g + u) = 0.1^(g+2) for u in 1..9
    assert odds.distribution[11] == pytest.approx(0.01)
    assert odds.distribution[22] == pytest.approx(0.001)
    assert 20 not in odds.distribution
    assert odds.mean == pytest.approx(5.5)


def test_critical_odds_follow_the_kept_die():
    # keep the highest of 3: P(kept 10) = 1 − 0.9³, P(kept 1) = 0.1³
    odds = check_odds(Check(skill=2))
    assert odds.critical_success == pytest.approx(1 - 0.9**3)
    assert odds.critical_failure == pytest.approx(0.001)
    lowest = check_odds(Check(complexity=2, critical_failure_faces={1, 2}))
    assert lowest.critical_failure == pytest.approx(1 - 0.8**3)
    assert kept_die_distribution(3, False)[0] == pytest.approx(1 - 0.9**3)
    cancelled = check_odds(Check(complexity=2, cancel_critical_failure=True))
    assert cancelled.critical_failure == 0.0


def test_despair_narrow_success_always_succeeds():
    assert check_odds(Check(difficulty=99, narrow_success=True)).success == 1.0


@pytest.mark.parametrize(
    ("n", "high", "cancel", "expertise"),
    [
        (1, True, False, False),
        (2, True, False, True),
        (3, True, True, False),
        (2, False, False, False),
        (3, False, True, True),
        (4, False, False, False),
        (4, True, False, False),
    ],
)
def test_distribution_matches_icepool(n, high, cancel, expertise):
    oracle = icepool_result(n, high, cancel, expertise, depth=12)
    total = oracle.denominator()
    expected = {t: q / total for t, q in oracle.items()}
    lowest, probs, mean, _ = _pool_total(n, high, cancel, expertise)
    ours = {lowest + i: p for i, p in enumerate(probs)}
    for value in set(expected) | set(ours):
        assert ours.get(value, 0.0) == pytest.approx(expected.get(value, 0.0), abs=1e-11)
    assert mean == pytest.approx(float(oracle.mean()), abs=1e-9)


def test_clear_caches_recomputes_the_same_answer():
    check = Check(skill=6, complexity=2, characteristic=4, difficulty=14, expertise=True)
    before = check_odds(check)
    clear_caches()
    assert _pool_total.cache_info().currsize == 0
    assert check_odds(check) == before


def test_seeded_rolls_fit_the_exact_distribution(p_value):
    # 200,000 seeded rolls against the exact distribution; bins with < 5 expected are merged.
    check = Check(skill=4, complexity=2, characteristic=3, difficulty=12, expertise=True)
    rolls = 200_000
    rng = random.Random(20251130)
    seen = Counter(roll_check(check, rng).total for _ in range(rolls))
    bins: list[tuple[float, int]] = []
    pending_expected, pending_seen = 0.0, 0
    for total, p in sorted(check_odds(check).distribution.items()):
        pending_expected += p * rolls
        pending_seen += seen.pop(total, 0)
        if pending_expected >= 5:
            bins.append((pending_expected, pending_seen))
            pending_expected, pending_seen = 0.0, 0
    assert not seen, "a roll produced a total the exact distribution says is impossible"
    last_expected, last_seen = bins.pop()
    bins.append((last_expected + pending_expected, last_seen + pending_seen))
    statistic = sum((o - e) ** 2 / e for e, o in bins)
    assert p_value(statistic, len(bins) - 1) > 1e-4


@pytest.mark.parametrize("n", range(1, MAX_TABLED_POOL + 1))
def test_chain_table_matches_the_negbin_mixture(n):
    # The import-time table (Dⁿ by recurrence) and the reference NegBin × nines mixture agree to
    # within their truncations, and both neglect less than the pool's budget.
    table, table_lost = _chains_on_pool(n)
    reference, reference_lost = _chains_on_pool_reference(n)
    for s in range(max(len(table), len(reference))):
        a = table[s] if s < len(table) else 0.0
        b = reference[s] if s < len(reference) else 0.0
        assert a == pytest.approx(b, abs=2e-14)
    assert table_lost < 2 * TRUNCATION_BUDGET / (2 * n + 2)
    assert abs(sum(table) + table_lost - (1 - 0.9**n)) < 1e-14


def test_chain_table_is_exact_against_rationals():
    # Dⁿ with D = 9/10 + 1/10 × one chain, in exact fractions, for the first 80 totals.
    length = 80
    one = [Fraction(9, 10)] + [
        Fraction(0) if s % 10 == 0 else Fraction(1, 10) ** (s // 10 + 2) for s in range(1, length)
    ]
    power = [Fraction(1)] + [Fraction(0)] * (length - 1)
    for n in range(1, 8):
        power = [sum(power[j] * one[s - j] for j in range(s + 1)) for s in range(length)]
        table, _ = _chains_on_pool(n)
        for s in range(1, length):
            assert table[s] == pytest.approx(float(power[s]), rel=1e-14, abs=1e-30)


def test_chain_table_window_holds_the_whole_mass():
    # Doubling the window moves less than 1e-18 of the largest tabled pool's mass.
    power = [1.0] + [0.0] * (2 * _TABLE_LENGTH - 1)
    for _ in range(MAX_TABLED_POOL):
        power = _times_die_chains(power)
    assert sum(power[_TABLE_LENGTH:]) < 1e-18


@pytest.mark.parametrize("n", [MAX_TABLED_POOL, MAX_TABLED_POOL + 1, 25, 40])
@pytest.mark.parametrize("high", [True, False])
def test_pools_past_the_table_run_the_same_recurrence(n, high):
    # Skills stop at 10 (§2): boon dice make the rest of a big pool.
    high_pool = Check(skill=10, boon=n - 11, expertise=True)
    check = high_pool if high else Check(complexity=n - 1, expertise=True)
    odds = check_odds(check)
    assert abs(sum(odds.probabilities) - 1) < 1e-12
    assert odds.neglected_mass < MAX_NEGLECTED_MASS
    assert min(odds.probabilities) >= 0
    assert odds.mean == pytest.approx(sum(t * p for t, p in odds.distribution.items()), abs=1e-9)


@given(checks, st.integers(-40, 60))
def test_success_lookup_equals_the_summed_distribution(check, target):
    at = Check(**{**check.__dict__, "difficulty": target, "agony": 0, "narrow_success": False})
    odds = check_odds(at)
    first = max(target - odds.lowest, 0)
    # Two summation orders of ~60 floats: they agree to a few ulps, not to the last one.
    assert odds.success == pytest.approx(min(sum(odds.probabilities[first:]), 1.0), abs=1e-12)
