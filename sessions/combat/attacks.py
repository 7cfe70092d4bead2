"""Attacks, defences and damage in a fight (§5, §8, §13).

An attack is two steps, one blow at a time per fight:

1. `attack_declare` — the acting combatant (its player, or the Conteur) attacks a target: the
   check is rolled as every table roll (`sessions.services.roll_create`: the sheet's dice,
   Agonie, its price), and the blow waits on the encounter (`pending_attack`) with the defences
   the target may choose (`rules.combat.defence_options`).
2. `attack_defend` — the target's player (the Conteur for an NPC) picks Blocage, Esquive or
   Parade (one Finesse point, rolled against the attack's total), no defence, or a reactive
   confrontation (an attack in answer: neither defends, §13). The damage follow (base + the
   attacker's column bonus, annulation, résistance, §8), then the criticals (Aggravation; only
   the attacker's between two player characters, §5), a riposte after a defensive critical,
   unconsciousness. The blow is then `last_attack`: a retried defence answers it again.

Both steps take the table's lock, then the fight's (`steps.encounter_lock`), as every combat
write, and log `combat` lines (hidden when a hidden NPC is involved). A hidden NPC's blow on a
visible character is also told to the players without its author, « une attaque » (`masks`):
its target's player is notified and answers it like any other, and after a defensive critical
ripostes against « l'attaquant » (a riposte's target is always the last blow's attacker).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from rules import combat as rules_combat
from rules import exchange as rules_exchange
from rules import reference
from rules.check import RandomSource
from rules.french import de
from sessions import consequences, services
from sessions.checks import MAIN_CHARACTERISTICS, RollRequest
from sessions.combat import grapples as combat_grapples
from sessions.combat import incanting, masks, waiting_blows
from sessions.combat.blows import DEFENCE_LABELS, result_of, settle
from sessions.combat.harm import Fighter, fighter_of
from sessions.combat.holds import held_note, holds_ended, refuse_if_held
from sessions.combat.steps import StaleTurn, encounter_combatants, encounter_lock
from sessions.combat.strikes import AttackRequest, DefenceRequest, Strike
from sessions.errors import violation
from sessions.models import Combatant, CombatantStatus, Encounter, Roll

DEFENCES = DEFENCE_LABELS
PAID_DEFENCES = (rules_combat.BLOCK, rules_combat.DODGE, rules_combat.PARRY)
GAUGE_KINDS = {"vitality": "physique", "energy": "magique", "confidence": "sociale"}
OUT = (CombatantStatus.DEAD, CombatantStatus.LEFT)


class AttackPending(ValidationError):
    http_status = 409

    def __init__(self):
        # No field: the attack's author did not send one named "attack".
        super().__init__([_("Une attaque attend déjà sa défense : résolvez-la d'abord.")])


class AttackGone(ValidationError):
    http_status = 409

    def __init__(self):
        super().__init__(
            {"attack": [_("Cette attaque n'attend plus de défense : rechargez le combat.")]}
        )


def attack_of(pending: dict[str, Any]) -> rules_combat.Attack:
    return rules_combat.Attack(
        ranged=pending["ranged"], hidden=pending["hidden"], exploded=pending["exploded"]
    )


# --- permissions -----------------------------------------------------------------------------


def _controls(campaign: Campaign, combatant: Combatant, by) -> bool:
    """The Conteur plays every combatant; a player only their own character."""
    if is_storyteller(campaign):
        return True
    return combatant.character_id is not None and combatant.character.owner_id == by.pk


def _refused(message: str) -> ValidationError:
    """A refusal about the fight's state, not about a field the client sent."""
    return ValidationError([message])


