"""Combat helpers (§13): initiative and turn order with Combativité, defence choices,
confrontations, grapples, forced regeneration."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.check import Check
from rules.errors import RuleError
from rules.gauges import Gauge, heal


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
    source: str = ""  # what gave `characteristic`: "vigor", "armour", "strength", "agility"…


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
        [("vigor", vigor)]
        + ([("armour", armour)] if armour is not None else [])
        + ([("strength", strength)] if shield else [])
    )
    block_source, block = max(block_values, key=lambda pair: pair[1])
    dodge = min(("agility", agility), ("perception", perception), key=lambda pair: pair[1])
    parry = min(("strength", strength), ("agility", agility), key=lambda pair: pair[1])
    dodge_source, dodge_value = dodge if attack.hidden else ("agility", agility)
    parry_source, parry_value = parry if attack.ranged else ("agility", agility)
    return [
        DefenceOption(
            "block",
            "Blocage",
            ("rigidite",),
            block,
            available=True,
            note="Encaisse la pleine puissance du coup : risque de blessures graves.",
            source=block_source,
        ),
        DefenceOption(
            "dodge",
            "Esquive",
            ("adresse",),
            dodge_value,
            available=True,
            note="Ne fait qu'atténuer une explosion." if attack.exploded else "",
            source=dodge_source,
        ),
        DefenceOption(
            "parry",
            "Parade",
            ("bagarre", "melee"),
            parry_value,
            available=not attack.exploded,
            note="Impossible contre une explosion." if attack.exploded else "",
            source=parry_source,
        ),
    ]


def defence_check(
    option: DefenceOption, attack_total: int, *, skill: int = 0, complexity: int = 0
) -> Check:
    """Reading (§13): a defence is a check with the option's skill and characteristic whose
    difficulty is the attack roll's total; it succeeds on a tie, as every check (§5)."""
    return Check(
        skill=skill,
        complexity=complexity,
        characteristic=option.characteristic,
        difficulty=attack_total,
    )


DEFENCE_COST = 1  # Finesse points (§1: "Finesse points pay secondary actions such as defences")


def can_pay_defence(finesse_points: int) -> bool:
    """A Blocage, an Esquive or a Parade is paid with one Finesse point (§1, §13)."""
    return finesse_points >= DEFENCE_COST


def finesse_after_defence(finesse_points: int) -> int:
    """The Finesse points left once a defence is paid (§1, §13)."""
    if not can_pay_defence(finesse_points):
        raise RuleError.single("defence", "Plus de points de Finesse.")
    return finesse_points - DEFENCE_COST


def best_defence_skill(option: DefenceOption, levels: Mapping[str, int]) -> tuple[str, int]:
    """The defence's skill the defender knows best (a Parade: Bagarre or Mêlée, §13), with its
    level; the option's first skill when it knows none."""
    key = max(option.skills, key=lambda k: levels.get(k, 0))
    return key, levels.get(key, 0)


def finesse_points_for_turn(finesse: int) -> int:
    """Finesse points are all regained at each new combat turn (§1): the Finesse score."""
    return max(finesse, 0)


def damage_bonus(column_score: int, *, nonlethal: bool) -> int:
    """Reading (§1, §8): an attack's damage bonus is the attacker's column score for the gauge
    it hits (Corps: Vitalité, Âme: Énergie, Esprit: Confiance); non-lethal attacks get none."""
    return 0 if nonlethal else column_score


BLOCK, DODGE, PARRY, NO_DEFENCE = "block", "dodge", "parry", "none"


@dataclass(frozen=True)
class Blow:
    """What a blow does once defended: damage to the gauge and how many of them are scars."""

    damage: int
    scars: int
    avoided: bool  # the defence stopped it (no damage at all)
    halved: bool = False  # an Esquive that only mitigated an explosion


def blow(*, damage: int, defence: str, defended: bool, exploded: bool, nonlethal: bool) -> Blow:
    """Resolve one blow (§8, §13) from its `damage` (base + bonus, after the target's annulation
    and résistance: `rules.gauges.annul`, `rules.gauges.resist`) and the defence's outcome.

    Reading: a successful Parade or Blocage stops the blow; a successful Esquive too, except
    against an explosion, which it only mitigates (§13): half the damage, rounded down. A failed
    Blocage takes the full blow: all its damage are serious wounds (scars), except from a
    non-lethal attack, which gives no scars (§8). Other hits give no scars."""
    halved = defended and defence == DODGE and exploded
    if defended and not halved:
        return Blow(0, 0, avoided=True)
    dealt = max(damage, 0) // 2 if halved else max(damage, 0)
    scars = dealt if defence == BLOCK and not defended and not nonlethal else 0
    return Blow(dealt, scars, avoided=False, halved=halved)


