"""What a roller brings to every roll (§5, §7, §8, §13 Product): boon and bane dice and the
Agonie that raises the target — from a character's sheet or an NPC's own tracks.

Every combat roll (initiative, attack, defence, reply, Péril, spell) is built like a table roll
from the roller's sheet; an NPC's rolls use its own Agonie. Callers build the bare check (skill,
characteristic, difficulty…) and pass it through `altered`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.check import Check
from rules.states import Condition, bane_dice, boon_dice, effective_agony


@dataclass(frozen=True)
class Alterations:
    """Dice and Agonie a roller adds to each of its rolls."""

    boon: int = 0
    bane: int = 0
    agony: int = 0


def sheet_alterations(
    condition: Condition, *, injury_bane: int = 0, impact_points: int = 0
) -> Alterations:
    """A character's: its special state, Épuisement, Découragement, Descente, declared injuries
    and Impact spent; its Agonie unless a special state ignores it (§5, §7, §8)."""
    return Alterations(
        boon=boon_dice(condition, impact_points=impact_points),
        bane=bane_dice(condition, injury_bane=injury_bane),
        agony=effective_agony(condition.agony, condition.state),
    )


def npc_alterations(agony: int) -> Alterations:
    """Reading (§8 "Agonie in a fight", §13 Product): an NPC has no special state nor
    Épuisement; its own Agonie counts on each of its rolls."""
    return Alterations(agony=max(agony, 0))


def altered(check: Check, alterations: Alterations) -> Check:
    """The check with the roller's dice and Agonie added to its own."""
    return replace(
        check,
        boon=check.boon + alterations.boon,
        bane=check.bane + alterations.bane,
        agony=check.agony + alterations.agony,
    )
