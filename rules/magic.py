"""Magic (§15): healing spell difficulty and complexity, incantation options."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules import reference as ref
from rules.errors import RuleError, RuleViolation, raise_if
from rules.french import plural
from rules.gauges import Gauge


def healing_difficulty(gauge: Gauge) -> int:
    """The difficulty of a healing spell is the number of wounds to heal (§15)."""
    return gauge.wounds


def healing_complexity(gauge: Gauge, *, resilience_points: int) -> int:
    """Return a healing spell's complexity (§15): 1 without scars, 2 with one, then 3..7 as scars
    reach 1/10, 1/5, 1/4, 1/2, 3/4 of the maximum; +1 each if the gauge is at 0, Résilience is at
    0, or the gauge is in péril."""
    return healing_scar_complexity(gauge) + len(healing_aggravations(gauge, resilience_points))


def healing_scar_complexity(gauge: Gauge) -> int:
    """The part of a healing spell's complexity the scars give, against the gauge's maximum
    (§15): 1 without scars, 2 with at least one, 3..7 from 1/10, 1/5, 1/4, 1/2, 3/4."""
    if gauge.scars <= 0:
        return ref.HEALING_NO_SCAR
    share = Fraction(gauge.scars, gauge.maximum) if gauge.maximum else Fraction(1)
    return next(
        (t.complexity for t in ref.HEALING_THRESHOLDS if share >= t.fraction),
        ref.HEALING_ANY_SCAR,
    )


GAUGE_AT_ZERO = "gauge_at_zero"
RESILIENCE_AT_ZERO = "resilience_at_zero"
GAUGE_IN_PERIL = "gauge_in_peril"


def healing_aggravations(gauge: Gauge, resilience_points: int) -> tuple[str, ...]:
    """Which of the three +1 of a healing spell's complexity apply (§15): the gauge at 0,
    Résilience at 0, the gauge in péril — each one a key, in that order."""
    found = (
        (GAUGE_AT_ZERO, gauge.current == 0),
        (RESILIENCE_AT_ZERO, resilience_points == 0),
        (GAUGE_IN_PERIL, gauge.peril),
    )
    return tuple(key for key, applies in found if applies)


@dataclass(frozen=True)
class Incantation:
    """What the Combativité spent on an incantation gives (§15)."""

    boon_dice: int  # focus: one more die, keep the best, stackable
    extra_points: int  # gestures, words, components, overcharge
    combativeness_spent: int
    cost_multiplier: int  # 2 when overcharged


def incantation(
    spell_points: int,
    *,
    focus: int = 0,
    gestures: int = 0,
    words: int = 0,
    components: int = 0,
    overcharge: bool = False,
) -> Incantation:
    """Return the effect of an incantation's options. Gestures, words and components each give at
    most the spell's points, once (the caller lowers them when hindered, silent or for a cheap
    component); overcharge doubles the cost for the spell's points once."""
    found = []
    for name, value, label in (
        ("gestures", gestures, "Les gestes"),
        ("words", words, "Les paroles"),
        ("components", components, "Les composantes"),
    ):
        if not 0 <= value <= spell_points:
            found.append(
                RuleViolation(name, f"{label} apportent entre 0 et {spell_points} points de sort.")
            )
    if focus < 0:
        found.append(RuleViolation("focus", "La concentration ne peut pas être négative."))
    raise_if(found)
    once = [gestures > 0, words > 0, components > 0, overcharge]
    return Incantation(
        boon_dice=focus,
        extra_points=gestures + words + components + (spell_points if overcharge else 0),
        combativeness_spent=focus + sum(once),
        cost_multiplier=2 if overcharge else 1,
    )


def area_checks(targets: int) -> int:
    """An area spell needs one check per character or group affected (§15)."""
    if targets < 0:
        raise RuleError.single("targets", "Le nombre de cibles ne peut pas être négatif.")
    return targets


def incantation_actions(spell: Incantation, *, actions_left: int) -> int:
    """Return how many of the caster's actions still to come this round the incantation takes.

    Reading (§15, §1, §13): Combativité is the actions per turn and a combat turn is the round,
    so an incantation "takes a whole turn, during which the caster does nothing else": it gives
    up every action the caster still has after this one in the round, and the Combativité it
    spends (focus, gestures, words, components, overcharge) is drawn from those actions — at
    most as many points as actions left. The casting action itself spends none. Refuses (in
    French) a spend beyond what is left."""
    if actions_left < 0:
        raise RuleError.single("actions_left", "Le nombre d'actions restantes est négatif.")
    if spell.combativeness_spent > actions_left:
        spent = spell.combativeness_spent
        asked = plural(spent, "point", "points")
        left = {0: "il n'en reste aucun", 1: "il n'en reste qu'un"}.get(
            actions_left, f"il n'en reste que {actions_left}"
        )
        raise RuleError.single(
            "combativeness",
            f"L'incantation demande {spent} {asked} de Combativité et {left} ce tour "
            "(un par action encore à venir).",
        )
    return actions_left
