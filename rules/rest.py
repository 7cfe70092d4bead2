"""Rests (§4): ranks, points restored per gauge, scars, Épuisement and the Résilience refill."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from rules import reference as ref
from rules.errors import RuleError
from rules.gauges import Gauge


def _index(rank: str) -> int:
    if rank not in ref.REST_RANK_KEYS:
        raise RuleError.single("rank", f"Le rang de repos « {rank} » n'existe pas.")
    return ref.REST_RANK_KEYS.index(rank)


def shift_rank(rank: str, steps: int) -> str:
    """Return the rank `steps` harder (positive) or easier (negative), clamped to the table."""
    index = min(max(_index(rank) + steps, 0), len(ref.REST_RANK_KEYS) - 1)
    return ref.REST_RANK_KEYS[index]


def rest_rank(
    *,
    slept_badly: bool = False,
    ate_badly: bool = False,
    whole_day_of_rest: bool = False,
    base: str = ref.DEFAULT_REST_RANK,
) -> str:
    """Reading (§4): from Normale, sleeping badly and eating badly each make the rest one rank
    harder, a whole day of rest one rank easier."""
    return shift_rank(base, int(slept_badly) + int(ate_badly) - int(whole_day_of_rest))


def injury_harder_gauges(effects: Collection[str]) -> tuple[str, ...]:
    """Return the gauges that restore one rank harder for a character carrying these unhealed
    Aggravation effects (keys of `AGGRAVATION_TABLE`): the rib cage's Vitalité and Énergie (§4,
    §8 row 4). Unknown keys and effects that touch no rest give nothing."""
    wanted = set(effects)
    harder = {
        gauge
        for row in ref.AGGRAVATION_TABLE.values()
        for effect in row
        if effect.key in wanted
        for gauge in effect.harder_rest_gauges
    }
    return tuple(g for g in ref.GAUGES if g in harder)


def is_full_rest(rank: str) -> bool:
    """Reading (§4): a full rest (repos complet) is a night's rest of rank Normale or easier."""
    return _index(rank) <= _index("normal")


def rank_points(rank: str, might: int, harmony: int) -> int:
    """Return the points one rest of `rank` gives a gauge, before Épuisement (§4)."""
    formula = ref.REST_RANKS[_index(rank)].formula
    return {
        "might+harmony": might + harmony,
        "might": might,
        "harmony": harmony,
        "one": 1,
        "zero": 0,
    }[formula]


def points_restored(rank: str, might: int, harmony: int, exhaustion: int = 0) -> int:
    """Return points per gauge: the rank's points minus 1 per Épuisement point, never below 0."""
    return max(rank_points(rank, might, harmony) - exhaustion, 0)


def rest_gauge(gauge: Gauge, rank: str, might: int, harmony: int, exhaustion: int = 0) -> Gauge:
    """Reading (§4) of "jusqu'à rejoindre le nombre de cicatrices": the gauge restores at the
    rest's rank up to maximum − scars; past that point gauge and scars both restore at one rank
    harder, each point restored there removing one scar. Points left over from the first part
    carry on past the point, but never more than the harder rank gives."""
    budget = points_restored(rank, might, harmony, exhaustion)
    ceiling = gauge.maximum - gauge.scars
    first = max(min(budget, ceiling - gauge.current), 0)
    current = gauge.current + first
    harder = points_restored(shift_rank(rank, 1), might, harmony, exhaustion)
    second = max(min(budget - first, harder, gauge.scars, gauge.maximum - current), 0)
    return replace(gauge, current=current + second, scars=gauge.scars - second)


@dataclass(frozen=True)
class RestResult:
    gauges: dict[str, Gauge]
    resilience_refilled: bool
    full_rest: bool

    def resilience_points(self, points: int, score: int) -> int:
        """Return the Résilience points after the rest: all of them back (the Résilience score)
        after a rest with no scars and no wounds (§1, §4), else unchanged."""
        return score if self.resilience_refilled else points


def rest(
    gauges: Mapping[str, Gauge],
    rank: str,
    *,
    might: int,
    harmony: int,
    exhaustion: int = 0,
    harder_gauges: Collection[str] = (),
) -> RestResult:
    """Return the gauges after one rest, whether Résilience points all come back (a rest with no
    scars and no wounds, §1) and whether it was a full rest. `harder_gauges` restore one rank
    harder (the rib-cage injury of the Aggravation table, §4)."""
    refilled = all(g.scars == 0 and g.wounds == 0 for g in gauges.values())
    after = {
        name: rest_gauge(
            gauge,
            shift_rank(rank, 1) if name in harder_gauges else rank,
            might,
            harmony,
            exhaustion,
        )
        for name, gauge in gauges.items()
    }
    return RestResult(after, refilled, is_full_rest(rank))
