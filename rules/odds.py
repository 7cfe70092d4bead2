"""Exact odds of a check (§5 Product): the whole distribution of the total, in closed form.

Each kept 10 (or 1) starts explosion chains. One chain is 10·G + U with G geometric (a 10 again
with probability 1/10) and U uniform on 1..9, so a sum of m chains is 10 × NegBin(m, 1/10) plus a
sum of m dice 1..9. The pool gives the kept die and the number of chains; the expertise d10 and the
constant modifiers are added last. Chains are truncated only where the neglected mass is tiny
(`TRUNCATION_BUDGET`), so distributions sum to 1 within 1e-12.

Speed: the chains of pools up to `MAX_TABLED_POOL` dice are a constant table built at import
(~5 ms): with D the law of one die's chain contribution (0.9 no chain, 0.1 a chain), n dice give
Dⁿ, built one factor at a time by a recurrence on blocks of 10; larger pools run the same
recurrence on demand. Everything else is memoised per pool, and `clear_caches()` resets that.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from itertools import accumulate, repeat
from math import comb
from operator import add, sub
from typing import Any

from rules.check import SUBTRACTING_FACE, Check

P_TEN = 0.1  # chance of a 10 (or of a 1) on one d10
TRUNCATION_BUDGET = 4e-13  # total mass a pool may neglect, well below MAX_NEGLECTED_MASS


def _piece_budget(n: int) -> float:
    """Return the mass one truncated piece may neglect: a pool has at most 2n + 2 pieces."""
    return TRUNCATION_BUDGET / (2 * n + 2)


MAX_NEGLECTED_MASS = 1e-12


@dataclass(frozen=True)
class Odds:
    """Exact odds of one check. `probabilities[i]` is P(total = lowest + i)."""

    success: float
    critical_success: float
    critical_failure: float
    mean: float
    lowest: int
    probabilities: tuple[float, ...]
    neglected_mass: float

    @property
    def distribution(self) -> dict[int, float]:
        """Return total → probability for every total with a non-zero chance."""
        low = self.lowest
        return {low + i: p for i, p in enumerate(self.probabilities) if p > 0.0}

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape of the CLI and API: floats, and totals as string keys."""
        return {
            "success": self.success,
            "critical_success": self.critical_success,
            "critical_failure": self.critical_failure,
            "mean": self.mean,
            "distribution": {str(t): p for t, p in self.distribution.items()},
        }


def _convolve_uniform(probs: tuple[float, ...] | list[float], faces: int) -> tuple[float, ...]:
    """Return probs convolved with a fair die of `faces` faces (offset +1), via prefix sums."""
    share = 1 / faces
    cum = [0.0] * faces
    cum.extend(accumulate(map(share.__mul__, probs)))
    cum.extend(repeat(cum[-1], faces - 1))
    return tuple(map(sub, cum[faces:], cum))


@cache
def _sum_of_nines(m: int) -> tuple[float, ...]:
    """Return P(V = m + i) where V is the sum of m fair dice numbered 1..9."""
    if m == 1:
        return (1 / 9,) * 9
    return _convolve_uniform(_sum_of_nines(m - 1), 9)


def _add_one_chain(out: list[float], weight: float, budget: float) -> float:
    """Add weight × P(one chain = s) into out[s], with P(chain = 10g + u) = 0.1^(g+1), u in 1..9;
    return the neglected mass (the chain goes on past depth g with probability 0.1^(g+1))."""
    blocks: list[float] = [0.0]
    p = weight * P_TEN
    while True:
        blocks.extend(repeat(p, 9))
        p *= P_TEN
        if p * 10 < budget:  # mass left: 0.1^(g+1) = 10 × next level's p
            break
        blocks.append(0.0)
    if len(out) < len(blocks):
        out.extend(repeat(0.0, len(blocks) - len(out)))
    out[: len(blocks)] = map(add, out[: len(blocks)], blocks)
    return p * 10


