"""A spell cast in a fight (§15, Readings "incantation" and "cost"): two steps of the caster.

1. `spell_cast` — at its slot, the acting combatant (its player, or the Conteur for an NPC)
   begins the incantation: the rules engine checks the spends against the actions left this
   round and the Énergie cost against the caster's (`rules.spells.spell_plan`); the Énergie is
   paid through the sheets' versioned path (an NPC's on its stat block); the caster's later
   slots this round leave the order and the hand passes (`fights.turn_next`). The spell waits
   on the caster's row (`sessions.combat.incanting`).
2. `spell_resolve` — at the caster's first slot of the next round, the spell resolves: its
   checks are rolled as every table roll (`sessions.services.roll_create`: the sheet's dice,
   Agonie, the expertise die, the focus's surpuissance dice), the engine says what they did
   (`rules.spells.spell_outcome`) and a healing is written through the same care services as
   outside a fight (`characters.condition.character_heal` and `character_stabilise`); an NPC is
   healed on its stat block. Then the hand passes.

Both take the table's lock, then the fight's (`steps.encounter_lock`), check the `turn` the
caller read, and log one `combat` line carrying the cast (`payload["spell"]`): hidden when a
hidden NPC casts or is healed. The same `idempotency_key` from the same member answers again.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from dataclasses import replace as dataclass_replace
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from characters import condition as sheet_condition
from rules import check as rules_check
from rules import spells as rules_spells
from rules.check import RandomSource
from sessions import services, writes
from sessions.checks import CHARACTERISTIC_KEYS, RollRequest, check_prepare
from sessions.combat import fights as combat
from sessions.combat import incanting, waiting_blows
from sessions.combat import spells as numbers
from sessions.combat.harm import Fighter, fighter_of, npc_gauges, store_npc_gauges
from sessions.combat.holds import refuse_if_held
from sessions.combat.spell_lines import begun_line, resolved_line, roll_dict
from sessions.combat.steps import StaleTurn, encounter_combatants, encounter_lock
from sessions.errors import rule_call, violation
from sessions.models import (
    Combatant,
    CombatantStatus,
    Encounter,
    EncounterStatus,
    Roll,
    TableEvent,
    TableEventKind,
    Visibility,
)

SUCCESSES = (rules_check.SUCCESS, rules_check.CRITICAL_SUCCESS)


def _already(campaign: Campaign, by, key: str) -> dict[str, Any] | None:
    event = (
        TableEvent.objects.filter(
            campaign=campaign, kind=TableEventKind.COMBAT, actor=by, payload__spell__key=key
        )
        .order_by("pk")
        .first()
    )
    return event.payload["spell"] if event is not None else None


def _controls(campaign: Campaign, combatant: Combatant, by) -> bool:
    if is_storyteller(campaign):
        return True
    return combatant.character_id is not None and combatant.character.owner_id == by.pk


def _step(campaign: Campaign, by, encounter: Encounter, turn: int):
    """The fight (locked) at the step the caller read, with the acting combatant it controls."""
    if encounter.status != EncounterStatus.RUNNING or not encounter.order:
        raise violation("encounter", _("Lancez d'abord l'initiative."))
    if turn != encounter.turn:
        raise StaleTurn(encounter.turn)
    if encounter.pending_attack:
        raise violation("encounter", _("Une attaque attend sa défense : résolvez-la d'abord."))
    by_pk = {c.pk: c for c in encounter_combatants(encounter)}
    caster = by_pk[encounter.order[encounter.position]["combatant"]]
    if not _controls(campaign, caster, by):
        raise PermissionDenied(
            _("Seuls le Conteur et le joueur dont c'est le tour peuvent lancer un sort.")
        )
    return by_pk, caster


def _log(campaign, encounter, by, caster, cast: dict[str, Any]) -> None:
    writes.log_event(
        campaign_id=campaign.pk,
        kind=TableEventKind.COMBAT,
        summary=cast["summary"][:500],
        by=by,
        visibility=cast["visibility"],
        character=caster.character,
        payload={
            "encounter": encounter.pk,
            "round": encounter.round,
            "turn": encounter.turn,
            "spell": cast,
        },
    )


# --- the incantation begins ----------------------------------------------------------------------


def _checked_request(campaign, by_pk, caster, request: numbers.SpellRequest) -> None:
    """The shapes the rules do not judge: the kind, the characteristic, the targets named."""
    if request.kind not in numbers.KINDS:
        raise violation("kind", _("Type de sort inconnu."))
    if request.characteristic not in CHARACTERISTIC_KEYS:
        raise violation("characteristic", _("Caractéristique inconnue."))
    storyteller = is_storyteller(campaign)
    for pk in request.area_targets:
        target = by_pk.get(pk)
        if target is None or (target.hidden and not storyteller):
            raise violation("area_targets", _("Choisissez des cibles de ce combat."))
        if target.status in numbers.OUT:
            raise violation("area_targets", _("Une cible n'est plus dans le combat."))
        if target.pk == caster.pk:
            raise violation("area_targets", _("Le lanceur ne se vise pas lui-même."))
    if len(set(request.area_targets)) != len(request.area_targets):
        raise violation("area_targets", _("Chaque cible n'est nommée qu'une fois."))
    if request.kind == numbers.AREA:
        _area_blow(request)


def _area_blow(request: numbers.SpellRequest) -> rules_spells.AreaBlow:
    return rule_call(
        lambda: rules_spells.area_blow(
            damage=request.damage, gauge=request.gauge, nonlethal=request.nonlethal
        )
    )


def _healed(campaign, by_pk, request, *, lock: bool) -> Fighter | None:
    if request.kind != numbers.HEALING:
        return None
    target = numbers.healing_target(campaign, by_pk.get(request.target or 0))
    if request.gauge not in numbers.reference.GAUGES:
        raise violation("gauge", _("Cette constitution n'existe pas."))
    return fighter_of(campaign, target, lock=lock)


def _pay_energy(fighter: Fighter, paid: int, by) -> None:
    """The Énergie the spell costs, through the sheets' versioned path (an NPC: its block)."""
    if not paid:
        return
    if fighter.character is not None:
        current = fighter.character.energy_current
        writes.sheet_write(fighter.character, {"energy_current": current - paid}, by)
        return
    gauges = npc_gauges(fighter.combatant)
    energy = gauges["energy"]
    gauges["energy"] = dataclass_replace(energy, current=energy.current - paid)
    store_npc_gauges(fighter.combatant, gauges)
    fighter.combatant.save(update_fields=["profile"])