def _roll(
    campaign: Campaign,
    encounter: Encounter,
    by,
    roller: Combatant,
    strike: Strike,
    *,
    label: str,
    key: str,
    visibility: str,
    difficulty: int | None = None,
    rng: RandomSource | None,
    plain: bool = False,
    value_override: int | None = None,
) -> Roll:
    """Roll a combat check as every table roll (its sheet dice, its price, its log line);
    `plain`: none of the sheet's alterations (a player character defending against another,
    Reading §13); `value_override`: the characteristic the rules chose (a defence's armour…)."""
    character_id = roller.character_id
    request = RollRequest(
        characteristic=strike.characteristic,
        skills=strike.skills,
        complexity=strike.complexity,
        difficulty=strike.difficulty if difficulty is None else difficulty,
        expertise=strike.expertise,
        boon=strike.boon,
        bane=strike.bane,
        impact=strike.impact,
        hope=strike.hope,
        cancel_critical_failure=strike.cancel_critical_failure,
        narrow_success=strike.narrow_success,
        injuries=strike.injuries,
        characteristic_value=None if character_id else strike.characteristic_value,
        skill_level=None if character_id else strike.skill_level,
        label=label[:120],
        value_override=value_override if character_id else None,
        plain=plain,
        npc_agony=0 if character_id else roller.agony,
    )
    return services.roll_create(
        campaign=campaign,
        by=by,
        request=request,
        character_id=character_id,
        idempotency_key=key[:64],
        visibility=visibility,
        play_session=encounter.play_session,
        rng=rng,
    )


# --- 1. the attack ---------------------------------------------------------------------------


@transaction.atomic
def attack_declare(
    *,
    campaign: Campaign,
    by,
    encounter_id: int,
    turn: int,
    request: AttackRequest,
    idempotency_key: str,
    profile: int | None = None,
    rng: RandomSource | None = None,
) -> tuple[dict[str, Any], bool]:
    """The acting combatant attacks (its player or the Conteur); returns the attack (its
    `result` is None while it waits for its defence, the blow at once for a miss) and whether
    it is new. The same key again answers the same attack. `profile`: an NPC attacks with one
    of its stat block's attacks (its characteristic, skill, damage, range, lethality)."""
    if not idempotency_key:
        idempotency_key = uuid.uuid4().hex
    encounter = encounter_lock(campaign, encounter_id)
    pending, last = encounter.pending_attack, encounter.last_attack
    if pending.get("key") == idempotency_key and pending.get("by") == by.pk:
        return {**pending, "result": None}, False
    if last.get("key") == idempotency_key and last.get("by") == by.pk and "attack" in last:
        return {**last["attack"], "result": last}, False
    if encounter.pending_attack:
        raise AttackPending()
    if encounter.status != "running" or not encounter.order:
        raise _refused(_("Lancez d'abord l'initiative."))
    if turn != encounter.turn:
        raise StaleTurn(encounter.turn)
    by_pk = {c.pk: c for c in encounter_combatants(encounter)}
    attacker = _attacker(encounter, by_pk, request)
    target = _target(campaign, encounter, by_pk, request)
    if target.pk == attacker.pk or target.status in OUT:
        gone = _("Cette cible n'est plus dans le combat.")
        raise _refused(gone) if request.riposte else violation("target", gone)
    if not _controls(campaign, attacker, by):
        raise PermissionDenied(
            _("Seuls le Conteur et le joueur dont c'est le tour peuvent attaquer.")
        )
    slot = [encounter.round, encounter.position]
    last = encounter.last_attack
    if not request.riposte and last.get("slot") == slot and last.get("attacker") == attacker.pk:
        raise _refused(
            _("%(name)s a déjà attaqué pendant cette action : finissez-la.")
            % {"name": attacker.name}
        )
    if request.gauge not in reference.GAUGES:
        raise violation("gauge", _("Cette constitution n'existe pas."))
    refuse_if_held(attacker, by_pk, "attack")
    if profile is not None:
        request = with_profile(attacker, request, profile)
    elif not request.characteristic:
        # Not about a field sent: which profiles the NPC has is the campaign's state.
        raise _refused(
            _("Choisissez l'une des attaques de %(name)s (`profile`) ou une caractéristique.")
            % {"name": attacker.name}
            if attacker.profile.get("attacks") and not attacker.character_id
            else _("Choisissez une caractéristique pour cette attaque."),
        )
    incanting.refuse_if_incanting(attacker, encounter)
    request = combat_grapples.grapple_strike(fighter_of(campaign, attacker), request)
    grapple = combat_grapples.GRAPPLE_LABELS.get(request.grapple)
    visibility = waiting_blows.visibility_of(attacker, target)
    masked_riposte = masks.is_masked_riposte(attacker, target, {"riposte": request.riposte})
    roll = _roll(
        campaign,
        encounter,
        by,
        attacker,
        request,
        label=_attack_label(target, grapple, riposte=request.riposte, masked=masked_riposte),
        key=idempotency_key,
        visibility=masks.roll_visibility(campaign, visibility),
        rng=rng,
    )
    pending = waiting_blows.pending_of(
        author=by.pk,
        key=idempotency_key,
        attacker=attacker,
        target=target,
        roll=roll,
        nonlethal=request.nonlethal,
        ranged=request.ranged,
        hidden=request.hidden,
        riposte=request.riposte,
        damage=request.damage,
        gauge=request.gauge,
        slot=None if request.riposte else slot,
        grapple=request.grapple,
        distance=request.distance,
        critical=request.critical,
    )
    if request.riposte:  # an area spell's blows left wait until the riposte is answered
        pending["line"] = encounter.last_attack.get("line") or []
        encounter.last_attack = {**encounter.last_attack, "riposte_for": None, "line": []}
    miss = waiting_blows.wait_or_land(campaign, by, encounter, pending, attacker, target, roll, rng)
    if miss is not None and masked_riposte:
        miss["masked_summary"] = masks.riposte_text(miss, attacker, request.gauge, missed=True)
    encounter.turn += 1
    encounter.save(update_fields=["pending_attack", "last_attack", "turn"])
    verb = (
        _("tente une %(grapple)s sur") % {"grapple": grapple}
        if grapple
        else _("riposte contre")
        if request.riposte
        else _("attaque")
    )
    waiting_blows.announce(
        encounter, by, attacker=attacker, target=target, roll=roll, verb=verb, miss=miss
    )
    if masked_riposte:  # the riposter's own roll, against « l'attaquant »
        outcome = roll.breakdown.get("outcome_label", roll.outcome)
        told = masks.riposte_declared_text(attacker, roll.total, outcome)
        waiting_blows.log_masked(
            encounter, by, f"{told} {miss['masked_summary']}" if miss else told
        )
    if miss is not None:
        waiting_blows.after_answer(campaign, by, encounter, pending, rng)
    return {**pending, "result": miss}, True