def _add_chain_sums(out: list[float], weight: float, m: int, budget: float) -> float:
    """Add weight × P(sum of m chains = s) into out[s]; return the mass neglected by truncation.

    P(NegBin = g) = C(g+m−1, g)·0.1^g·0.9^m; terms stop once `weight` × the tail bound is below
    the per-piece budget (ratios of successive terms only decrease, so a geometric bound holds)."""
    if m == 1:
        return _add_one_chain(out, weight, budget)
    nines = _sum_of_nines(m)
    width = len(nines)
    scales = []
    p = weight * (1 - P_TEN) ** m
    g = 0
    while True:
        scales.append(p)
        p *= P_TEN * (g + m) / (g + 1)  # p_{g+1} / p_g
        g += 1
        tail = p / (1 - P_TEN * (g + m) / (g + 1))
        if tail < budget:
            break
    end = 10 * (len(scales) - 1) + m + width
    if len(out) < end:
        out.extend(repeat(0.0, end - len(out)))
    for g, scale in enumerate(scales):
        offset = 10 * g + m
        out[offset : offset + width] = map(
            add, out[offset : offset + width], map(scale.__mul__, nines)
        )
    return tail


@cache
def _chains_on_pool_reference(n: int) -> tuple[tuple[float, ...], float]:
    """Return (A, neglected) with A[s] = P(at least one of n dice is a 10 and their chains sum to
    s). Every die showing 10 starts a chain (§5.3); the count of 10s is Binomial(n, 1/10), and m
    chains are 10 × NegBin(m, 1/10) + m dice 1..9. The tests' oracle for the table (its geometric
    tail bound needs fewer than 19 chains with non-negligible weight: pools up to 21 dice)."""
    out: list[float] = []
    neglected = 0.0
    budget = _piece_budget(n)
    for m in range(1, n + 1):
        weight = comb(n, m) * P_TEN**m * (1 - P_TEN) ** (n - m)
        if weight < budget:
            neglected += weight
            continue
        neglected += _add_chain_sums(out, weight, m, budget)
    return tuple(out), neglected


MAX_TABLED_POOL = 21  # pools of 1..21 dice: skill and complexity 0..10, any sign
_TABLE_LENGTH = 320  # D²¹ puts < 1e-18 of its mass at 320 or beyond (tested)


def _times_die_chains(x: list[float]) -> list[float]:
    """Return x ⋆ D (first len(x) terms), D = 0.9 + 0.1·C with C one chain: C[10g + u] = 0.1^(g+1)
    for u in 1..9, i.e. C = 0.1·W/(1 − 0.1·z¹⁰) with W = z + … + z⁹ = z(1 + z + z²)(1 + z³ + z⁶)."""
    pad = [0.0] * 6
    t = list(map(add, map(add, x, pad[:1] + x[:-1]), pad[:2] + x[:-2]))  # x ⋆ (1 + z + z²)
    t = list(map(add, map(add, t, pad[:3] + t[:-3]), pad + t[:-6]))  # ⋆ (1 + z³ + z⁶)
    v = pad[:1] + t[:-1]  # ⋆ z: v = x ⋆ W, all terms positive
    w = [0.0] * len(x)  # w = v / (1 − 0.1·z¹⁰): w[k] = v[k] + 0.1·w[k − 10]
    for r in range(10):
        w[r::10] = accumulate(v[r::10], lambda before, term: 0.1 * before + term)
    return list(map(add, map((1 - P_TEN).__mul__, x), map((P_TEN * P_TEN).__mul__, w)))


def _trim(full: list[float], budget: float) -> tuple[tuple[float, ...], float]:
    """Return (full cut where the tail mass first falls below `budget`, that tail mass)."""
    tails = list(accumulate(reversed(full)))  # tails[j] = mass of the last j + 1 terms
    kept = len(full) - bisect_left(tails, budget)
    return tuple(full[:kept]), (tails[len(full) - kept - 1] if kept < len(full) else 0.0)


def _chain_table(count: int, length: int) -> list[tuple[tuple[float, ...], float]]:
    """Return, for n = 0..count, Dⁿ on the first `length` totals without its s = 0 term (no 10 at
    all), trimmed to the pool's piece budget: (A, neglected) as `_chains_on_pool` gives them."""
    table = [((), 0.0)]
    power = [1.0] + [0.0] * (length - 1)
    for n in range(1, count + 1):
        power = _times_die_chains(power)
        table.append(_trim([0.0, *power[1:]], _piece_budget(n)))
    return table


