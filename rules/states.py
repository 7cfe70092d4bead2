"""Special states (§7), Fragilité, Épuisement, Aggravation, Péril, Agonie and the death,
unconscious and discouraged conditions (§8)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from rules import reference as ref
from rules.check import Breakdown, Check
from rules.errors import RuleError
from rules.french import plural
from rules.gauges import Gauge

ZONE, FURY, BLAZE, SERENITY, COMEDOWN = "zone", "fury", "blaze", "serenity", "comedown"
SPECIAL_STATES = (ZONE, FURY, BLAZE, SERENITY)
STATE_LABELS = {
    ZONE: "Zone",
    FURY: "Acharnement",
    BLAZE: "Flamboyance",
    SERENITY: "Apaisement",
    COMEDOWN: "Descente",
}


def state_dice(state: str | None) -> tuple[int, int]:
    """Return (boon, bane) dice a state adds to every roll: +1 boon for the four special states,
    1 bane in Descente instead (§7)."""
    if state in SPECIAL_STATES:
        return 1, 0
    if state == COMEDOWN:
        return 0, 1
    return 0, 0


def negation_malus(state: str | None) -> int:
    """Reading (§7): Négation is undefined in the source; this named hook does nothing yet.

    Kept: RULES.md §7 asks for the named hook; nothing calls it until Négation is defined."""
    return 0


def effective_agony(agony: int, state: str | None) -> int:
    """Return the Agonie that raises difficulties: special states ignore it (§7)."""
    return 0 if state in SPECIAL_STATES else agony


def may_enter(
    state: str,
    *,
    galvanized: bool = False,
    calm: bool = False,
    spent_despair: bool = False,
    spent_hope: bool = False,
    zone_roll: bool = False,
) -> bool:
    """Return whether a character may enter `state` (§7): Zone on a Zone roll, Acharnement by
    spending despair under stress, Flamboyance by spending hope while Galvanisé, Apaisement when
    Calme."""
    return {
        ZONE: zone_roll,
        FURY: spent_despair,
        BLAZE: spent_hope and galvanized,
        SERENITY: calm,
    }.get(state, False)


def roll_state(state: str | None, *, fury: bool) -> str | None:
    """Return the special state a roll is made in. Reading (§5, §7): the despair option « enter
    Acharnement » (a despair point spent under stress) enters it before the roll, so the roll
    itself is made in Acharnement (+1 surpuissance die, Agonie ignored) and the state stays after
    it; without it, the character's own state."""
    if fury and may_enter(FURY, spent_despair=True):
        return FURY
    return state


@dataclass(frozen=True)
class Condition:
    """The harm tracks of one character."""

    fragility: int = 0
    exhaustion: int = 0
    aggravation: int = 0
    agony: int = 0
    agony_locked: bool = False  # a stomach wound's Agonie stays until healed (§8)
    state: str | None = None
    discouraged: bool = False
    gauges: Mapping[str, Gauge] | None = None


def end_state(condition: Condition) -> Condition:
    """Return the condition when its special state ends (§7): Acharnement and Flamboyance give
    +1 Fragilité and Descente, Acharnement also makes scars equal wounds on gauges not stable;
    Apaisement gives Descente; Zone gives nothing."""
    state = condition.state
    if state == ZONE:
        return replace(condition, state=None)
    if state == SERENITY:
        return replace(condition, state=COMEDOWN)
    if state == BLAZE:
        return replace(condition, state=COMEDOWN, fragility=condition.fragility + 1)
    if state == FURY:
        gauges = condition.gauges
        if gauges is not None:
            gauges = {
                k: g if g.stabilised else replace(g, scars=g.wounds) for k, g in gauges.items()
            }
        return replace(condition, state=COMEDOWN, fragility=condition.fragility + 1, gauges=gauges)
    return condition


def bane_dice(condition: Condition, injury_bane: int = 0) -> int:
    """Return impuissance dice on every roll: 1 per Épuisement point, 1 if Découragé, 1 in
    Descente (§5), plus those of injuries that apply to this roll."""
    return (
        condition.exhaustion
        + int(condition.discouraged)
        + state_dice(condition.state)[1]
        + injury_bane
    )


def boon_dice(condition: Condition, impact_points: int = 0) -> int:
    """Return surpuissance dice: 1 per Impact point spent, +1 in a special state (§5)."""
    return impact_points + state_dice(condition.state)[0]


def is_fatal(fragility: int, exhaustion: int) -> bool:
    """Fragilité 6 and Épuisement 6 are death (§8).

    Kept: `outlook` calls it, which the app calls; the rule stays one named place."""
    return fragility >= ref.FRAGILITY_MAX or exhaustion >= ref.EXHAUSTION_MAX