def with_profile(attacker: Combatant, request: AttackRequest, index: int) -> AttackRequest:
    """The attack as the NPC's profile number `index` makes it (sessions.attack_profiles)."""
    profiles = [] if attacker.character_id else (attacker.profile.get("attacks") or [])
    if not 0 <= index < len(profiles):
        raise violation(
            "profile",
            _("%(name)s n'a pas cette attaque dans son profil.") % {"name": attacker.name},
        )
    chosen = profiles[index]
    return replace(
        request,
        characteristic=chosen["characteristic"],
        characteristic_value=attacker.profile.get(chosen["characteristic"], 2),
        skills=(chosen["skill"],) if chosen["skill"] else (),
        skill_level=chosen["level"],
        damage=chosen["damage"],
        gauge=chosen["gauge"],
        ranged=chosen["ranged"],
        nonlethal=chosen["nonlethal"],
    )


def _target(
    campaign: Campaign, encounter: Encounter, by_pk: dict[int, Combatant], request: AttackRequest
) -> Combatant:
    """The combatant attacked: the one named, or — for a riposte — the last blow's attacker,
    implied (§8: a riposte answers the blow). A riposte's `target` is ignored: a player may not
    know a hidden attacker, and may riposte against it all the same (« l'attaquant »)."""
    if request.riposte:
        target = by_pk.get(encounter.last_attack.get("attacker"))
        if target is None:
            raise _refused(_("Aucune riposte n'est possible maintenant."))
        return target
    if not request.target:  # not sent: no field to name
        raise _refused(_("Choisissez la cible de l'attaque (`target`)."))
    target = by_pk.get(request.target)
    if target is None or (target.hidden and not is_storyteller(campaign)):
        raise violation("target", _("Choisissez une cible de ce combat."))
    return target


def _attack_label(target: Combatant, grapple: str | None, *, riposte: bool, masked: bool) -> str:
    """The attack roll's label; a riposte on a hidden NPC does not name it to its roller."""
    if grapple:
        return _("%(grapple)s sur %(name)s") % {"grapple": grapple, "name": target.name}
    if riposte and masked:
        return _("Riposte contre l'attaquant")
    if riposte:
        return _("Riposte contre %(name)s") % {"name": target.name}
    return _("Attaque contre %(name)s") % {"name": target.name}