_CHAINS = tuple(_chain_table(MAX_TABLED_POOL, _TABLE_LENGTH))


@cache
def _chains_on_large_pool(n: int) -> tuple[tuple[float, ...], float]:
    """Return Dⁿ trimmed, as in the table, on a window doubled until it is at least twice as long
    as the kept part (so what lies past the window is far below the budget)."""
    length = _TABLE_LENGTH
    while True:
        chains = _chain_table(n, length)[n]
        if 2 * len(chains[0]) <= length:
            return chains
        length *= 2


def _chains_on_pool(n: int) -> tuple[tuple[float, ...], float]:
    """Return (A, neglected) with A[s] = P(at least one of n dice is a 10 and their chains sum to
    s): the constant table up to `MAX_TABLED_POOL` dice, the same recurrence, memoised, beyond."""
    return _CHAINS[n] if n <= MAX_TABLED_POOL else _chains_on_large_pool(n)


_CHAIN_LEVELS = 40  # one chain to depth 40: 0.1^40 is far below any piece budget
_ONE_CHAIN = tuple(
    0.0 if s % 10 == 0 else P_TEN ** (s // 10 + 1) for s in range(10 * _CHAIN_LEVELS)
)


@cache
def _one_chain(weight: float, budget: float) -> tuple[tuple[float, ...], float]:
    """Return (A, neglected) with A[s] = weight × P(one chain sums to s), cut after the first
    depth g where the chain goes on (probability 0.1^g) with mass below `budget`."""
    if weight < budget:
        return (), weight
    levels, tail = 1, weight * P_TEN
    while tail >= budget and levels < _CHAIN_LEVELS:
        levels, tail = levels + 1, tail * P_TEN
    return tuple(map(weight.__mul__, _ONE_CHAIN[: 10 * levels])), tail


@cache
def kept_die_distribution(n: int, keep_highest: bool) -> tuple[float, ...]:
    """Return P(kept die = k) for k = 1..10 (index k−1) when rolling n d10."""
    powers = [k**n for k in range(11)]  # exact integers: P(all dice ≤ k) = k^n / 10^n
    if keep_highest:
        return tuple((powers[k] - powers[k - 1]) / powers[10] for k in range(1, 11))
    return tuple((powers[11 - k] - powers[10 - k]) / powers[10] for k in range(1, 11))


@cache
def _die_result(n: int, keep_highest: bool, cancel: bool) -> tuple[int, tuple[float, ...], float]:
    """Return (lowest, probabilities, neglected) of the die result: kept die ± its chains.

    `cancel`: hope cancels the critical failure, the kept 1 stays with no chain (Reading §5)."""
    kept = kept_die_distribution(n, keep_highest)
    all_same = P_TEN**n
    if keep_highest:
        up, up_lost = _chains_on_pool(n)  # kept 10: every 10 chains up
        if cancel:
            down, down_lost, ones = (), 0.0, all_same
        else:
            down, down_lost = _one_chain(
                all_same, _piece_budget(n)
            )  # all 1s: one subtracting chain
            ones = 0.0
    else:
        up, up_lost = _one_chain(all_same, _piece_budget(n))  # all 10s: one adding chain
        if cancel:
            down, down_lost, ones = (), 0.0, kept[0]
        else:
            down, down_lost = _chains_on_pool(n)  # kept 1: every 1 chains down
            ones = 0.0
    lowest = 1 - (len(down) - 1) if down else 1
    probs = list(reversed(down[1:]))  # values 1 − s for s = len(down) − 1 … 1
    probs.append(ones)  # value 1
    probs.extend(kept[1:9])  # values 2..9
    probs.append(0.0)  # value 10 always explodes
    probs.extend(up[1:])  # values 10 + s
    return lowest, tuple(probs), up_lost + down_lost


def _add_expertise_die(lowest: int, probs: tuple[float, ...]) -> tuple[int, tuple[float, ...]]:
    """Convolve with the expertise d10 (§2 Reading: no explosion, no critical)."""
    return lowest + 1, _convolve_uniform(probs, 10)


CHAIN_MEAN = 10 * P_TEN / (1 - P_TEN) + 5  # E[10·G + U] = 10/9 + 5


def die_result_mean(n: int, keep_highest: bool, cancel: bool) -> float:
    """Return the exact mean of the die result (kept die ± chains), in closed form."""
    kept = kept_die_distribution(n, keep_highest)
    mean = sum(k * kept[k - 1] for k in range(1, 11))
    all_same = P_TEN**n
    tens_chains = n * P_TEN if keep_highest else all_same  # expected number of adding chains
    ones_chains = all_same if keep_highest else n * P_TEN  # expected number of subtracting chains
    return mean + CHAIN_MEAN * (tens_chains - (0.0 if cancel else ones_chains))


@cache
def _pool_total(
    n: int, keep_highest: bool, cancel: bool, expertise: bool
) -> tuple[int, tuple[float, ...], float, float]:
    """Return (lowest, probabilities, mean, neglected) of die result + expertise die."""
    lowest, probs, neglected = _die_result(n, keep_highest, cancel)
    if expertise:
        lowest, probs = _add_expertise_die(lowest, probs)
    mean = die_result_mean(n, keep_highest, cancel) + (5.5 if expertise else 0.0)
    return lowest, probs, mean, neglected


@cache
def _pool_odds(
    n: int, keep_highest: bool, cancel: bool, expertise: bool
) -> tuple[int, tuple[float, ...], float, float, tuple[float, ...]]:
    """Return `_pool_total` plus tails, tails[j] = P(total ≥ highest − j), summed from the far
    end (smallest terms first): P(success) at any target is then one lookup."""
    lowest, probs, mean, neglected = _pool_total(n, keep_highest, cancel, expertise)
    return lowest, probs, mean, neglected, tuple(accumulate(reversed(probs)))


def _success(tails: tuple[float, ...], first: int) -> float:
    """Return P(total ≥ lowest + first) from the pool's tails, capped at 1."""
    j = len(tails) - 1 - max(first, 0)
    return min(tails[j], 1.0) if j >= 0 else 0.0


@cache
def _faces_probability(n: int, keep_highest: bool, faces: frozenset[int]) -> float:
    """Return P(the kept die shows one of `faces`)."""
    kept = kept_die_distribution(n, keep_highest)
    return sum(kept[k - 1] for k in faces)


def clear_caches() -> None:
    """Forget every cached piece, so the next call computes from scratch (the bench uses this).
    The chain table of pools up to `MAX_TABLED_POOL` dice is a constant, built at import."""
    for cached in (
        _sum_of_nines,
        _chains_on_pool_reference,
        _chains_on_large_pool,
        _one_chain,
        _die_result,
        _pool_total,
        _pool_odds,
        _faces_probability,
        kept_die_distribution,
    ):
        cached.cache_clear()


def check_odds(check: Check) -> Odds:
    """Return the exact odds of `check`: the distribution of its total, P(success), P(critical
    success), P(critical failure) and the mean, before any die is rolled."""
    a = check.advantage
    n, high, expertise = abs(a) + 1, a >= 0, check.expertise
    failure_faces = check.critical_failure_faces
    cancelled = check.cancel_critical_failure
    cancel = cancelled and SUBTRACTING_FACE in failure_faces
    lowest, probs, mean, neglected, tails = _pool_odds(n, high, cancel, expertise)
    modifier = check.modifier
    lowest += modifier
    # despair: a failed roll becomes a narrow success (§5)
    success = 1.0 if check.narrow_success else _success(tails, check.target - lowest)
    return Odds(
        success=success,
        critical_success=_faces_probability(n, high, check.critical_success_faces),
        critical_failure=0.0 if cancelled else _faces_probability(n, high, failure_faces),
        mean=mean + modifier,
        lowest=lowest,
        probabilities=probs,
        neglected_mass=neglected,
    )
