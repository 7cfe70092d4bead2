"""A round's end (§1, §8, §13): everything that happens once per round, for one combatant, from
frozen inputs and the Péril rolls' dice to a frozen outcome.

Reading (§13 "a tour is a round"): once per round Finesse points return, Agonie grows,
regenerations happen, knock-out and incantation counts advance, and Péril is rolled at the next
round's start. The app loads each combatant, calls `round_end` once, stores and logs the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules import reference as ref
from rules.alterations import Alterations, altered
from rules.check import Breakdown, RandomSource, roll_check
from rules.combat import finesse_points_for_turn, turn_regeneration
from rules.errors import RuleError
from rules.gauges import Gauge
from rules.states import (
    Outlook,
    agony_after_turn,
    apply_peril,
    full_turn_at_zero,
    outlook,
    peril_check,
)


@dataclass(frozen=True)
class RoundFighter:
    """One combatant as the round's end needs it.

    `zero_since` is the round at whose end (or before whose start, 0 for the fight's start) the
    combatant was last seen at 0 Vitalité, None when it was not; `knocked_out` the rounds it still
    misses, `knocked_out_fresh` whether the knock-out came during the round now ending;
    `incantation` the rounds left before a spell being cast resolves."""

    gauges: Mapping[str, Gauge]
    finesse: int
    resilience: int
    round: int
    agony: int = 0
    zero_since: int | None = None
    regeneration: Mapping[str, int] = field(default_factory=dict)
    knocked_out: int = 0
    knocked_out_fresh: bool = False
    incantation: int = 0
    boon: int = 0
    bane: int = 0
    agony_counts: bool = True
    fragility: int = 0
    exhaustion: int = 0


@dataclass(frozen=True)
class PerilRoll:
    gauge: str
    breakdown: Breakdown
    scars_added: int


@dataclass(frozen=True)
class RoundEnd:
    """What the round's end did to one combatant (the values to store, and what to log)."""

    gauges: Mapping[str, Gauge]
    agony: int
    agony_gained: int
    zero_since: int | None
    regenerated: Mapping[str, int]
    knocked_out: int
    wakes: bool
    incantation: int
    finesse_points: int
    perils: tuple[PerilRoll, ...]
    outlook: Outlook


def grows_agony(fighter: RoundFighter) -> bool:
    """Reading (§8 "Agonie in a fight"): a round counts as "entier" at 0 Vitalité when the
    combatant was already at 0 when it began — before round 1 too — and still is, not
    stabilised, when it ends (judged before the round's regeneration)."""
    vitality = fighter.gauges["vitality"]
    at_zero = vitality.current == 0 and not vitality.stabilised
    started_at_zero = fighter.zero_since is not None and full_turn_at_zero(
        fighter.zero_since, fighter.round
    )
    return at_zero and started_at_zero


def knock_out_left(rounds: int, *, fresh: bool) -> int:
    """Reading (§8 "criticals in a fight"): a knock-out makes the combatant miss its *next*
    max(Aggravation, Agonie) rounds, so the round it fell in does not count: a 1-round knock-out
    costs the whole next round's actions."""
    if rounds <= 0 or fresh:
        return max(rounds, 0)
    return rounds - 1


def _regenerate(
    gauges: Mapping[str, Gauge], regeneration: Mapping[str, int]
) -> tuple[dict[str, Gauge], dict[str, int]]:
    after, healed = dict(gauges), {}
    for name in ref.GAUGES:
        points = regeneration.get(name, 0)
        if points <= 0:
            continue
        regenerated = turn_regeneration(gauges[name], points)
        if regenerated.current != gauges[name].current:
            healed[name] = regenerated.current - gauges[name].current
            after[name] = regenerated
    return after, healed


def round_start_perils(
    fighter: RoundFighter, rng: RandomSource | None = None
) -> tuple[dict[str, Gauge], tuple[PerilRoll, ...]]:
    """The first round's start (§8 Reading "at each turn start"): only the Péril checks — the
    other rounds' come with the previous round's end (`round_end`)."""
    gauges = dict(fighter.gauges)
    return gauges, _perils(gauges, fighter, fighter.agony, rng)


def _perils(
    gauges: dict[str, Gauge], fighter: RoundFighter, agony: int, rng: RandomSource | None
) -> tuple[PerilRoll, ...]:
    """§8 Reading: at the round's start, a Résilience check against the scars of each gauge in
    péril, built like a table roll from the roller's sheet (its dice and Agonie, §13 Product);
    a failure adds as many scars as its margin."""
    dice = Alterations(fighter.boon, fighter.bane, agony if fighter.agony_counts else 0)
    rolls = []
    for name in ref.GAUGES:
        gauge = gauges[name]
        if not gauge.peril or gauge.stabilised:
            continue
        breakdown = roll_check(altered(peril_check(gauge, fighter.resilience), dice), rng)
        after = apply_peril(gauge, breakdown)
        rolls.append(PerilRoll(name, breakdown, after.scars - gauge.scars))
        gauges[name] = after
    return tuple(rolls)


def round_end(fighter: RoundFighter, rng: RandomSource | None = None) -> RoundEnd:
    """Close round `fighter.round` for one combatant still in the fight and open the next.

    Reading (§13 "a tour is a round"), in this order: the Agonie of a full round at 0, the
    regenerations, the knock-out and incantation counts, the Finesse points, then the new
    round's Péril checks (with the Agonie just grown, §8)."""
    vitality = fighter.gauges["vitality"]
    agony = agony_after_turn(fighter.agony, vitality) if grows_agony(fighter) else fighter.agony
    gauges, healed = _regenerate(fighter.gauges, fighter.regeneration)
    knocked_out = knock_out_left(fighter.knocked_out, fresh=fighter.knocked_out_fresh)
    perils = _perils(gauges, fighter, agony, rng)
    vitality = gauges["vitality"]
    at_zero = vitality.current == 0 and not vitality.stabilised
    if at_zero:
        zero_since = fighter.zero_since if fighter.zero_since is not None else fighter.round
    else:
        zero_since = None
    return RoundEnd(
        gauges=gauges,
        agony=agony,
        agony_gained=agony - fighter.agony,
        zero_since=zero_since,
        regenerated=healed,
        knocked_out=knocked_out,
        wakes=fighter.knocked_out > 0 and knocked_out == 0,
        incantation=max(fighter.incantation - 1, 0),
        finesse_points=finesse_points_for_turn(fighter.finesse),
        perils=perils,
        outlook=outlook(gauges, fighter.fragility, fighter.exhaustion),
    )


def forced_regeneration_points(requested: int, regeneration: int) -> int:
    """Reading (§13): only a gauge the combatant regenerates can be forced, by at most that
    regeneration's points; return the points to restore."""
    if regeneration <= 0:
        raise RuleError.single(
            "gauge", "Ce combattant ne régénère pas cette constitution : rien à forcer."
        )
    if not 1 <= requested <= regeneration:
        raise RuleError.single(
            "points",
            f"Une régénération forcée rend de 1 à {regeneration} points (sa régénération).",
        )
    return requested