def _visibility(caster: Combatant, healed: Fighter | None, by_pk, request) -> str:
    named = [by_pk[pk] for pk in request.area_targets if pk in by_pk]
    hidden = caster.hidden or (healed is not None and healed.combatant.hidden)
    hidden = hidden or any(c.hidden for c in named)
    return Visibility.HIDDEN if hidden else Visibility.PUBLIC


@transaction.atomic
def spell_cast(
    *,
    campaign: Campaign,
    by,
    encounter_id: int,
    turn: int,
    request: numbers.SpellRequest,
    idempotency_key: str = "",
    rng: RandomSource | None = None,
) -> tuple[dict[str, Any], bool]:
    """The acting combatant begins a spell; returns the cast (its cost, the incantation's
    effect, the healing's numbers as they stand) and whether it is new. The spell resolves at
    the caster's first slot of the next round (`spell_resolve`)."""
    key = (idempotency_key or uuid.uuid4().hex)[:60]
    encounter = encounter_lock(campaign, encounter_id)
    done = _already(campaign, by, key)
    if done is not None:
        return done, False
    by_pk, caster = _step(campaign, by, encounter, turn)
    if caster.status != CombatantStatus.ACTIVE:
        raise violation("encounter", _("Ce combattant n'est pas en état d'incanter."))
    refuse_if_held(caster, by_pk, "spell")
    incanting.refuse_if_incanting(caster, encounter)
    last = encounter.last_attack or {}
    if last.get("attacker") == caster.pk and last.get("slot") == [
        encounter.round,
        encounter.position,
    ]:
        raise violation(
            "encounter",
            _("%(name)s a déjà attaqué pendant cette action : l'incantation prend tout le tour.")
            % {"name": caster.name},
        )
    request = numbers.with_entry(campaign, request)
    _checked_request(campaign, by_pk, caster, request)
    check_prepare(request=_declared(request, caster), character=caster.character)
    incantation = numbers.incantation_of(request)
    numbers.energy_paid(request, incantation)
    numbers.checks_of(request)
    later = numbers.later_slots(encounter, caster.pk)
    fighter = fighter_of(campaign, caster, lock=True)
    healed = _healed(campaign, by_pk, request, lock=False)
    plan = rule_call(
        lambda: rules_spells.spell_plan(
            numbers.spell_input(
                request,
                caster_energy=fighter.gauges()["energy"].current,
                actions_left=len(later),
                healed=healed.gauges()[request.gauge] if healed else None,
                healed_resilience_points=healed.resilience_points if healed else 0,
            )
        )
    )
    healing = numbers.healing_of_fighter(healed, request.gauge, request.wounds) if healed else None
    _pay_energy(fighter, plan.energy_paid, by)
    visibility = _visibility(caster, healed, by_pk, request)
    cast = {
        "id": uuid.uuid4().hex,
        "key": key,
        "state": "begun",
        "by": by.pk,
        "caster": caster.pk,
        "caster_name": caster.name,
        "kind": request.kind,
        "name": (request.name or "").strip()[:80],
        "round": encounter.round,
        "slot": [encounter.round, encounter.position],
        "spell_points": request.spell_points,
        "total_points": request.spell_points + plan.incantation.extra_points,
        "energy_paid": plan.energy_paid,
        "spends": {
            "focus": request.focus,
            "gestures": request.gestures,
            "words": request.words,
            "components": request.components,
            "overcharge": request.overcharge,
        },
        "incantation": asdict(plan.incantation),
        "actions_given_up": len(later),
        "checks": len(plan.checks),
        "area_targets": list(request.area_targets),
        "healing": healing.as_dict() if healing else None,
        "rolls": [],
        "healed_points": 0,
        "visibility": visibility,
    }
    cast["summary"] = begun_line(cast, caster, healing, plan.incantation)
    caster.incantation = {
        "encounter": encounter.pk,
        "round": encounter.round,
        "key": key,
        "name": cast["name"],
        "request": {**asdict(request), "skills": list(request.skills)},
        "cast": cast["id"],
    }
    caster.save(update_fields=["incantation"])
    encounter.order = [s for i, s in enumerate(encounter.order) if i not in set(later)]
    encounter.save(update_fields=["order"])
    _log(campaign, encounter, by, caster, cast)
    combat.turn_next(
        campaign=campaign, by=by, encounter_id=encounter.pk, turn=encounter.turn, rng=rng
    )
    return cast, True


