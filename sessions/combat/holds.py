"""Who holds whom in a fight (§13): an Étreinte lasts while both are in the fight, and a held
combatant may only free itself. Read by the tracker and checked by every action, so it imports
no other combat module."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules import combat as rules_combat
from rules.french import de
from sessions.errors import violation
from sessions.models import Combatant, CombatantStatus

ACTIVE = CombatantStatus.ACTIVE


def holder_of(combatant: Combatant, by_pk: dict[int, Combatant]) -> Combatant | None:
    """The combatant holding this one in an Étreinte, if the hold still lasts
    (`rules.combat.hold_lasts`: both still in the fight)."""
    holder = by_pk.get(combatant.held_by_id) if combatant.held_by_id else None
    if holder is None or not rules_combat.hold_lasts(
        holder_fighting=holder.status == ACTIVE, held_fighting=combatant.status == ACTIVE
    ):
        return None
    return holder


def refuse_if_held(combatant: Combatant, by_pk: dict[int, Combatant], action: str) -> None:
    """A held combatant may only free itself, end or delay its action (§13)."""
    holder = holder_of(combatant, by_pk)
    if holder is not None and not rules_combat.held_can_act(action):
        raise violation(
            "encounter",
            _("%(name)s est dans l'étreinte %(of_holder)s : seule une tentative pour se libérer est possible.")
            % {"name": combatant.name, "of_holder": de(holder.name)},
        )  # fmt: skip


def held_note(target: Combatant, by_pk: dict[int, Combatant]) -> str:
    """Why a held target has no defence (empty if it is free)."""
    holder = holder_of(target, by_pk)
    if holder is None:
        return ""
    return _("Dans l'étreinte %(of_holder)s : aucune défense possible.") % {
        "of_holder": de(holder.name)
    }


def holds_ended(everyone: list[Combatant], lines: list[str]) -> list[Combatant]:
    """Clear the holds that no longer last (a holder or a held one out of the fight) and
    return the combatants changed, with a log line each."""
    by_pk = {c.pk: c for c in everyone}
    changed = []
    for combatant in everyone:
        if combatant.held_by_id is None or holder_of(combatant, by_pk) is not None:
            continue
        holder = by_pk.get(combatant.held_by_id)
        if holder is not None:
            lines.append(
                _("L'étreinte %(of_holder)s sur %(name)s prend fin.")
                % {"of_holder": de(holder.name), "name": combatant.name}
            )
        combatant.held_by, combatant.hold = None, {}
        changed.append(combatant)
    return changed
