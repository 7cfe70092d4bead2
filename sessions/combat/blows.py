"""How an exchange lands (§5, §8, §13): the fighters and the rolls go to the engine's one
exchange (`rules.exchange.resolve`), and its outcome is stored and told.

Called by `sessions.combat.attacks` inside its transaction; the writes go through
`sessions.combat.harm` (a sheet's service, or the NPC's row). Nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.utils.translation import gettext as _

from rules import combat as rules_combat
from rules import exchange as rules_exchange
from rules.check import RandomSource, system_rng
from rules.french import de
from sessions import consequences
from sessions.combat import masks
from sessions.combat.harm import Fighter, exchange_values, store_aftermath
from sessions.errors import rule_call
from sessions.models import Roll

DEFENCE_LABELS = {
    rules_exchange.BLOCK: "Blocage",
    rules_exchange.DODGE: "Esquive",
    rules_exchange.PARRY: "Parade",
    rules_exchange.NO_DEFENCE: "Aucune défense",
    rules_exchange.REACTIVE: "Confrontation réactive",
}


def throw_of(roll: Roll) -> rules_exchange.Throw:
    """The engine's view of a stored roll."""
    b = roll.breakdown
    return rules_exchange.Throw(
        total=roll.total,
        outcome=roll.outcome,
        succeeded=b["succeeded"],
        exploded=b.get("chain_sign", 0) > 0,
    )


def missed(attack_roll: Roll) -> bool:
    """Whether the attack missed (`rules.exchange.attack_missed`)."""
    return rules_exchange.attack_missed(throw_of(attack_roll))


def weapon_of(pending: dict[str, Any]) -> rules_exchange.Weapon:
    return rules_exchange.Weapon(
        damage=pending["damage"],
        gauge=pending["gauge"],
        nonlethal=pending["nonlethal"],
        harmless=rules_combat.grapple_harmless(pending.get("grapple") or ""),
    )


def settle(
    *,
    by,
    pending: dict[str, Any],
    striker: Fighter,
    defender: Fighter,
    answer: str,
    rolls: dict[str, Roll | None],
    reply_weapon: rules_exchange.Weapon | None = None,
    choices: tuple[str, str] = (consequences.TABLE, consequences.TABLE),
    can_answer: bool = True,
    rng: RandomSource | None,
) -> tuple[rules_exchange.Outcome, list[str]]:
    """Resolve the exchange once in the engine, store it on both sides, mark the rolls'
    criticals as applied (a critical is applied once, §8), and return it with its log lines."""
    attack_roll, defence_roll, reply_roll = rolls["attack"], rolls["defence"], rolls["reply"]
    exchange = rules_exchange.Exchange(
        attacker=exchange_values(striker),
        defender=exchange_values(defender, can_answer=can_answer),
        attack=throw_of(attack_roll),
        weapon=weapon_of(pending),
        answer=answer,
        defence=throw_of(defence_roll) if defence_roll is not None else None,
        reply=throw_of(reply_roll) if reply_roll is not None else None,
        reply_weapon=reply_weapon,
        attacker_choice=choices[0],
        defender_choice=choices[1],
    )
    needed = rule_call(lambda: rules_exchange.dice_needed(exchange))
    source = rng or system_rng()
    dice = tuple(source.randint(1, 10) for _n in range(needed))
    outcome = rule_call(lambda: rules_exchange.resolve(replace(exchange, aggravation_dice=dice)))
    lines = _told(outcome, striker, defender, attack_roll, defence_roll, reply_roll)
    sides = ((defender, outcome.defender, striker), (striker, outcome.attacker, defender))
    for fighter, after, other in sides:
        # the history's « Une attaque », never the NPC; an area spell's name on its blow
        spell = pending.get("spell", "") if other is striker else ""
        note = masks.harm_note(other.combatant, spell)
        lines += store_aftermath(fighter, after, roll=attack_roll, by=by, note=note)
    for roll in (attack_roll, defence_roll, reply_roll):
        if roll is not None and consequences.CRITICAL in consequences.consequences_available(roll):
            roll.consequences = [*roll.consequences, consequences.CRITICAL]
            roll.save(update_fields=["consequences"])
    if outcome.riposte:
        lines.append(_("Défense critique : %(name)s peut riposter.") % {"name": defender.name})
    return outcome, lines


# --- the log's lines (told here; the engine only counts) ----------------------------------------


def _told(outcome, striker, defender, attack_roll, defence_roll, reply_roll) -> list[str]:
    lines: list[str] = []
    if outcome.missed:
        return [_("%(name)s rate son attaque.") % {"name": striker.name}]
    if defence_roll is not None and outcome.answer in rules_exchange.PAID_DEFENCES:
        lines.append(
            _("Défense %(of_name)s (%(defence)s) : %(total)d contre %(attack)d, %(result)s.")
            % {
                "of_name": de(defender.name),
                "defence": DEFENCE_LABELS[outcome.answer],
                "total": defence_roll.total,
                "attack": attack_roll.total,
                "result": _("réussie") if outcome.defended else _("ratée"),
            }
        )
    if outcome.answer == rules_exchange.REACTIVE:
        lines.append(
            _("Confrontation réactive : %(a)d contre %(b)d.")
            % {"a": attack_roll.total, "b": reply_roll.total}
        )
    return lines


def result_of(
    pending: dict[str, Any],
    outcome: rules_exchange.Outcome,
    lines: list[str],
    *,
    defence_roll: Roll | None,
    reply_roll: Roll | None,
    riposte_for: int | None,
) -> dict[str, Any]:
    """The resolved attack as the fight keeps it (`Encounter.last_attack`)."""
    return {
        **{k: pending[k] for k in ("id", "key", "by", "attacker", "target", "roll", "total")},
        "visibility": pending["visibility"],
        "slot": pending.get("slot"),
        "defence": outcome.answer,
        "defence_roll": defence_roll.pk if defence_roll is not None else None,
        "reply_roll": reply_roll.pk if reply_roll is not None else None,
        "defended": outcome.defended,
        "damage": outcome.defender.damage,
        "reply_damage": outcome.attacker.damage,
        "aggravation": {
            "attacker": len(outcome.attacker.criticals),
            "defender": len(outcome.defender.criticals),
        },
        "riposte_for": riposte_for,
        "summary": " ".join(lines),
        "attack": dict(pending),  # what was asked: a retried attack answers it again
    }