def add_fragility(condition: Condition, points: int = 1) -> Condition:
    return replace(condition, fragility=min(condition.fragility + points, ref.FRAGILITY_MAX))


def add_exhaustion(condition: Condition, points: int = 1) -> Condition:
    """Return the condition with `points` Épuisement given (or removed, when negative), kept in
    0..6 (§8; 6 is death, `is_fatal`)."""
    exhaustion = min(max(condition.exhaustion + points, 0), ref.EXHAUSTION_MAX)
    return replace(condition, exhaustion=exhaustion)


def exhaustion_recovered(exhaustion: int, full_rest_days: int, wounds: int) -> int:
    """Reading (§8): a full rest of [Épuisement] days with no wounds removes 1 point."""
    if exhaustion > 0 and wounds == 0 and full_rest_days >= exhaustion:
        return exhaustion - 1
    return exhaustion


def suffer_critical(condition: Condition) -> Condition:
    """Whoever suffers a critical takes a level of Aggravation (§5, §8)."""
    return replace(condition, aggravation=condition.aggravation + 1)


def avoid_cost(aggravation: int) -> int:
    """Résilience points to spend to avoid the effect: 1 per Aggravation level (§1, §8)."""
    return aggravation


def pay_resilience(points: int, aggravation: int, name: str = "Le personnage") -> int:
    """Return the Résilience points left once the victim of a critical avoids its effect: 1 point
    per Aggravation level (§1, §8), refused in French when it has too few."""
    cost = avoid_cost(aggravation)
    if points < cost:
        raise RuleError.single(
            "mode",
            f"{name} n'a que {points} {plural(points, 'point', 'points')} de Résilience ; "
            f"il en faut {cost} (Aggravation {aggravation}).",
        )
    return points - cost


def pay_impact(points: int, dice: int, name: str = "Le personnage") -> int:
    """Return the Impact points left once `dice` surpuissance dice are bought, one point each
    (§1, §5), refused in French when it has too few."""
    if dice < 0:
        raise RuleError.single("impact", "Le nombre de points d'Impact dépensés est positif.")
    if dice > points:
        raise RuleError.single(
            "impact", f"{name} n'a que {points} {plural(points, 'point', 'points')} d'Impact."
        )
    return points - dice


def aggravation_effect(fragility: int, die: int) -> ref.AggravationEffect:
    """Return the Aggravation table's effect for the victim's Fragilité and a d10 (or the Conteur's
    choice of face)."""
    if not 1 <= die <= 10:
        raise RuleError.single("die", "Le dé d'Aggravation doit être compris entre 1 et 10.")
    row = ref.AGGRAVATION_TABLE[aggravation_row(fragility)]
    return next(effect for effect in row if effect.low <= die <= effect.high)


def apply_aggravation(condition: Condition, effect: ref.AggravationEffect) -> Condition:
    """Return the condition after an effect's numeric consequences (Fragilité, Agonie); limbs,
    items and scars are for the sheet's notes."""
    after = add_fragility(condition, effect.fragility)
    if effect.agony:
        after = replace(
            after,
            agony=after.agony + effect.agony,
            agony_locked=after.agony_locked or effect.agony_locked_until_healed,
        )
    if effect.death:
        after = replace(after, fragility=ref.FRAGILITY_MAX)
    return after


def unconscious_turns(aggravation: int, agony: int) -> int:
    """At 0 Vitalité a critical also knocks out for max(Aggravation, Agonie) turns (§8)."""
    return max(aggravation, agony)


def knocked_out_for(turns_left: int, knocked_out: int) -> int:
    """The rounds a combatant stays unconscious after a new knock-out (§8): a knock-out never
    shortens one under way."""
    return max(turns_left, knocked_out)


def _agony_after_rest(condition: Condition, *, stable: bool) -> int:
    """Agonie is lost after a rest if stable (§8), of any rank, unless a stomach wound not yet
    healed holds it (§8, the Aggravation table)."""
    return 0 if stable and not condition.agony_locked else condition.agony


def after_rest(condition: Condition, *, full: bool, stable: bool) -> Condition:
    """Return the condition after a rest: Agonie lost if stable, whatever the rank (§8); a full
    rest also sets Aggravation back to 0 (Reading §8) and ends Descente (§7). Reading (§8,
    Découragement by one hit): any rest ends the Découragement kept from one big hit."""
    agony = _agony_after_rest(condition, stable=stable)
    if not full:
        return replace(condition, agony=agony, discouraged=False)
    state = None if condition.state == COMEDOWN else condition.state
    return replace(condition, aggravation=0, state=state, agony=agony, discouraged=False)


