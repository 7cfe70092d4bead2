"""A blow waiting for its answer (`Encounter.pending_attack`), made from a check already rolled:
an attack's (`attacks.attack_declare`) or each of an area spell's (`spell_casts.spell_resolve`,
Reading §15 "area"). A missed blow lands at once; the others wait for their target's answer
(`attacks.attack_defend`). An area spell's blows wait in turn: when one is answered, the next is
made to wait (`next_in_line`), so each target answers its own roll as it would an attack. A
riposte opened by one of them (§8) comes first: the spell's blows left wait until the riposte is
answered, or given up by passing the hand (`resume_line`).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext as _

from campaigns.models import Campaign
from rules import exchange as rules_exchange
from rules.check import RandomSource
from sessions import consequences
from sessions.combat import masks
from sessions.combat import notify as combat_notify
from sessions.combat.blows import missed, result_of, settle
from sessions.combat.harm import fighter_of
from sessions.combat.steps import Lines, encounter_combatants, step_log
from sessions.models import Combatant, CombatantStatus, Encounter, Roll, Visibility

OUT = (CombatantStatus.DEAD, CombatantStatus.LEFT)
ATTACKER_FIELDS = ["aggravation", "agony", "profile", "status", "unconscious_turns"]


def visibility_of(*combatants: Combatant) -> str:
    return Visibility.HIDDEN if any(c.hidden for c in combatants) else Visibility.PUBLIC


def log_blow(encounter: Encounter, by, text: str, *combatants: Combatant, **extra) -> None:
    lines = Lines([], [])
    (lines.hidden if any(c.hidden for c in combatants) else lines.public).append(text)
    step_log(encounter, by, lines, **extra)


def log_masked(encounter: Encounter, by, text: str) -> None:
    """The players' line of a hidden NPC's blow on a visible target (`masks`): no figures in
    its payload, the Conteur's hidden line keeps them (the summary counts each blow once)."""
    step_log(encounter, by, Lines([text], []))


def pending_of(
    *, author: int, key: str, attacker: Combatant, target: Combatant, roll: Roll, **blow
) -> dict[str, Any]:
    """The blow as the fight keeps it while it waits: who strikes whom with which roll, and
    what the blow carries (`blow`: damage, gauge, non-lethal, ranged, hidden, riposte, slot,
    grapple, distance, the attacker's choice for its own critical)."""
    return {
        "id": uuid.uuid4().hex,
        "key": key,
        "by": author,
        "attacker": attacker.pk,
        "target": target.pk,
        "roll": roll.pk,
        "total": roll.total,
        "outcome": roll.outcome,
        "exploded": roll.breakdown.get("chain_sign", 0) > 0,
        "visibility": visibility_of(attacker, target),
        "riposte": False,
        "grapple": "",
        "distance": 0,
        "critical": consequences.TABLE,
        **blow,
    }


def wait_or_land(
    campaign: Campaign,
    by,
    encounter: Encounter,
    pending: dict[str, Any],
    attacker: Combatant,
    target: Combatant,
    roll: Roll,
    rng: RandomSource | None,
) -> dict[str, Any] | None:
    """A missed blow lands at once (its own fumble is still suffered) and becomes the fight's
    last blow; any other waits for its target's answer. Returns the landed blow, or None."""
    if not missed(roll):
        encounter.pending_attack = pending
        return None
    outcome, lines = settle(
        by=by,
        pending=pending,
        striker=fighter_of(campaign, attacker, lock=True),
        defender=fighter_of(campaign, target),
        answer=rules_exchange.NO_DEFENCE,
        rolls={"attack": roll, "defence": None, "reply": None},
        choices=(pending.get("critical", consequences.TABLE), consequences.TABLE),
        rng=rng,
    )
    miss = result_of(pending, outcome, lines, defence_roll=None, reply_roll=None, riposte_for=None)
    attacker.save(update_fields=ATTACKER_FIELDS)
    encounter.pending_attack, encounter.last_attack = {}, miss
    return miss


