"""A combatant's incantation in progress (§15, Reading "incantation"): begun at its slot, it
resolves at the caster's first slot of the next round; meanwhile the caster takes no other
action, and defending, being knocked out or held loses the spell.

The incantation waits on the caster's row (`Combatant.incantation`: the spell as cast, the
round it began, the Énergie paid). Every action checks it here, so this module imports no other
combat module: attacks, regeneration and spells call it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules import combat as rules_combat
from rules import spells as rules_spells
from rules.french import de
from sessions.errors import violation
from sessions.models import Combatant, CombatantStatus, Encounter


def pending(combatant: Combatant) -> dict[str, Any]:
    """The incantation the combatant is holding ({} if none)."""
    return combatant.incantation or {}


def _state(combatant: Combatant, encounter: Encounter) -> str:
    spell = pending(combatant)
    if spell.get("encounter") != encounter.pk:
        return rules_spells.LOST_LATE
    return rules_spells.incantation_state(
        began_round=spell.get("round", 0),
        round_=encounter.round,
        fighting=combatant.status == CombatantStatus.ACTIVE,
        held=combatant.held_by_id is not None,
    )


def due(combatant: Combatant, encounter: Encounter) -> bool:
    """Whether the caster's incantation resolves now (`rules.spells.incantation_state`)."""
    return bool(pending(combatant)) and _state(combatant, encounter) == rules_spells.DUE


LOST_LINES = {
    rules_spells.LOST_OUT: gettext_noop(
        "%(name)s n'est plus en état d'incanter : son sort est perdu."
    ),
    rules_spells.LOST_HELD: gettext_noop("%(name)s est tenu : son sort est perdu."),
    rules_spells.LOST_LATE: gettext_noop(
        "L'incantation %(of_name)s n'a pas été achevée à temps : son sort est perdu."
    ),
}


def lost_reason(combatant: Combatant, encounter: Encounter) -> str:
    """Why the spell is lost by now, in French (empty while it may still resolve)."""
    if not pending(combatant):
        return ""
    line = LOST_LINES.get(_state(combatant, encounter))
    return _(line) if line else ""


def lose(combatant: Combatant, reason: str) -> str:
    """Drop the caster's incantation (the Énergie paid is not refunded) and return the log
    line that says so, about the caster by name."""
    name = pending(combatant).get("name") or _("son sort")
    combatant.incantation = {}
    Combatant.objects.filter(pk=combatant.pk).update(incantation={})
    return (reason or _("%(name)s perd son sort.")) % {
        "name": combatant.name,
        "of_name": de(combatant.name),
        "spell": name,
    }


def lose_on_defence(combatant: Combatant, answer: str) -> str:
    """A caster who answers a blow loses its spell (`rules.spells.answer_loses_incantation`);
    returns the log line, empty when it held none or did not answer."""
    lost = rules_spells.answer_loses_incantation(answer, no_defence=rules_combat.NO_DEFENCE)
    if not pending(combatant) or not lost:
        return ""
    return lose(combatant, _("%(name)s se défend et perd son incantation."))


def refuse_if_incanting(combatant: Combatant, encounter: Encounter) -> None:
    """The caster takes no other action while it incants (§15 Reading): only the spell's end
    at its slot of the next round. A lost incantation is dropped and does not refuse."""
    if not pending(combatant):
        return
    reason = lost_reason(combatant, encounter)
    if reason:
        lose(combatant, reason)
        return
    raise violation(
        "encounter",
        _("%(name)s incante : sa seule action est d'achever son sort au tour suivant.")
        % {"name": combatant.name},
    )