def reactive_confrontation(
    winner_damage: int, loser_damage: int, loser_conscious: bool
) -> tuple[int, int]:
    """Return (damage dealt by the winner, by the loser): neither defends; the winner deals full
    damage, the loser half (rounded down) if still conscious (§13)."""
    return winner_damage, (loser_damage // 2 if loser_conscious else 0)


def attacker_wins_confrontation(attack_total: int, reply_total: int) -> bool:
    """Reading (§13): in a reactive confrontation the higher total wins, the attacker on a tie."""
    return attack_total >= reply_total


def attack_missed(*, succeeded: bool, critical_failure: bool) -> bool:
    """Reading (§5, §13): an attack whose check fails, or fails critically, misses: no defence is
    asked and no damage dealt."""
    return not succeeded or critical_failure


def sheet_annulation() -> int:
    """Reading (§8): a character's sheet has no annulation (an NPC's is its stat block's)."""
    return 0


def sheet_resistance(column_score: int) -> int:
    """Reading (§1, §8): a character resists with the column score of the gauge hit (Corps
    against Vitalité, Âme against Énergie, Esprit against Confiance); an NPC with its stat
    block's résistance."""
    return max(column_score, 0)


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


def turn_regeneration(gauge: Gauge, points: int) -> Gauge:
    """A regeneration at the end of each turn (§13). Reading: it restores its points as care
    does (`rules.gauges.heal`: never past the maximum) and leaves no serious wound — only
    forcing it early does (`forced_regeneration`); the app's turn is the round."""
    return heal(gauge, points)


def forced_regeneration(regenerated: int) -> int:
    """Forcing a regeneration costs an action and adds as many serious wounds (scars) as it
    regenerated (§13); return the scars added."""
    return max(regenerated, 0)


# --- grapples (§13) ------------------------------------------------------------------------------

EMBRACE, TAKEDOWN, THROW = "embrace", "takedown", "throw"
GRAPPLE_SKILL = "bagarre"  # the bare-hands skill (§2)
HEAVY_TARGET_COMPLEXITY = 2
THROW_DISTANCE_MAX = 20  # metres: farther gives no damage anyway at any Force the game reaches


def grapple_expertises(grapple: str) -> tuple[str, ...]:
    """Reading (§2, §13): a grapple is rolled with Bagarre; its expertise die comes from the
    expertise « Prises », or « Projection » for a Projection."""
    return ("Prises", "Projection") if grapple == THROW else ("Prises",)


def grapple_complexity(complexity: int, *, heavy: bool) -> int:
    """Reading (§13): "hard against big or heavy targets" is two more complexity (two pool
    steps, §5) on top of the Conteur's, when the attacker says the target is big or heavy."""
    return complexity + (HEAVY_TARGET_COMPLEXITY if heavy else 0)


def grapple_damage(grapple: str, *, strength: int, distance: int = 0) -> int:
    """Reading (§13): a grapple's base damage (the normal damage path then adds the Corps bonus,
    annulation and résistance, on Vitalité). Étreinte: none, it only holds. Mise au sol: the
    attacker's Force. Projection: the attacker's Force less one per metre thrown beyond the
    first, never below 0."""
    if grapple == EMBRACE:
        return 0
    if grapple == THROW:
        return max(strength - max(distance - 1, 0), 0)
    return max(strength, 0)


def grapple_harmless(grapple: str) -> bool:
    """Reading (§13): an Étreinte deals no damage at all (no base, no column bonus)."""
    return grapple == EMBRACE


def grapple_lands(*, defended: bool, attacker_won: bool = True) -> bool:
    """Reading (§13): a grapple takes effect when the target does not stop it: no defence, a
    failed one, or a reactive confrontation the attacker wins. A successful defence, even an
    Esquive that only halves an exploded blow's damage, keeps the target free."""
    return not defended and attacker_won


def grapple_state(grapple: str) -> dict[str, bool]:
    """Reading (§13): what a landed grapple leaves on the target. Étreinte: held by the attacker
    (it can neither attack nor defend). Mise au sol: « à terre » (shown to all; the app applies
    no penalty, the Conteur rules on it, and the combatant gets up on its own action). Projection:
    nothing lasting (the throw is told in the log), and it frees the target from any hold."""
    return {
        "held": grapple == EMBRACE,
        "prone": grapple == TAKEDOWN,
        "freed": grapple == THROW,
    }


def held_can_act(action: str) -> bool:
    """Reading (§13): a held combatant "can neither attack, move nor defend": of its actions the
    app offers only freeing itself (`escape_check`); it may still end or delay its turn."""
    return action in ("escape", "end", "delay")


def escape_check(characteristic: int, hold_total: int, *, skill: int = 0) -> Check:
    """Reading (§13): freeing oneself from an Étreinte is a check with Force or Agilité (the held
    one's choice) and Bagarre, against the grapple's total; a tie frees (§5). It takes the
    action, freed or not."""
    return Check(skill=skill, complexity=0, characteristic=characteristic, difficulty=hold_total)


def hold_lasts(*, holder_fighting: bool, held_fighting: bool) -> bool:
    """Reading (§13): an Étreinte lasts while both are still in the fight; it ends when the
    holder is defeated, unconscious, dead or gone (or lets go), or the held one is out."""
    return holder_fighting and held_fighting