def announce(
    encounter: Encounter,
    by,
    *,
    attacker: Combatant,
    target: Combatant,
    roll: Roll,
    verb: str,
    miss: dict[str, Any] | None,
) -> None:
    """Log the blow (its whole figures; a missed one with what it did) and, while it waits,
    ask its target's player for an answer — « une attaque » when its author is hidden."""
    text = _(
        "%(attacker)s %(verb)s %(target)s : %(total)d (%(outcome)s)%(boom)s. "
        "À %(target)s de choisir sa défense."
    ) % {
        "attacker": attacker.name,
        "verb": verb,
        "target": target.name,
        "total": roll.total,
        "outcome": roll.breakdown.get("outcome_label", roll.outcome),
        "boom": _(", explosion") if roll.breakdown.get("chain_sign", 0) > 0 else "",
    }
    if miss is not None:
        text = f"{text.split('. ')[0]}. {miss['summary']}"
        log_blow(encounter, by, text, attacker, target, blow=blow_figures(miss))
        return
    log_blow(encounter, by, text, attacker, target)
    masked = masks.is_masked(attacker, target)
    if masked:
        log_masked(encounter, by, masks.declared_text(target))
    combat_notify.defence_notify(encounter, target, by, masked=masked, attacker=attacker)


def blow_figures(result: dict[str, Any]) -> dict[str, Any]:
    """What a fight's closing summary counts of a resolved blow (kept in its log line)."""
    return {
        "attacker": result["attacker"],
        "target": result["target"],
        "gauge": (result.get("attack") or {}).get("gauge", "vitality"),
        "damage": result["damage"],
        "reply_damage": result["reply_damage"],
        "aggravation": result["aggravation"],
    }


# --- an area spell's blows, one after the other ------------------------------------------------


def next_in_line(
    campaign: Campaign, by, encounter: Encounter, line: list[dict[str, Any]], rng
) -> None:
    """Make the next of an area spell's blows wait for its target (`line`: each blow's target,
    roll and figures, in the order the caster named them). Missed blows land as they come; a
    target out of the fight by now is passed over, and the blows of a caster removed from the
    fight go with it. The caller saves the encounter."""
    by_pk = {c.pk: c for c in encounter_combatants(encounter)}
    while line:
        item, line = line[0], line[1:]
        caster, target = by_pk.get(item["attacker"]), by_pk.get(item["target"])
        if caster is None:
            return
        if target is None or target.status in OUT:
            continue
        roll = Roll.objects.get(pk=item["roll"])
        pending = pending_of(
            author=item["by"],
            key=item["key"],
            attacker=caster,
            target=target,
            roll=roll,
            **item["blow"],
            line=line,
        )
        miss = wait_or_land(campaign, by, encounter, pending, caster, target, roll, rng)
        verb = _("lance « %(name)s » sur") % {"name": item["blow"]["spell"]}
        announce(encounter, by, attacker=caster, target=target, roll=roll, verb=verb, miss=miss)
        if miss is None:
            return


def after_answer(campaign: Campaign, by, encounter: Encounter, answered: dict[str, Any], rng):
    """Once a blow of an area spell (or a riposte made meanwhile) is settled: the next blow
    waits, unless the blow opened a riposte — then the line waits on the fight's last blow."""
    line = answered.get("line") or []
    if not line:
        return
    if encounter.last_attack.get("riposte_for"):
        encounter.last_attack = {**encounter.last_attack, "line": line}
    else:
        next_in_line(campaign, by, encounter, line, rng)
    encounter.save(update_fields=["pending_attack", "last_attack"])


def resume_line(campaign: Campaign, by, encounter: Encounter, rng) -> bool:
    """Passing the hand while a riposte holds an area spell's blows gives the riposte up: the
    next blow waits. Returns whether one waits now (the hand stays where it is)."""
    line = encounter.last_attack.get("line") or []
    if not line:
        return False
    encounter.last_attack = {**encounter.last_attack, "line": [], "riposte_for": None}
    next_in_line(campaign, by, encounter, line, rng)
    encounter.save(update_fields=["pending_attack", "last_attack"])
    return bool(encounter.pending_attack)
