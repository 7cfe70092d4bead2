"""What a combatant brings to its rolls (§13 Product): a character's sheet dice and Agonie, an
NPC's own Agonie — `rules.alterations` from the rows it was loaded from."""

from __future__ import annotations

from characters.models import Character
from rules.alterations import Alterations, npc_alterations, sheet_alterations
from sessions.checks import condition_of
from sessions.models import Combatant


def roller_alterations(combatant: Combatant, character: Character | None) -> Alterations:
    """The boon and bane dice and Agonie every roll of this combatant carries."""
    if character is not None:
        return sheet_alterations(condition_of(character))
    return npc_alterations(combatant.agony)