# --- the spell resolves --------------------------------------------------------------------------


def _request_of(stored: dict[str, Any]) -> numbers.SpellRequest:
    data = dict(stored)
    data["skills"] = tuple(data.get("skills") or ())
    data["area_targets"] = tuple(data.get("area_targets") or ())
    return numbers.SpellRequest(**data)


def _declared(
    request: numbers.SpellRequest, caster: Combatant, check=None, label=""
) -> RollRequest:
    """The spell's check as a table roll declares it (the sheet's dice and Agonie are added
    by the roll itself): the characteristic and skills named, the expertise die, the focus's
    surpuissance dice; an NPC caster's values given by the Conteur."""
    return RollRequest(
        characteristic=request.characteristic,
        skills=request.skills,
        complexity=check.complexity if check else 0,
        difficulty=check.difficulty if check else 0,
        expertise=request.expertise,
        boon=request.boon + (check.boon_dice if check else 0),
        bane=request.bane,
        characteristic_value=None if caster.character_id else request.characteristic_value,
        skill_level=None if caster.character_id else request.skill_level,
        label=label[:120],
        npc_agony=0 if caster.character_id else caster.agony,
    )


def _roll(campaign, encounter, by, caster, request, check, label, visibility, key, rng) -> Roll:
    """One check of the spell, rolled as every table roll (the sheet's dice, Agonie)."""
    roll_request = _declared(request, caster, check, label)
    return services.roll_create(
        campaign=campaign,
        by=by,
        request=roll_request,
        character_id=caster.character_id,
        idempotency_key=key,
        visibility=visibility,
        play_session=encounter.play_session,
        rng=rng,
    )


