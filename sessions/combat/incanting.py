"""A combatant's incantation in progress (§15, Reading "incantation"): begun at its slot, it
resolves at the caster's first slot of the next round; meanwhile the caster takes no other
action, and defending, being knocked out or held loses the spell.

The incantation waits on the caster's row (`Combatant.incantation`: the spell as cast, the
round it began, the Énergie paid). Every action checks it here, so this module imports no other
combat module: attacks, regeneration and spells call it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rules.french import de
from sessions.errors import violation
from sessions.models import Combatant, CombatantStatus, Encounter


def pending(combatant: Combatant) -> dict[str, Any]:
    """The incantation the combatant is holding ({} if none)."""
    return combatant.incantation or {}


def due(combatant: Combatant, encounter: Encounter) -> bool:
    """Whether the caster's incantation resolves now: the round after it began, the caster
    acting, still in the fight and free."""
    spell = pending(combatant)
    return (
        bool(spell)
        and spell.get("encounter") == encounter.pk
        and spell.get("round", 0) + 1 == encounter.round
        and combatant.status == CombatantStatus.ACTIVE
        and combatant.held_by_id is None
    )


def lost_reason(combatant: Combatant, encounter: Encounter) -> str:
    """Why the spell is lost by now (empty while it may still resolve): knocked out or out of
    the fight, held, or its slot of the next round gone by."""
    spell = pending(combatant)
    if not spell:
        return ""
    if combatant.status != CombatantStatus.ACTIVE:
        return _("%(name)s n'est plus en état d'incanter : son sort est perdu.")
    if combatant.held_by_id is not None:
        return _("%(name)s est tenu : son sort est perdu.")
    if spell.get("encounter") != encounter.pk or spell.get("round", 0) + 1 < encounter.round:
        return _("L'incantation %(of_name)s n'a pas été achevée à temps : son sort est perdu.")
    return ""


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


def lose_on_defence(combatant: Combatant) -> str:
    """A caster who defends (or answers a blow) loses its spell (§15 Reading); returns the log
    line, empty when it held no incantation."""
    if not pending(combatant):
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