def _attacker(encounter: Encounter, by_pk: dict[int, Combatant], request: AttackRequest):
    """The acting combatant, or the defender allowed a riposte by the last blow (§8)."""
    if request.riposte:
        allowed = encounter.last_attack.get("riposte_for")
        if allowed is None or allowed not in by_pk:
            raise _refused(_("Aucune riposte n'est possible maintenant."))
        return by_pk[allowed]
    attacker = by_pk[encounter.order[encounter.position]["combatant"]]
    if attacker.status != CombatantStatus.ACTIVE:
        raise _refused(_("Ce combattant n'est pas en état d'attaquer."))
    return attacker


# --- 2. the defence and the blow -------------------------------------------------------------


@transaction.atomic
def attack_defend(
    *,
    campaign: Campaign,
    by,
    encounter_id: int,
    attack_id: str,
    request: DefenceRequest,
    rng: RandomSource | None = None,
) -> tuple[dict[str, Any], bool]:
    """The target answers the pending attack; returns the resolved blow and whether it is new
    (the same `attack_id` again answers the blow already resolved)."""
    encounter = encounter_lock(campaign, encounter_id)
    pending = encounter.pending_attack
    if not pending or pending.get("id") != attack_id:
        if encounter.last_attack.get("id") == attack_id:
            return encounter.last_attack, False
        raise AttackGone()
    if request.defence not in DEFENCES:
        raise violation("defence", _("Défense inconnue."))
    by_pk = {c.pk: c for c in encounter_combatants(encounter)}
    attacker, target = by_pk[pending["attacker"]], by_pk[pending["target"]]
    if not _controls(campaign, target, by):
        raise PermissionDenied(
            _("Seuls le Conteur et le joueur %(of_name)s choisissent sa défense.")
            % {"of_name": de(target.name)}
        )
    if request.defence in (*PAID_DEFENCES, "reactive") and (held := held_note(target, by_pk)):
        raise violation("defence", held)
    attack_roll = Roll.objects.get(pk=pending["roll"])
    defender = fighter_of(campaign, target, lock=True)
    striker = fighter_of(campaign, attacker, lock=True)
    can_answer = target.status == CombatantStatus.ACTIVE
    answer = request.defence if can_answer else rules_exchange.NO_DEFENCE
    lost = incanting.lose_on_defence(target, answer)  # §15 Reading: a caster who defends
    pvp = attacker.character_id is not None and target.character_id is not None
    defence_roll = _defend_roll(
        campaign, encounter, by, defender, pending, replace(request, defence=answer), rng, pvp
    )
    reply_roll = None
    if answer == "reactive":
        reply_roll = _reply_roll(campaign, encounter, by, defender, attacker, pending, request, rng)
    outcome, lines = settle(
        by=_harm_author(pending, request, by),
        pending=pending,
        striker=striker,
        defender=defender,
        answer=answer,
        rolls={"attack": attack_roll, "defence": defence_roll, "reply": reply_roll},
        reply_weapon=_reply_weapon(request),
        choices=(pending.get("critical", consequences.TABLE), request.critical),
        can_answer=can_answer,
        rng=rng,
    )
    if lost:
        lines.insert(0, lost)
    result = result_of(
        pending,
        outcome,
        lines,
        defence_roll=defence_roll,
        reply_roll=reply_roll,
        riposte_for=target.pk if outcome.riposte else None,
    )
    result["grapple"] = combat_grapples.grapple_lands(
        pending=pending,
        result=result,
        attacker=attacker,
        target=target,
        reply_total=reply_roll.total if reply_roll is not None else None,
        lines=lines,
    )
    freed = holds_ended(list(by_pk.values()), lines)
    result["summary"] = " ".join(lines)
    if masks.is_masked(attacker, target):
        result["masked_summary"] = masks.blow_text(result, target, pending["gauge"])
    elif masks.is_masked_riposte(attacker, target, pending):
        result["masked_summary"] = masks.riposte_text(
            result, attacker, pending["gauge"], missed=False
        )
    Combatant.objects.bulk_update(
        [attacker, target],
        ["finesse_points", "agony", "aggravation", "unconscious_turns", "profile", "status"]
        + combat_grapples.GRAPPLE_FIELDS,
    )
    if others := [c for c in freed if c.pk not in (attacker.pk, target.pk)]:
        Combatant.objects.bulk_update(others, combat_grapples.GRAPPLE_FIELDS)
    encounter.pending_attack = {}
    encounter.last_attack = result
    encounter.turn += 1
    encounter.save(update_fields=["pending_attack", "last_attack", "turn"])
    waiting_blows.log_blow(
        encounter, by, " ".join(lines), attacker, target, blow=waiting_blows.blow_figures(result)
    )
    if "masked_summary" in result:
        waiting_blows.log_masked(encounter, by, result["masked_summary"])
    waiting_blows.after_answer(campaign, by, encounter, pending, rng)
    return result, True


