"""Combat helpers (§13): initiative and turn order with Combativité, defence choices,
confrontations, grapples, forced regeneration."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.check import CRITICAL_FAILURE, CRITICAL_SUCCESS, Breakdown, Check


def initiative_check(finesse: int) -> Check:
    """Reading (§5): initiative is a check with skill 0, complexity 0, characteristic = Finesse."""
    return Check(skill=0, complexity=0, characteristic=finesse)


@dataclass(frozen=True)
class Combatant:
    key: str
    initiative: int  # the initiative check's total
    combativeness: int = 1


def turn_order(combatants: Iterable[Combatant]) -> list[tuple[int, str]]:
    """Return (pass, key) in acting order: everyone once by initiative, then those with
    Combativité ≥ 2, then ≥ 3, … (§13). Ties keep the given order."""
    ordered = sorted(combatants, key=lambda c: -c.initiative)
    most = max((c.combativeness for c in ordered), default=0)
    return [(n, c.key) for n in range(1, most + 1) for c in ordered if c.combativeness >= n]


@dataclass(frozen=True)
class Attack:
    ranged: bool = False
    hidden: bool = False
    exploded: bool = False  # the attack roll exploded
    normal: bool = True


@dataclass(frozen=True)
class DefenceOption:
    key: str
    label: str
    skills: tuple[str, ...]
    characteristic: int
    available: bool
    note: str = ""


def defence_options(
    attack: Attack,
    *,
    strength: int,
    vigor: int,
    agility: int,
    perception: int,
    armour: int | None = None,
    shield: bool = False,
) -> list[DefenceOption]:
    """Return the three defences (§13), each paid with a Finesse point, with the characteristic
    it uses here (the best the character may choose) and whether it is possible."""
    block_values = (
        [vigor] + ([armour] if armour is not None else []) + ([strength] if shield else [])
    )
    dodge = min(agility, perception) if attack.hidden else agility
    parry = min(strength, agility) if attack.ranged else agility
    return [
        DefenceOption(
            "block",
            "Blocage",
            ("rigidite",),
            max(block_values),
            available=True,
            note="Encaisse la pleine puissance du coup : risque de blessures graves.",
        ),
        DefenceOption(
            "dodge",
            "Esquive",
            ("adresse",),
            dodge,
            available=True,
            note="Ne fait qu'atténuer une explosion." if attack.exploded else "",
        ),
        DefenceOption(
            "parry",
            "Parade",
            ("bagarre", "melee"),
            parry,
            available=not attack.exploded,
            note="Impossible contre une explosion." if attack.exploded else "",
        ),
    ]


def reactive_confrontation(
    winner_damage: int, loser_damage: int, loser_conscious: bool
) -> tuple[int, int]:
    """Return (damage dealt by the winner, by the loser): neither defends; the winner deals full
    damage, the loser half (rounded down) if still conscious (§13)."""
    return winner_damage, (loser_damage // 2 if loser_conscious else 0)


GRAPPLES = {
    "embrace": (
        "Étreinte",
        "La cible ne peut ni attaquer, ni se déplacer, ni se défendre ; "
        "elle se libère avec la Force ou l'Agilité.",
    ),
    "takedown": ("Mise au sol", "La cible est mise au sol ou déséquilibrée ; dégâts de Force."),
    "throw": (
        "Projection",
        "Déplacement forcé ; dégâts de base de Force, moindres plus la cible est projetée loin.",
    ),
}
GRAPPLE_CHARACTERISTICS = ("strength", "agility")  # Reading (§13): as the player describes


def forced_regeneration(regenerated: int) -> int:
    """Forcing a regeneration costs an action and adds as many serious wounds (scars) as it
    regenerated (§13); return the scars added."""
    return max(regenerated, 0)


def duel_aggravations(attacker: Breakdown) -> dict[str, int]:
    """Player against player (§5): only the attacker's criticals count; the defender is immune to
    his own. Return the Aggravation levels each side takes: the defender on the attacker's
    critical success, the attacker on his own critical failure."""
    return {
        "attacker": int(attacker.outcome == CRITICAL_FAILURE),
        "defender": int(attacker.outcome == CRITICAL_SUCCESS),
    }


def riposte_possible(defence: Breakdown) -> bool:
    """A successful defensive critical gives a possible riposte (§8)."""
    return defence.outcome == CRITICAL_SUCCESS
