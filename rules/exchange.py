"""One exchange of a fight (§5, §8, §13), from frozen inputs to a frozen outcome.

`resolve` takes both fighters' values, the attack's blow, the target's answer and every roll
already made (the dice come in: this module draws nothing) and returns what each side took:
damage per gauge and its scars, the criticals suffered and how they were paid, the states that
follow (dead, unconscious, knocked out for N rounds, discouraged) and whether a riposte is open.
The app loads the fighters, calls it once and stores the outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from rules import combat as rules_combat
from rules import gauges as rules_gauges
from rules import reference as ref
from rules import states as rules_states
from rules.check import CRITICAL_FAILURE, CRITICAL_SUCCESS
from rules.errors import RuleError
from rules.gauges import Gauge

BLOCK, DODGE, PARRY, NO_DEFENCE = (
    rules_combat.BLOCK,
    rules_combat.DODGE,
    rules_combat.PARRY,
    rules_combat.NO_DEFENCE,
)
REACTIVE = "reactive"
PAID_DEFENCES = (BLOCK, DODGE, PARRY)
ANSWERS = (*PAID_DEFENCES, NO_DEFENCE, REACTIVE)
RESILIENCE, TABLE = "resilience", "table"


# --- inputs ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    """What the exchange needs of one combatant (a character's sheet or an NPC's stat block).

    `bonus`: the column score each gauge's damage bonus comes from (Corps → Vitalité, …);
    `resistance`: per gauge. `player`: a player character (player against player, §13).
    `can_answer`: neither unconscious, held nor dead (Reading §13, who may defend)."""

    gauges: Mapping[str, Gauge]
    bonus: Mapping[str, int]
    resistance: Mapping[str, int]
    annulation: int = 0
    fragility: int = 0
    exhaustion: int = 0
    aggravation: int = 0
    agony: int = 0
    agony_locked: bool = False
    resilience_points: int = 0
    discouraged: bool = False
    player: bool = False
    can_answer: bool = True


@dataclass(frozen=True)
class Throw:
    """A roll already made: its total, its outcome (§5) and whether its kept die exploded."""

    total: int
    outcome: str
    succeeded: bool
    exploded: bool = False


@dataclass(frozen=True)
class Weapon:
    """What a blow carries: base damage, the gauge hit, non-lethal (§8), an Étreinte (none)."""

    damage: int
    gauge: str = "vitality"
    nonlethal: bool = False
    harmless: bool = False


@dataclass(frozen=True)
class Exchange:
    """One attack and its answer. `aggravation_dice`: the d10s of the Aggravation table, used
    in order by the criticals suffered and paid on the table (the defender's first)."""

    attacker: Fighter
    defender: Fighter
    attack: Throw
    weapon: Weapon
    answer: str = NO_DEFENCE
    defence: Throw | None = None
    reply: Throw | None = None
    reply_weapon: Weapon | None = None
    attacker_choice: str = TABLE
    defender_choice: str = TABLE
    aggravation_dice: tuple[int, ...] = ()


# --- outputs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """What one blow did to the side that took it."""

    gauge: str
    damage: int = 0
    scars: int = 0
    avoided: bool = False
    halved: bool = False
    half: bool = False  # a reactive confrontation's loser's half blow
    resilience_lost: int = 0  # a non-lethal blow on someone in Agonie (§8)


@dataclass(frozen=True)
class Critical:
    """A critical suffered (§8): the Aggravation level reached, and Résilience spent or the
    table's effect for its d10."""

    aggravation: int
    offensive: bool
    avoided: bool = False
    cost: int = 0
    die: int | None = None
    effect: ref.AggravationEffect | None = None
    row: int = 0  # the table's row the die was read on (the Fragilité before the effect)


@dataclass(frozen=True)
class Aftermath:
    """One side after the exchange: its hit, its criticals, its tracks and its states."""

    hit: Hit | None
    criticals: tuple[Critical, ...]
    gauges: Mapping[str, Gauge]
    fragility: int
    aggravation: int
    agony: int
    agony_locked: bool
    resilience_points: int
    discouraged: bool
    dead: bool
    unconscious: bool
    knocked_out: int = 0  # rounds missed after an offensive critical at 0 Vitalité

    @property
    def damage(self) -> int:
        return self.hit.damage if self.hit is not None else 0


@dataclass(frozen=True)
class Outcome:
    attacker: Aftermath
    defender: Aftermath
    answer: str  # the answer that counted ("none" for a target that could not answer)
    missed: bool
    defended: bool
    attacker_won: bool | None  # a reactive confrontation's winner; None otherwise
    riposte: bool


# --- the exchange -------------------------------------------------------------------------------


def answer_counted(defender: Fighter, answer: str) -> str:
    """Reading (§13, who may defend): an unconscious, held or dead target gets no defence and no
    reply; the blow resolves as "no defence"."""
    if answer not in ANSWERS:
        raise RuleError.single("defence", "Défense inconnue.")
    return answer if defender.can_answer else NO_DEFENCE


def player_against_player(exchange: Exchange) -> bool:
    return exchange.attacker.player and exchange.defender.player


def criticals_owed(exchange: Exchange) -> dict[str, tuple[bool, ...]]:
    """The criticals each side suffers (§5, §8), as a tuple of "offensive?" flags: the target of
    a critical success, the roller of a critical failure. Player against player (§13): only the
    attacker's roll counts, the defender's own criticals have no effect.

    Reading: a critical is offensive when it is rolled on an offensive roll — an attack or a
    reply (a reactive confrontation) — whoever suffers it: the attacker's own fumble is offensive
    (so at 0 Vitalité it knocks its roller out), a defence's fumble is not, and a defence's
    critical success opens a riposte instead (§8). A missed attack's target suffers nothing."""
    attack, defence, reply = exchange.attack, exchange.defence, exchange.reply
    answer = answer_counted(exchange.defender, exchange.answer)
    if answer not in PAID_DEFENCES:
        defence = None
    if answer != REACTIVE:
        reply = None
    attacker: list[bool] = [True] if attack.outcome == CRITICAL_FAILURE else []
    defender: list[bool] = [True] if attack.outcome == CRITICAL_SUCCESS else []
    if attack_missed(attack):
        return {"attacker": tuple(attacker), "defender": ()}
    if not player_against_player(exchange):
        for roll, offensive in ((defence, False), (reply, True)):
            if roll is not None and roll.outcome == CRITICAL_FAILURE:
                defender.append(offensive)
        if reply is not None and reply.outcome == CRITICAL_SUCCESS:
            attacker.append(True)
    return {"attacker": tuple(attacker), "defender": tuple(defender)}


def dice_needed(exchange: Exchange) -> int:
    """How many Aggravation d10s the exchange will use (criticals paid on the table)."""
    owed = criticals_owed(exchange)
    return sum(
        len(owed[side]) for side in ("attacker", "defender") if _choice(exchange, side) == TABLE
    )


def attack_missed(attack: Throw) -> bool:
    return rules_combat.attack_missed(
        succeeded=attack.succeeded, critical_failure=attack.outcome == CRITICAL_FAILURE
    )


def resolve(exchange: Exchange) -> Outcome:
    """Resolve one exchange (§5, §8, §13); see the module's docstring.

    Reading (order within an exchange): the blows land first, then each critical suffered
    (the defender's first, each on the Fragilité row it has then), then the states are read —
    so a critical's own Agonie counts in the knock-out's length, and a Fragilité or Épuisement
    reaching 6 kills at once (Reading §8)."""
    answer = answer_counted(exchange.defender, exchange.answer)
    if answer in PAID_DEFENCES and exchange.defence is None:
        raise RuleError.single("defence", "Une défense se joue avec un jet.")
    if answer == REACTIVE and (exchange.reply is None or exchange.reply_weapon is None):
        raise RuleError.single("reply", "Décrivez l'attaque donnée en réponse.")
    exchange = replace(exchange, answer=answer)
    missed = attack_missed(exchange.attack)
    defended = answer in PAID_DEFENCES and not missed and exchange.defence.succeeded
    attacker_won = None
    if missed:
        taken_by_defender, taken_by_attacker = None, None
    elif answer == REACTIVE:
        attacker_won = rules_combat.attacker_wins_confrontation(
            exchange.attack.total, exchange.reply.total
        )
        taken_by_defender, taken_by_attacker = _confrontation(exchange, attacker_won)
    else:
        taken_by_defender = _blow(exchange, defended=defended)
        taken_by_attacker = None
    owed = criticals_owed(exchange)
    dice = list(exchange.aggravation_dice)
    defender = _aftermath(exchange, "defender", taken_by_defender, owed["defender"], dice)
    attacker = _aftermath(exchange, "attacker", taken_by_attacker, owed["attacker"], dice)
    return Outcome(
        attacker=attacker,
        defender=defender,
        answer=answer,
        missed=missed,
        defended=defended,
        attacker_won=attacker_won,
        riposte=riposte_open(exchange, defended=defended, defender=defender),
    )


def riposte_open(exchange: Exchange, *, defended: bool, defender: Aftermath) -> bool:
    """Reading (§13, who may defend): a riposte follows only a defence that **succeeded** with a
    critical (§8), never between two players, and only for a defender still standing."""
    defence = exchange.defence
    return (
        defended
        and defence is not None
        and defence.outcome == CRITICAL_SUCCESS
        and not player_against_player(exchange)
        and not (defender.dead or defender.unconscious)
    )


# --- the blows ----------------------------------------------------------------------------------


def blow_damage(striker: Fighter, target: Fighter, weapon: Weapon, total: int) -> int:
    """Base + the striker's column bonus (none if non-lethal), then the target's annulation and
    résistance (§1, §8)."""
    bonus = rules_combat.damage_bonus(
        striker.bonus.get(weapon.gauge, 0), nonlethal=weapon.nonlethal
    )
    dealt = rules_gauges.annul(weapon.damage + bonus, total, target.annulation)
    return rules_gauges.resist(dealt, target.resistance.get(weapon.gauge, 0))


def _blow(exchange: Exchange, *, defended: bool) -> Hit:
    """The attack's blow on the target, defended or not (§8, §13)."""
    weapon, target = exchange.weapon, exchange.defender
    if weapon.harmless:
        return Hit(weapon.gauge, avoided=defended)
    if weapon.nonlethal and target.agony and not defended:
        critical = exchange.attack.outcome == CRITICAL_SUCCESS
        left = rules_states.nonlethal_against_agony(target.resilience_points, critical)
        return Hit(weapon.gauge, resilience_lost=target.resilience_points - left)
    raw = blow_damage(exchange.attacker, target, weapon, exchange.attack.total)
    blow = rules_combat.blow(
        damage=raw,
        defence=exchange.answer,
        defended=defended,
        exploded=exchange.attack.exploded,
        nonlethal=weapon.nonlethal,
    )
    return Hit(
        weapon.gauge, damage=blow.damage, scars=blow.scars, avoided=blow.avoided, halved=blow.halved
    )


def _confrontation(exchange: Exchange, attacker_won: bool) -> tuple[Hit, Hit]:
    """Reading (§13, confrontation): neither defends; the winner deals its full blow (wounds,
    no defence); the loser, judged on the hit it took on the gauge it was hit on, deals half
    (rounded down) unless that hit left it dead or unconscious. Returns (hit taken by the
    defender, hit taken by the attacker)."""
    attacker, defender = exchange.attacker, exchange.defender
    reply_weapon = answered_in_kind(exchange.weapon, exchange.reply_weapon)
    sides = [
        (attacker, defender, exchange.weapon, exchange.attack),
        (defender, attacker, reply_weapon, exchange.reply),
    ]
    winner, loser = sides if attacker_won else sides[::-1]
    full = _plain_blow(*winner)
    loser_fighter = loser[0]
    after = rules_gauges.take_damage(loser_fighter.gauges[full.gauge], full.damage, full.scars)
    gauges = {**loser_fighter.gauges, full.gauge: after}
    down = rules_states.outlook(
        gauges, loser_fighter.fragility, loser_fighter.exhaustion, hits={full.gauge: full.damage}
    )
    half = Hit(loser[2].gauge, half=True)
    if not (down.dead or down.unconscious) and not loser[2].harmless:
        raw = blow_damage(loser[0], loser[1], loser[2], loser[3].total)
        dealt = rules_combat.reactive_confrontation(full.damage, raw, True)[1]
        half = Hit(loser[2].gauge, damage=dealt, half=True)
    return (full, half) if attacker_won else (half, full)


def answered_in_kind(weapon: Weapon, reply: Weapon) -> Weapon:
    """Reading (§8, §13): a reactive confrontation is fought in the attack's manner — a
    non-lethal attack is answered non-lethally, a lethal one lethally."""
    return replace(reply, nonlethal=weapon.nonlethal)


def _plain_blow(striker: Fighter, target: Fighter, weapon: Weapon, throw: Throw) -> Hit:
    """A blow nobody defends: wounds only (Reading §13, scars from a blow)."""
    if weapon.harmless:
        return Hit(weapon.gauge)
    raw = blow_damage(striker, target, weapon, throw.total)
    blow = rules_combat.blow(
        damage=raw, defence=NO_DEFENCE, defended=False, exploded=False, nonlethal=weapon.nonlethal
    )
    return Hit(weapon.gauge, damage=blow.damage, scars=blow.scars)


# --- what each side is left with ------------------------------------------------------------------


def _choice(exchange: Exchange, side: str) -> str:
    choice = exchange.attacker_choice if side == "attacker" else exchange.defender_choice
    if choice not in (RESILIENCE, TABLE):
        raise RuleError.single("critical", "Choisissez Résilience ou la table d'Aggravation.")
    return choice


def _aftermath(
    exchange: Exchange, side: str, hit: Hit | None, owed: tuple[bool, ...], dice: list[int]
) -> Aftermath:
    """Damage first, then each critical suffered, then the states (§8)."""
    fighter: Fighter = getattr(exchange, side)
    gauges = dict(fighter.gauges)
    agony, resilience = fighter.agony, fighter.resilience_points
    if hit is not None and hit.damage:
        before = gauges[hit.gauge]
        gauges[hit.gauge] = rules_gauges.take_damage(before, hit.damage, hit.scars)
        if hit.gauge == "vitality":
            agony = rules_states.agony_after_hit(agony, before, gauges[hit.gauge])
    if hit is not None:
        resilience -= hit.resilience_lost
    condition = rules_states.Condition(
        fragility=fighter.fragility,
        exhaustion=fighter.exhaustion,
        aggravation=fighter.aggravation,
        agony=agony,
        agony_locked=fighter.agony_locked,
    )
    criticals = []
    for offensive in owed:
        condition, resilience, critical = _suffer(
            condition, resilience, offensive, _choice(exchange, side), dice
        )
        criticals.append(critical)
    hits = {hit.gauge: hit.damage} if hit is not None else {}
    seen = rules_states.outlook(gauges, condition.fragility, condition.exhaustion, hits=hits)
    dead = seen.dead or any(c.effect is not None and c.effect.death for c in criticals)
    knocked = knocked_out_rounds(criticals, gauges["vitality"], condition)
    return Aftermath(
        hit=hit,
        criticals=tuple(criticals),
        gauges=gauges,
        fragility=condition.fragility,
        aggravation=condition.aggravation,
        agony=condition.agony,
        agony_locked=condition.agony_locked,
        resilience_points=resilience,
        discouraged=fighter.discouraged or seen.discouraged,
        dead=dead,
        unconscious=not dead and (seen.unconscious or knocked > 0),
        knocked_out=0 if dead else knocked,
    )


def _suffer(
    condition: rules_states.Condition,
    resilience: int,
    offensive: bool,
    choice: str,
    dice: list[int],
) -> tuple[rules_states.Condition, int, Critical]:
    """One critical suffered (§8): +1 Aggravation, then 1 Résilience point per level to avoid the
    effect, or the table's effect for the next d10."""
    condition = rules_states.suffer_critical(condition)
    level = condition.aggravation
    if choice == RESILIENCE:
        left = rules_states.pay_resilience(resilience, level)
        return condition, left, Critical(level, offensive, avoided=True, cost=resilience - left)
    if not dice:
        raise RuleError.single("die", "Il manque le d10 de la table d'Aggravation.")
    die = dice.pop(0)
    effect = rules_states.aggravation_effect(condition.fragility, die)
    after = rules_states.apply_aggravation(condition, effect)
    row = rules_states.aggravation_row(condition.fragility)
    return after, resilience, Critical(level, offensive, die=die, effect=effect, row=row)


def npc_resilience_points(resilience_score: int) -> int:
    """Reading (§1, §8): an NPC's stat block names no Résilience pool; it holds as many points as
    its Résilience score (the characteristics its block lacks count 2, as on a new sheet), so
    that it may choose Résilience against a critical as a character does."""
    return max(resilience_score, 0)


def knocked_out_rounds(
    criticals: list[Critical] | tuple[Critical, ...], vitality: Gauge, condition
) -> int:
    """Reading (§8, criticals in a fight): knock-out at 0 Vitalité follows only an **offensive**
    critical whose effect was suffered (no Résilience spent); the combatant misses its next
    max(Aggravation, Agonie) rounds (at least one)."""
    suffered = any(c.offensive and not c.avoided for c in criticals)
    if not suffered or vitality.current > 0:
        return 0
    return max(rules_states.unconscious_turns(condition.aggravation, condition.agony), 1)