def _harm_author(pending: dict[str, Any], request: DefenceRequest, by):
    """Whom the sheets' history names for the blow's harm: the attack's author (the Conteur for
    an NPC), not the player who answered it; in a reactive confrontation both sides strike, and
    the answer's author stands for the exchange."""
    if request.defence == "reactive" or pending.get("by") == by.pk:
        return by
    return get_user_model().objects.filter(pk=pending.get("by")).first() or by


def _reply_weapon(request: DefenceRequest) -> rules_exchange.Weapon | None:
    """The reactive confrontation's blow (`rules.exchange.answered_in_kind`)."""
    if request.reply is None:
        return None
    return rules_exchange.Weapon(damage=request.reply.damage, gauge=request.reply.gauge)


def _defend_roll(campaign, encounter, by, defender: Fighter, pending, request, rng, pvp=False):
    """Blocage, Esquive or Parade: one Finesse point, a check against the attack's total.
    Between two player characters the defender rolls characteristic + skill with no
    alteration of its own (Reading §13, player against player)."""
    if request.defence not in PAID_DEFENCES:
        return None
    target = defender.combatant
    option = next(o for o in defender.defences(attack_of(pending)) if o.key == request.defence)
    if not option.available:
        raise violation("defence", option.note or _("Cette défense est impossible ici."))
    if not rules_combat.can_pay_defence(target.finesse_points):
        raise violation(
            "defence", _("%(name)s n'a plus de point de Finesse.") % {"name": target.name}
        )
    target.finesse_points = rules_combat.finesse_after_defence(target.finesse_points)
    skill, level = defender.best_skill(option)
    source = option.source if option.source in MAIN_CHARACTERISTICS else "vigor"
    strike = Strike(
        characteristic=source,
        skills=(skill,),
        characteristic_value=option.characteristic,
        skill_level=request.skill_level if request.skill_level is not None else level,
    )
    if not pvp:
        strike = replace(
            strike,
            complexity=request.complexity,
            expertise=request.expertise,
            boon=request.boon,
            bane=request.bane,
            impact=request.impact,
            hope=request.hope,
            cancel_critical_failure=request.cancel_critical_failure,
            narrow_success=request.narrow_success,
            injuries=request.injuries,
        )
    return _roll(
        campaign,
        encounter,
        by,
        target,
        strike,
        label=_("%(defence)s contre l'attaque") % {"defence": option.label},
        key=f"{pending['id']}:defence",
        visibility=masks.roll_visibility(campaign, pending["visibility"]),
        difficulty=pending["total"],
        rng=rng,
        plain=pvp,
        value_override=option.characteristic,
    )


def _reply_roll(campaign, encounter, by, defender, attacker, pending, request, rng):
    """A reactive confrontation: the target attacks in answer; neither defends (§13)."""
    if request.reply is None:
        raise violation("reply", _("Décrivez l'attaque donnée en réponse."))
    return _roll(
        campaign,
        encounter,
        by,
        defender.combatant,
        request.reply,
        label=(
            _("Réplique contre une attaque")
            if masks.is_masked(attacker, defender.combatant)
            else _("Réplique contre %(name)s") % {"name": attacker.name}
        ),
        key=f"{pending['id']}:reply",
        visibility=masks.roll_visibility(campaign, pending["visibility"]),
        rng=rng,
    )
