"""How a defended blow lands (§5, §8, §13): damage with the attacker's bonus, the target's
annulation and résistance, a reactive confrontation, the criticals and who they strike.

Called by `sessions.combat.attacks.attack_defend` inside its transaction; the writes go through
`sessions.combat.harm` (a sheet's service, or the NPC's row).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import combat as rules_combat
from rules import gauges as rules_gauges
from rules import reference
from rules import states as rules_states
from rules.check import CRITICAL_FAILURE, CRITICAL_SUCCESS, Breakdown
from rules.french import de
from sessions import consequences
from sessions.combat.harm import (
    Fighter,
    deal_damage,
    fighter_of,
    knocked_out,
    nonlethal_on_agony,
    suffer_critical,
)
from sessions.combat.strikes import DefenceRequest
from sessions.models import CombatantStatus, Roll

DEFENCE_LABELS = {
    rules_combat.BLOCK: "Blocage",
    rules_combat.DODGE: "Esquive",
    rules_combat.PARRY: "Parade",
    rules_combat.NO_DEFENCE: "Aucune défense",
    "reactive": "Confrontation réactive",
}


# --- reading a roll back ---------------------------------------------------------------------


def breakdown_of(roll: Roll) -> Breakdown:
    """The engine's Breakdown of a stored roll (for the rules that read one)."""
    b = roll.breakdown
    return Breakdown(
        advantage=b["advantage"],
        keep_highest=b["mode"] == "highest",
        dice=tuple(b["dice"]),
        kept_index=b["kept_index"],
        kept=b["kept"],
        chain_sign=b["chain_sign"],
        chains=tuple(tuple(c) for c in b["chains"]),
        die_result=b["die_result"],
        expertise_die=b["expertise_die"],
        modifiers=tuple((m["source"], m["value"]) for m in b["modifiers"]),
        total=b["total"],
        difficulty=b["difficulty"],
        agony=b["agony"],
        target=b["target"],
        margin=b["margin"],
        outcome=b["outcome"],
        succeeded=b["succeeded"],
        narrow_success=b["narrow_success"],
        critical_failure_cancelled=b["critical_failure_cancelled"],
        zone=b["zone"],
    )


def _raw_damage(striker: Fighter, defender: Fighter, *, base, gauge, total, nonlethal) -> int:
    """Base + the attacker's column bonus (none if non-lethal), then the target's annulation
    and résistance (§1, §8)."""
    bonus = rules_combat.damage_bonus(
        striker.value(reference.GAUGE_COLUMNS[gauge]), nonlethal=nonlethal
    )
    dealt = rules_gauges.annul(base + bonus, total, defender.annulation())
    return rules_gauges.resist(dealt, defender.resistance(gauge))


def _hit(
    striker: Fighter,
    defender: Fighter,
    *,
    base: int,
    gauge: str,
    total: int,
    nonlethal: bool,
    critical: bool,
    defence: str,
    defended: bool,
    exploded: bool,
    by,
    lines: list[str],
    harmless: bool = False,
) -> int:
    """One blow on `defender`; returns the damage dealt (none from an Étreinte, §13)."""
    if harmless:
        if defended:
            lines.append(_("%(name)s évite le coup.") % {"name": defender.name})
        return 0
    if nonlethal and defender.agony and not defended:
        lines.append(nonlethal_on_agony(defender, critical=critical, by=by))
        return 0
    raw = _raw_damage(striker, defender, base=base, gauge=gauge, total=total, nonlethal=nonlethal)
    blow = rules_combat.blow(
        damage=raw, defence=defence, defended=defended, exploded=exploded, nonlethal=nonlethal
    )
    if blow.avoided:
        lines.append(_("%(name)s évite le coup.") % {"name": defender.name})
        return 0
    harm = deal_damage(defender, gauge=gauge, amount=blow.damage, scars=blow.scars, by=by)
    text = ngettext("%(name)s subit %(n)d dégât", "%(name)s subit %(n)d dégâts", blow.damage) % {
        "name": defender.name,
        "n": blow.damage,
    }
    if blow.scars:
        text += ngettext(" dont %(n)d grave", " dont %(n)d graves", blow.scars) % {"n": blow.scars}
    if blow.halved:
        text += _(" (esquive : moitié)")
    lines.append(text + ". " + " ".join(harm.lines))
    return blow.damage


