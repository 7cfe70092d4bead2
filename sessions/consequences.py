"""What a roll leads to, once the Conteur applies it: a critical suffered (Aggravation, then
Résilience or the Aggravation table, §8), Fortune, Fatalité (§14) or the Zone (§7).

These steps compute and refuse; `sessions.services.consequence_apply` locks, calls them, writes
the sheet and the lasting injury, and logs the consequence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.models import Character
from characters.services import rule_error_to_validation_error
from rules import reference
from rules import states as rules_states
from rules.check import CRITICAL_FAILURE, CRITICAL_SUCCESS, RandomSource, system_rng
from rules.errors import RuleError
from sessions.checks import condition_of
from sessions.errors import rule_call, violation
from sessions.injuries import is_lasting
from sessions.models import Roll

CRITICAL = "critical"
FORTUNE = "fortune"
FATE = "fate"
ZONE = "zone"
CONSEQUENCES = {
    CRITICAL: "Critique subi",
    FORTUNE: "Fortune",
    FATE: "Fatalité",
    ZONE: "Entrer dans la Zone",
}
RESILIENCE, TABLE = "resilience", "table"


def consequences_available(roll: Roll) -> list[str]:
    """The one-click consequences a roll allows that were not applied yet."""
    found = []
    if roll.outcome in (CRITICAL_FAILURE, CRITICAL_SUCCESS):
        found.append(CRITICAL)
    if roll.outcome == CRITICAL_SUCCESS and roll.character_id:
        found.append(FORTUNE)
    if roll.outcome == CRITICAL_FAILURE and roll.character_id:
        found.append(FATE)
    if roll.zone and roll.character_id:
        found.append(ZONE)
    return [kind for kind in found if kind not in roll.consequences]


@dataclass
class CriticalSuffered:
    """A critical suffered, not written yet: the sheet changes, the log's summary and details,
    and the Aggravation table's effect when it leaves a lasting injury."""

    summary: str
    changes: dict[str, Any]
    details: dict[str, Any] = field(default_factory=dict)
    injury: reference.AggravationEffect | None = None


def critical_suffered(
    character: Character, mode: str, face: int | None, rng: RandomSource | None
) -> CriticalSuffered:
    """+1 Aggravation, then Résilience spent to avoid the effect or the Aggravation table's
    effect: the d10 `face` the Conteur chose, or one drawn from `rng` (§8)."""
    condition = rules_states.suffer_critical(condition_of(character))
    changes: dict[str, Any] = {"aggravation": condition.aggravation}
    details: dict[str, Any] = {"aggravation": condition.aggravation, "mode": mode}
    if mode == RESILIENCE:
        cost = rules_states.avoid_cost(condition.aggravation)
        try:
            changes["resilience_points"] = rules_states.pay_resilience(
                character.resilience_points, condition.aggravation, character.name
            )
        except RuleError as error:
            raise rule_error_to_validation_error(error) from error
        summary = ngettext(
            "%(name)s subit un critique (Aggravation %(aggravation)d) et dépense %(cost)d point "
            "de Résilience pour l'éviter.",
            "%(name)s subit un critique (Aggravation %(aggravation)d) et dépense %(cost)d points "
            "de Résilience pour l'éviter.",
            cost,
        ) % {"name": character.name, "aggravation": condition.aggravation, "cost": cost}
        return CriticalSuffered(summary, changes, details)
    if mode != TABLE:
        raise violation("mode", _("Choisissez Résilience ou la table d'Aggravation."))
    die = face if face is not None else (rng or system_rng()).randint(1, 10)
    effect = rule_call(lambda: rules_states.aggravation_effect(character.fragility, die))
    after = rules_states.apply_aggravation(condition, effect)
    changes.update(fragility=after.fragility, agony=after.agony, agony_locked=after.agony_locked)
    details.update(die=die, chosen=face is not None, effect=effect.key)
    how = _("choisi par le Conteur") if face is not None else _("tiré")
    summary = _(
        "%(name)s subit un critique (Aggravation %(aggravation)s) : d10 %(how)s %(die)s sur la ligne Fragilité %(fragility)s → %(label)s (%(description)s)"
    ) % {
        "name": character.name,
        "aggravation": condition.aggravation,
        "how": how,
        "die": die,
        "fragility": character.fragility,
        "label": effect.label,
        "description": effect.description,
    }
    return CriticalSuffered(summary, changes, details, effect if is_lasting(effect) else None)