def _labels(request, healing, by_pk, count: int) -> list[str]:
    name = (request.name or "").strip() or _(numbers.KINDS[request.kind])
    if healing is not None:
        return [
            _("Sort « %(name)s » sur %(target)s (%(gauge)s)")
            % {"name": name, "target": healing.target_name, "gauge": healing.gauge_label}
        ]
    if request.area_targets:
        return [
            _("Sort de zone « %(name)s » sur %(target)s") % {"name": name, "target": by_pk[pk].name}
            for pk in request.area_targets
        ]
    if count > 1:
        return [
            _("Sort de zone « %(name)s », jet %(n)d/%(of)d") % {"name": name, "n": n, "of": count}
            for n in range(1, count + 1)
        ]
    return [_("Sort « %(name)s »") % {"name": name}]


def _heal(healed: Fighter, gauge: str, outcome: rules_spells.SpellOutcome, by) -> None:
    """Write a healing's effect: the care services for a sheet (as outside a fight: heal, then
    stabilise), the stat block for an NPC."""
    if not outcome.stabilised:
        return
    if healed.character is not None:
        sheet_condition.character_heal(
            character=healed.character.pk, gauge=gauge, points=outcome.healed_points, by=by
        )
        sheet_condition.character_stabilise(character=healed.character.pk, gauge=gauge, by=by)
        healed.character.refresh_from_db()
        return
    gauges = npc_gauges(healed.combatant)
    gauges[gauge] = outcome.healed
    store_npc_gauges(healed.combatant, gauges)
    healed.combatant.save(update_fields=["profile"])


def _lost(campaign, encounter, by, caster, spell, reason: str) -> dict[str, Any]:
    """The spell is dropped (its Énergie stays paid) and the log says so; the caster's slot is
    its own again."""
    line = incanting.lose(caster, reason)
    cast = {
        "id": spell.get("cast") or uuid.uuid4().hex,
        "key": f"{spell['key']}:end",
        "state": "lost",
        "by": by.pk,
        "caster": caster.pk,
        "caster_name": caster.name,
        "name": spell.get("name", ""),
        "round": encounter.round,
        "rolls": [],
        "healed_points": 0,
        "visibility": Visibility.HIDDEN if caster.hidden else Visibility.PUBLIC,
        "summary": line,
    }
    _log(campaign, encounter, by, caster, cast)
    return cast