def resolve(
    *,
    campaign,
    by,
    pending,
    striker: Fighter,
    defender: Fighter,
    attack_roll: Roll,
    defence_roll: Roll | None,
    reply_roll: Roll | None,
    request: DefenceRequest,
    lines: list[str],
    rng,
) -> dict[str, Any]:
    """The blow(s), the criticals and what follows; returns the resolved attack."""
    attacker, target = striker.combatant, defender.combatant
    attack = breakdown_of(attack_roll)
    defended = defence_roll is not None and defence_roll.breakdown["succeeded"]
    label = DEFENCE_LABELS[request.defence]
    if defence_roll is not None:
        lines.append(
            _("Défense %(of_name)s (%(defence)s) : %(total)d contre %(attack)d, %(result)s.")
            % {
                "of_name": de(target.name),
                "defence": label,
                "total": defence_roll.total,
                "attack": attack.total,
                "result": _("réussie") if defended else _("ratée"),
            }
        )
    gauge, nonlethal = pending["gauge"], pending["nonlethal"]
    harmless = rules_combat.grapple_harmless(pending.get("grapple") or "")
    hit = {"nonlethal": nonlethal, "by": by, "lines": lines, "harmless": harmless}
    dealt, replied = 0, 0
    if reply_roll is None:
        dealt = _hit(
            striker, defender, base=pending["damage"], gauge=gauge, total=attack.total,
            critical=attack.outcome == CRITICAL_SUCCESS, defence=request.defence,
            defended=defended, exploded=pending["exploded"], **hit,
        )  # fmt: skip
    else:
        dealt, replied = _confrontation(
            striker, defender, attack, reply_roll, pending, request, hit
        )
    criticals = _criticals(
        campaign, by, striker, defender, attack_roll, defence_roll, reply_roll, request, lines, rng
    )
    riposte = None
    pvp = attacker.character_id is not None and target.character_id is not None
    if (
        defence_roll is not None
        and not pvp
        and rules_combat.riposte_possible(breakdown_of(defence_roll))
    ):
        riposte = target.pk
        lines.append(_("Défense critique : %(name)s peut riposter.") % {"name": target.name})
    for fighter, count, hits in (
        (defender, criticals["defender"], {gauge: dealt}),
        (striker, criticals["attacker"], {gauge: replied}),
    ):
        if (line := knocked_out(fighter, criticals=count, hits=hits)) is not None:
            lines.append(line)
    return {
        **{k: pending[k] for k in ("id", "key", "by", "attacker", "target", "roll", "total")},
        "visibility": pending["visibility"],
        "slot": pending.get("slot"),
        "defence": request.defence,
        "defence_roll": defence_roll.pk if defence_roll is not None else None,
        "reply_roll": reply_roll.pk if reply_roll is not None else None,
        "defended": defended,
        "damage": dealt,
        "reply_damage": replied,
        "aggravation": criticals,
        "riposte_for": riposte,
        "summary": " ".join(lines),
        "attack": dict(pending),  # what was asked: a retried attack answers it again
    }


def _confrontation(striker, defender, attack, reply_roll, pending, request, hit):
    """Reactive confrontation (§13): neither defends; the winner
    (`rules.combat.attacker_wins_confrontation`) deals full damage, the loser half if still
    conscious. Returns the damage (dealt to the target, dealt back to the attacker)."""
    reply = request.reply
    answer = breakdown_of(reply_roll)
    attacker_wins = rules_combat.attacker_wins_confrontation(attack.total, answer.total)
    hit["lines"].append(
        _("Confrontation réactive : %(a)d contre %(b)d.") % {"a": attack.total, "b": answer.total}
    )
    blows = [
        (striker, defender, pending["damage"], pending["gauge"], attack),
        (defender, striker, reply.damage, reply.gauge, answer),
    ]
    winner, loser = blows if attacker_wins else blows[::-1]
    full = _plain_hit(*winner, hit=hit, harmless=attacker_wins and hit["harmless"])
    after = rules_states.outlook(loser[0].gauges())
    conscious = loser[0].combatant.status == CombatantStatus.ACTIVE and not (
        after.dead or after.unconscious
    )
    raw = 0 if (hit["harmless"] and not attacker_wins) else _raw_damage(
        loser[0], loser[1], base=loser[2], gauge=loser[3], total=loser[4].total,
        nonlethal=hit["nonlethal"],
    )  # fmt: skip
    half = rules_combat.reactive_confrontation(full, raw, conscious)[1]
    if half:
        harm = deal_damage(loser[1], gauge=loser[3], amount=half, scars=0, by=hit["by"])
        hit["lines"].append(
            ngettext(
                "%(name)s subit %(n)d dégât (moitié).", "%(name)s subit %(n)d dégâts (moitié).", half
            )
            % {"name": loser[1].name, "n": half}
            + " " + " ".join(harm.lines)
        )  # fmt: skip
    return (full, half) if attacker_wins else (half, full)