def gauge_collapsed(gauge: Gauge, hit: int = 0) -> bool:
    """A gauge collapses when its scars reach its maximum with no ephemeral point and no
    stabilisation, or when one hit deals at least its maximum (§8)."""
    worn_out = gauge.scars >= gauge.maximum and gauge.ephemeral == 0 and not gauge.stabilised
    return worn_out or hit >= gauge.maximum


@dataclass(frozen=True)
class Outlook:
    dead: bool
    unconscious: bool
    discouraged: bool


def outlook(
    gauges: Mapping[str, Gauge],
    fragility: int = 0,
    exhaustion: int = 0,
    hits: Mapping[str, int] | None = None,
) -> Outlook:
    """Return death (Vitalité collapsed, Fragilité 6, Épuisement 6), unconsciousness (Énergie
    collapsed) and discouragement (Confiance collapsed), §8."""
    hits = hits or {}
    return Outlook(
        dead=gauge_collapsed(gauges["vitality"], hits.get("vitality", 0))
        or is_fatal(fragility, exhaustion),
        unconscious=gauge_collapsed(gauges["energy"], hits.get("energy", 0)),
        discouraged=gauge_collapsed(gauges["confidence"], hits.get("confidence", 0)),
    )


def peril_check(gauge: Gauge, resilience: int) -> Check:
    """Reading (§8): at each turn start, for a gauge in péril, a check with characteristic =
    Résilience score, skill 0, complexity 0, difficulty = that gauge's scars."""
    return Check(skill=0, complexity=0, characteristic=resilience, difficulty=gauge.scars)


def apply_peril(gauge: Gauge, breakdown: Breakdown) -> Gauge:
    """On a failed péril check, the gauge gains as many scars as the margin of failure (§8)."""
    if breakdown.succeeded:
        return gauge
    return replace(gauge, scars=gauge.scars - breakdown.margin)


def agony_at_zero(agony: int) -> int:
    """Reaching 0 Vitalité gives 1 Agonie if there is none (§8)."""
    return max(agony, 1)


def agony_after_hit(agony: int, before: Gauge, after: Gauge) -> int:
    """Return the Agonie after a hit on Vitalité (§8): reaching 0 from above gives 1 if there is
    none (`agony_at_zero`); a hit that leaves it above 0, or one taken already at 0, changes
    nothing (the turns at 0 add theirs, `agony_after_turn`)."""
    if after.current == 0 and before.current > 0:
        return agony_at_zero(agony)
    return agony


def aggravation_row(fragility: int) -> int:
    """Return the Aggravation table's row for a Fragilité (§8): rows 0..5, the last one (death)
    for 5 and above."""
    return min(max(fragility, 0), 5)


def full_turn_at_zero(fell_in_turn: int, turn: int) -> bool:
    """Reading (§8): a turn at 0 Vitalité is full when the combatant was already at 0 when it
    began — not the turn it fell in."""
    return fell_in_turn < turn


def agony_after_turn(agony: int, vitality: Gauge) -> int:
    """A full turn at 0 Vitalité, not stabilised, adds 1 Agonie (§8)."""
    return agony + 1 if vitality.current == 0 and not vitality.stabilised else agony


def nonlethal_against_agony(resilience_points: int, critical_success: bool) -> int:
    """A non-lethal attack on a character in Agonie removes 1 Résilience point, all of them on a
    critical success (§8); return the points left."""
    return 0 if critical_success else max(resilience_points - 1, 0)


def gain_capped(points: int, maximum: int, gained: int = 1) -> int:
    """Fortune and Fatalité are capped at 5 (§14)."""
    return min(points + gained, maximum)


def spend_capped(points: int, spent: int, label: str = "Fatalité") -> int:
    """Fortune and Fatalité are spent (§14: « dépensée pour aggraver une situation » / « plusieurs
    à la fois »): return the points left; spending none, or more than is held, is refused."""
    if spent < 1:
        raise RuleError.single("points", f"{label} : dépensez au moins 1 point.")
    if spent > points:
        asked = plural(spent, "point demandé", "points demandés")
        held = plural(points, "disponible", "disponibles")
        raise RuleError.single("points", f"{label} : {spent} {asked}, seulement {points} {held}.")
    return points - spent


def fortune_for_all(fortunes: Mapping[str, int], fate: int) -> tuple[dict[str, int], int]:
    """Despair option (§5): every character gains 1 Fortune and the Conteur 1 Fatalité, each capped
    at 5 (§14); return (new fortunes, new fate)."""
    return (
        {key: gain_capped(points, ref.FORTUNE_MAX) for key, points in fortunes.items()},
        gain_capped(fate, ref.FATE_MAX),
    )