@transaction.atomic
def spell_resolve(
    *,
    campaign: Campaign,
    by,
    encounter_id: int,
    turn: int,
    rng: RandomSource | None = None,
) -> tuple[dict[str, Any], bool]:
    """The acting caster's spell resolves, at its first slot of the round after it began:
    its checks are rolled, a healing heals; then the hand passes. A spell lost meanwhile
    (knocked out, held, its slot gone by) is dropped instead, said in the log."""
    encounter = encounter_lock(campaign, encounter_id)
    by_pk, caster = _step(campaign, by, encounter, turn)
    spell = incanting.pending(caster)
    if not spell:
        raise violation("encounter", _("%(name)s n'a aucun sort en cours.") % {"name": caster.name})
    done = _already(campaign, by, f"{spell['key']}:end")
    if done is not None:
        return done, False
    reason = incanting.lost_reason(caster, encounter)
    if reason:
        return _lost(campaign, encounter, by, caster, spell, reason), True
    if not incanting.due(caster, encounter):
        raise violation(
            "encounter",
            _("Le sort de %(name)s se résout à sa première action du tour suivant.")
            % {"name": caster.name},
        )
    request = _request_of(spell["request"])
    healed = _healed(campaign, by_pk, request, lock=True) if request.kind == "healing" else None
    incantation = numbers.incantation_of(request)
    checks, figures = rule_call(
        lambda: rules_spells.spell_checks(
            numbers.spell_input(
                request,
                healed=healed.gauges()[request.gauge] if healed else None,
                healed_resilience_points=healed.resilience_points if healed else 0,
            ),
            boon_dice=incantation.boon_dice,
        )
    )
    healing = numbers.healing_of_fighter(healed, request.gauge, request.wounds) if healed else None
    visibility = _visibility(caster, healed, by_pk, request)
    labels = _labels(request, healing, by_pk, len(checks))
    rolls = [
        _roll(
            campaign,
            encounter,
            by,
            caster,
            request,
            check,
            label,
            visibility,
            key=f"{spell['key']}:{n}",
            rng=rng,
        )  # fmt: skip
        for n, (check, label) in enumerate(zip(checks, labels, strict=True), start=1)
    ]
    successes = tuple(roll.outcome in SUCCESSES for roll in rolls)
    before = healed.gauges()[request.gauge] if healed else None
    outcome = rules_spells.spell_outcome(before, figures, successes)
    if healed is not None:
        _heal(healed, request.gauge, outcome, by)
    caster.incantation = {}
    caster.save(update_fields=["incantation"])
    cast = {
        "id": spell.get("cast") or uuid.uuid4().hex,
        "key": f"{spell['key']}:end",
        "state": "resolved",
        "by": by.pk,
        "caster": caster.pk,
        "caster_name": caster.name,
        "kind": request.kind,
        "name": spell.get("name", ""),
        "round": encounter.round,
        "slot": [encounter.round, encounter.position],
        "spell_points": request.spell_points,
        "total_points": request.spell_points + incantation.extra_points,
        "energy_paid": 0,
        "spends": {
            "focus": request.focus,
            "gestures": request.gestures,
            "words": request.words,
            "components": request.components,
            "overcharge": request.overcharge,
        },
        "incantation": asdict(incantation),
        "actions_given_up": 0,
        "checks": len(checks),
        "area_targets": list(request.area_targets),
        "healing": healing.as_dict() if healing else None,
        "rolls": [roll_dict(roll) for roll in rolls],
        "healed_points": outcome.healed_points,
        "visibility": visibility,
    }
    cast["summary"] = resolved_line(cast, caster, healing, rolls, outcome)
    _log(campaign, encounter, by, caster, cast)
    if request.kind == numbers.AREA and request.area_targets:
        _area_blows_wait(campaign, by, encounter, caster, request, rolls, spell, rng)
    if not encounter.pending_attack:
        combat.turn_next(
            campaign=campaign, by=by, encounter_id=encounter.pk, turn=encounter.turn, rng=rng
        )
    return cast, True


def _area_blows_wait(campaign, by, encounter, caster, request, rolls, spell, rng) -> None:
    """Reading §15 (area): each roll resolves against its target as an attack does — the
    blows wait for their targets' answers one after the other (`waiting_blows`); the hand
    passes once they are answered, as after an attack."""
    blow = _area_blow(request)
    slot = [encounter.round, encounter.position]
    line = [
        {
            "by": by.pk,
            "key": f"{spell['key']}:{n}:blow",
            "attacker": caster.pk,
            "target": target,
            "roll": roll.pk,
            "blow": {
                "damage": blow.damage,
                "gauge": blow.gauge,
                "nonlethal": blow.nonlethal,
                "ranged": blow.ranged,
                "hidden": blow.hidden,
                "slot": slot,
                "spell": (request.name or "").strip() or _(numbers.KINDS[request.kind]),
            },
        }
        for n, (target, roll) in enumerate(zip(request.area_targets, rolls, strict=True), start=1)
    ]
    encounter.turn += 1
    waiting_blows.next_in_line(campaign, by, encounter, line, rng)
    encounter.save(update_fields=["pending_attack", "last_attack", "turn"])
