"""Exact odds of a check (§5 Product): the whole distribution of the total, in closed form.

Each kept 10 (or 1) starts explosion chains. One chain is 10·G + U with G geometric (a 10 again
with probability 1/10) and U uniform on 1..9, so a sum of m chains is 10 × NegBin(m, 1/10) plus a
sum of m dice 1..9. The pool gives the kept die and the number of chains; the expertise d10 and the
constant modifiers are added last. Chains are truncated only where the neglected mass is tiny
(`TRUNCATION_BUDGET`), so distributions sum to 1 within 1e-12.
"""

from __future__ import annotations

from collections.abc import Iterable
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
def _chains_on_pool(n: int) -> tuple[tuple[float, ...], float]:
    """Return (A, neglected) with A[s] = P(at least one of n dice is a 10 and their chains sum to
    s). Every die showing 10 starts a chain (§5.3); the count of 10s is Binomial(n, 1/10)."""
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


@cache
def _one_chain(weight: float, budget: float) -> tuple[tuple[float, ...], float]:
    """Return (A, neglected) with A[s] = weight × P(one chain sums to s)."""
    out: list[float] = []
    if weight < budget:
        return (), weight
    neglected = _add_chain_sums(out, weight, 1, budget)
    return tuple(out), neglected


@cache
def kept_die_distribution(n: int, keep_highest: bool) -> tuple[float, ...]:
    """Return P(kept die = k) for k = 1..10 (index k−1) when rolling n d10."""
    if keep_highest:
        return tuple((k**n - (k - 1) ** n) / 10**n for k in range(1, 11))
    return tuple(((11 - k) ** n - (10 - k) ** n) / 10**n for k in range(1, 11))


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


def clear_caches() -> None:
    """Forget every cached piece, so the next call computes from scratch (the bench uses this)."""
    for cached in (
        _sum_of_nines,
        _chains_on_pool,
        _one_chain,
        _die_result,
        _pool_total,
        kept_die_distribution,
    ):
        cached.cache_clear()


def check_odds(check: Check) -> Odds:
    """Return the exact odds of `check`: the distribution of its total, P(success), P(critical
    success), P(critical failure) and the mean, before any die is rolled."""
    n, high = check.dice_count, check.keep_highest
    cancel = check.cancel_critical_failure and SUBTRACTING_FACE in check.critical_failure_faces
    lowest, probs, mean, neglected = _pool_total(n, high, cancel, check.expertise)
    lowest += check.modifier
    first = max(check.target - lowest, 0)
    # despair: a failed roll becomes a narrow success (§5)
    success = 1.0 if check.narrow_success else sum(probs[first:])
    kept = kept_die_distribution(n, high)
    critical_success = sum(kept[k - 1] for k in check.critical_success_faces)
    critical_failure = (
        0.0
        if check.cancel_critical_failure
        else sum(kept[k - 1] for k in check.critical_failure_faces)
    )
    return Odds(
        success=min(success, 1.0),
        critical_success=critical_success,
        critical_failure=critical_failure,
        mean=mean + check.modifier,
        lowest=lowest,
        probabilities=probs,
        neglected_mass=neglected,
    )


@dataclass(frozen=True)
class TableRow:
    """P(success) of one skill for complexity 0, 1, … at one difficulty."""

    skill: str
    level: int
    expertise: bool
    success: tuple[float, ...]


def odds_table(
    skills: Iterable[tuple[str, int, bool]],
    *,
    characteristic: int,
    difficulty: int,
    complexities: Iterable[int] = range(11),
    agony: int = 0,
) -> list[TableRow]:
    """Return a sheet's odds table: for each (skill, level, expert), P(success) at every
    complexity. Pools are shared between rows, so a whole sheet costs a few distinct pools."""
    complexities = tuple(complexities)
    target = difficulty + agony
    rows = []
    for key, level, expert in skills:
        row = []
        for complexity in complexities:
            a = level - complexity
            lowest, probs, _, _ = _pool_total(abs(a) + 1, a >= 0, False, expert)
            first = max(target - characteristic - lowest, 0)
            row.append(sum(probs[first:]))
        rows.append(TableRow(key, level, expert, tuple(row)))
    return rows