def _plain_hit(striker, defender, base, gauge, roll: Breakdown, *, hit, harmless=False) -> int:
    """A blow nobody defends (a reactive confrontation's winner)."""
    return _hit(
        striker, defender, base=base, gauge=gauge, total=roll.total,
        critical=roll.outcome == CRITICAL_SUCCESS, defence=rules_combat.NO_DEFENCE,
        defended=False, exploded=False, nonlethal=hit["nonlethal"], by=hit["by"],
        lines=hit["lines"], harmless=harmless,
    )  # fmt: skip


def _criticals(
    campaign, by, striker, defender, attack_roll, defence_roll, reply_roll, request, lines, rng
) -> dict[str, int]:
    """Who suffers a critical (§5, §8): the target of an offensive critical success and whoever
    fails critically; between two player characters only the attacker's count (§5)."""
    attack = breakdown_of(attack_roll)
    pvp = striker.combatant.character_id and defender.combatant.character_id
    suffered = {"attacker": 0, "defender": 0}
    if pvp:
        suffered = rules_combat.duel_aggravations(attack)
    else:
        suffered["defender"] += attack.outcome == CRITICAL_SUCCESS
        suffered["attacker"] += attack.outcome == CRITICAL_FAILURE
        for roll in (defence_roll, reply_roll):
            if roll is not None:
                suffered["defender"] += roll.outcome == CRITICAL_FAILURE
        if reply_roll is not None:
            suffered["attacker"] += reply_roll.outcome == CRITICAL_SUCCESS
    for side, fighter, mode in (
        ("defender", defender, request.critical),
        ("attacker", striker, consequences.TABLE),
    ):
        for _n in range(suffered[side]):
            fresh = fighter_of(campaign, fighter.combatant, lock=True)
            fighter.character = fresh.character
            lines.append(suffer_critical(fighter, mode=mode, roll=attack_roll, by=by, rng=rng))
    return suffered


def missed(attack_roll: Roll) -> bool:
    """Whether the attack missed (`rules.combat.attack_missed`)."""
    return rules_combat.attack_missed(
        succeeded=attack_roll.breakdown["succeeded"],
        critical_failure=attack_roll.outcome == CRITICAL_FAILURE,
    )


def resolve_miss(
    *, campaign, by, pending, striker: Fighter, attack_roll: Roll, rng
) -> dict[str, Any]:
    """A missed attack, resolved at once: the attacker suffers its own critical failure (§5)."""
    lines = [_("%(name)s rate son attaque.") % {"name": striker.name}]
    suffered = {"attacker": int(attack_roll.outcome == CRITICAL_FAILURE), "defender": 0}
    if suffered["attacker"]:
        lines.append(
            suffer_critical(striker, mode=consequences.TABLE, roll=attack_roll, by=by, rng=rng)
        )
    return {
        **{k: pending[k] for k in ("id", "key", "by", "attacker", "target", "roll", "total")},
        "visibility": pending["visibility"],
        "slot": pending.get("slot"),
        "defence": rules_combat.NO_DEFENCE,
        "defence_roll": None,
        "reply_roll": None,
        "defended": False,
        "damage": 0,
        "reply_damage": 0,
        "aggravation": suffered,
        "riposte_for": None,
        "summary": " ".join(lines),
        "attack": dict(pending),  # what was asked: a retried attack answers it again
    }
