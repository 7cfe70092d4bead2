"""Grapples in a fight (§13): Étreinte, Mise au sol, Projection, at bare hands.

A grapple is an attack (`sessions.combat.attacks.attack_declare` with `grapple`): rolled with
Force or Agilité and Bagarre, defended as a bare-hands melee blow, its damage by
`rules.combat.grapple_damage`. When it lands (`rules.combat.grapple_lands`) it leaves its state
on the target combatant (`rules.combat.grapple_state`): `held_by` for an Étreinte, `prone` for a
Mise au sol. A held combatant can neither attack nor defend; on its action it may only try to
free itself (`grapple_escape`: Force or Agilité and Bagarre against the grapple's total, the
action then ends). Its holder, or the Conteur, lets go (`grapple_release`); a combatant à terre
gets up on its own action (`grapple_stand_up`). A hold whose holder or held one is no longer in
the fight counts for nothing (`holds.holder_of`) and is cleared by the next blow
(`holds.holds_ended`).

The services take the table's lock, then the fight's (`steps.encounter_lock`), and log `combat`
lines, hidden when a hidden NPC is involved; the action then ends (`fights.turn_next`).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from rules import combat as rules_combat
from rules.check import RandomSource
from rules.french import de
from rules.odds import check_odds
from sessions import services
from sessions.checks import RollRequest
from sessions.combat import fights as combat
from sessions.combat.harm import Fighter, fighter_of
from sessions.combat.holds import ACTIVE, holder_of
from sessions.combat.steps import (
    Lines,
    encounter_combatants,
    encounter_lock,
    encounter_running,
    step_log,
)
from sessions.errors import violation
from sessions.models import Combatant, Encounter, Visibility

GRAPPLE_LABELS = {key: label for key, (label, _note) in rules_combat.GRAPPLES.items()}
GRAPPLE_FIELDS = ["held_by", "prone", "hold"]


def _visibility(*combatants: Combatant) -> str:
    return Visibility.HIDDEN if any(c.hidden for c in combatants) else Visibility.PUBLIC


def _controls(campaign: Campaign, combatant: Combatant | None, by) -> bool:
    if is_storyteller(campaign):
        return True
    return (
        combatant is not None
        and combatant.character_id is not None
        and combatant.character.owner_id == by.pk
    )


# --- the grapple as an attack ------------------------------------------------------------------


def _has_expertise(fighter: Fighter, grapple: str) -> bool:
    """Whether the character has the grapple's expertise in Bagarre (an NPC: the Conteur's)."""
    if fighter.character is None:
        return False
    wanted = {name.casefold() for name in rules_combat.grapple_expertises(grapple)}
    row = next(
        (r for r in fighter.character.skills.all() if r.key == rules_combat.GRAPPLE_SKILL), None
    )
    return row is not None and any(str(e).casefold() in wanted for e in row.expertises or ())


def grapple_strike(fighter: Fighter, request):
    """The attack request of a grapple as the rules make it (§13): Bagarre at bare hands, Force
    or Agilité, its complexity against a big or heavy target, its base damage on Vitalité."""
    grapple = request.grapple
    if not grapple:
        return request
    if grapple not in rules_combat.GRAPPLES:
        raise violation("grapple", _("Prise inconnue."))
    if request.characteristic not in rules_combat.GRAPPLE_CHARACTERISTICS:
        raise violation("characteristic", _("Une prise se fait avec la Force ou l'Agilité."))
    if request.ranged:
        raise violation("ranged", _("Une prise se fait à mains nues, au contact."))
    distance = request.distance if grapple == rules_combat.THROW else 0
    if grapple == rules_combat.THROW and not 1 <= distance <= rules_combat.THROW_DISTANCE_MAX:
        raise violation(
            "distance",
            _("Indiquez la distance de la projection, de 1 à %(max)d m.")
            % {"max": rules_combat.THROW_DISTANCE_MAX},
        )
    value = request.characteristic_value
    if fighter.character is None and value is None:
        value = fighter.value(request.characteristic)  # the NPC's own, from its stat block
    return replace(
        request,
        skills=(rules_combat.GRAPPLE_SKILL,),
        expertise=_has_expertise(fighter, grapple),
        complexity=rules_combat.grapple_complexity(request.complexity, heavy=request.heavy),
        damage=rules_combat.grapple_damage(
            grapple, strength=fighter.value("strength"), distance=distance
        ),
        gauge="vitality",
        distance=distance,
        characteristic_value=value,
    )


def grapple_lands(
    *,
    pending: dict[str, Any],
    result: dict[str, Any],
    attacker: Combatant,
    target: Combatant,
    reply_total: int | None,
    lines: list[str],
) -> str:
    """Leave the grapple's state on its target if it landed (§13); returns what it did
    ("held", "prone", "thrown") or "" (no grapple, or stopped)."""
    grapple = pending.get("grapple") or ""
    if not grapple:
        return ""
    won = reply_total is None or rules_combat.attacker_wins_confrontation(
        pending["total"], reply_total
    )
    if not rules_combat.grapple_lands(defended=result["defended"], attacker_won=won):
        if not result["defended"]:
            lines.append(_("Prise ratée (%(grapple)s).") % {"grapple": GRAPPLE_LABELS[grapple]})
        return ""
    state = rules_combat.grapple_state(grapple)
    names = {"attacker": attacker.name, "target": target.name, "total": pending["total"]}
    if state["freed"]:
        lines.append(
            _("%(attacker)s projette %(target)s à %(n)d m.")
            % {**names, "n": pending.get("distance", 0)}
        )
        if target.held_by_id is not None:
            target.held_by, target.hold = None, {}
        return "thrown"
    if target.status != ACTIVE:
        return ""  # knocked out by the blow: nothing to hold or to put down
    if state["held"]:
        target.held_by = attacker
        target.hold = {"total": pending["total"], "attack": pending["id"]}
        lines.append(
            _("%(attacker)s tient %(target)s dans son étreinte : ni attaque ni défense avant de se libérer (jet de %(total)d à égaler).")  # noqa: E501
            % names
        )  # fmt: skip
        return "held"
    target.prone = True
    lines.append(_("%(attacker)s met %(target)s à terre.") % names)
    return "prone"


# --- freeing oneself, letting go, getting up ---------------------------------------------------


def escape_odds(fighter: Fighter, characteristic: str, hold_total: int) -> float:
    """The exact chance to break free (§5 Product) with this characteristic and Bagarre."""
    skill = 0
    if fighter.character is not None:
        levels = {row.key: row.level for row in fighter.character.skills.all()}
        skill = levels.get(rules_combat.GRAPPLE_SKILL, 0)
    check = rules_combat.escape_check(fighter.value(characteristic), hold_total, skill=skill)
    return float(check_odds(check).success)


@transaction.atomic
def grapple_escape(
    *,
    campaign: Campaign,
    by,
    encounter_id: int,
    turn: int,
    characteristic: str,
    idempotency_key: str = "",
    complexity: int = 0,
    characteristic_value: int | None = None,
    skill_level: int | None = None,
    rng: RandomSource | None = None,
) -> tuple[dict[str, Any], bool]:
    """The held combatant acting now tries to free itself (its player, or the Conteur): Force or
    Agilité and Bagarre against the grapple's total (`rules.combat.escape_check`); freed or not,
    its action ends. Returns the attempt and whether it is new (the same key again answers it)."""
    key = idempotency_key or uuid.uuid4().hex
    encounter = encounter_lock(campaign, encounter_id)
    everyone = encounter_combatants(encounter)
    for one in everyone:
        done = one.hold.get("escape") or {}
        if done.get("key") == key and done.get("by") == by.pk:
            return done, False
    encounter = encounter_running(campaign, by, encounter_id, turn)
    by_pk = {c.pk: c for c in everyone}
    acting = by_pk[encounter.order[encounter.position]["combatant"]]
    holder = holder_of(acting, by_pk)
    if holder is None:
        raise violation(
            "encounter", _("%(name)s n'est dans aucune étreinte.") % {"name": acting.name}
        )
    if characteristic not in rules_combat.GRAPPLE_CHARACTERISTICS:
        raise violation("characteristic", _("On se libère avec la Force ou l'Agilité."))
    fighter = fighter_of(campaign, acting)
    value = characteristic_value
    if fighter.character is not None or value is None:
        value = fighter.value(characteristic)
    check = rules_combat.escape_check(value, acting.hold.get("total", 0))
    visibility = _visibility(acting, holder)
    roll = services.roll_create(
        campaign=campaign,
        by=by,
        request=RollRequest(
            characteristic=characteristic,
            skills=(rules_combat.GRAPPLE_SKILL,),
            complexity=complexity,
            difficulty=check.difficulty,
            characteristic_value=None if fighter.character is not None else value,
            skill_level=None if fighter.character is not None else skill_level,
            npc_agony=0 if fighter.character is not None else acting.agony,
            label=(_("Se libérer de l'étreinte %(of_holder)s") % {"of_holder": de(holder.name)})[
                :120
            ],
        ),
        character_id=acting.character_id,
        idempotency_key=key[:64],
        visibility=visibility,
        play_session=encounter.play_session,
        rng=rng,
    )
    freed = bool(roll.breakdown["succeeded"])
    names = {"name": acting.name, "of_holder": de(holder.name), "total": roll.total}
    names["difficulty"] = check.difficulty
    if freed:
        text = _(
            "%(name)s se libère de l'étreinte %(of_holder)s (%(total)d contre %(difficulty)d)."
        )
    else:
        text = _(
            "%(name)s ne parvient pas à se libérer de l'étreinte %(of_holder)s (%(total)d contre %(difficulty)d)."
        )  # noqa: E501
    record = {
        "key": key[:64],
        "by": by.pk,
        "combatant": acting.pk,
        "holder": holder.pk,
        "roll": roll.pk,
        "total": roll.total,
        "difficulty": check.difficulty,
        "freed": freed,
        "visibility": visibility,
        "summary": text % names,
    }
    if freed:
        acting.held_by, acting.hold = None, {"escape": record}
    else:
        acting.hold = {**acting.hold, "escape": record}
    acting.save(update_fields=["held_by", "hold"])
    lines = Lines([], [])
    (lines.hidden if visibility == Visibility.HIDDEN else lines.public).append(record["summary"])
    step_log(encounter, by, lines)
    combat.turn_next(campaign=campaign, by=by, encounter_id=encounter.pk, turn=encounter.turn)
    return record, True


def _one(campaign: Campaign, encounter: Encounter, combatant_id: int):
    everyone = encounter_combatants(encounter)
    by_pk = {c.pk: c for c in everyone}
    combatant = by_pk.get(combatant_id)
    if combatant is None or (combatant.hidden and not is_storyteller(campaign)):
        raise Http404(_("Combattant introuvable."))
    return combatant, by_pk


def _log_one(encounter: Encounter, by, text: str, *combatants: Combatant) -> None:
    lines = Lines([], [])
    (lines.hidden if any(c.hidden for c in combatants) else lines.public).append(text)
    step_log(encounter, by, lines)


@transaction.atomic
def grapple_release(*, campaign: Campaign, by, encounter_id: int, combatant_id: int) -> Combatant:
    """The holder lets go of the combatant it holds (its player, or the Conteur); letting go of
    someone no longer held changes nothing."""
    encounter = encounter_lock(campaign, encounter_id)
    combatant, by_pk = _one(campaign, encounter, combatant_id)
    if combatant.held_by_id is None:
        return combatant
    holder = by_pk.get(combatant.held_by_id)
    if not is_storyteller(campaign) and (holder is None or not _controls(campaign, holder, by)):
        raise PermissionDenied(
            _("Seuls le Conteur et le joueur %(of_holder)s peuvent relâcher %(name)s.")
            % {"of_holder": de(holder.name) if holder else "", "name": combatant.name}
        )
    combatant.held_by, combatant.hold = None, {}
    combatant.save(update_fields=["held_by", "hold"])
    if holder is None:
        _log_one(
            encounter,
            by,
            _("L'étreinte sur %(name)s prend fin.") % {"name": combatant.name},
            combatant,
        )
        return combatant
    text = _("%(holder)s relâche %(name)s.") % {"holder": holder.name, "name": combatant.name}
    _log_one(encounter, by, text, combatant, holder)
    return combatant


@transaction.atomic
def grapple_stand_up(*, campaign: Campaign, by, encounter_id: int, combatant_id: int) -> Combatant:
    """A combatant à terre gets up (§13 Reading): on its own action (its player), or whenever
    the Conteur says; not while held. Getting up when standing changes nothing."""
    encounter = encounter_lock(campaign, encounter_id)
    combatant, by_pk = _one(campaign, encounter, combatant_id)
    if not combatant.prone:
        return combatant
    storyteller = is_storyteller(campaign)
    acting = encounter.order[encounter.position]["combatant"] if encounter.order else None
    if not storyteller and not (_controls(campaign, combatant, by) and acting == combatant.pk):
        raise PermissionDenied(
            _("%(name)s se relève pendant son action, ou quand le Conteur le décide.")
            % {"name": combatant.name}
        )
    if (holder := holder_of(combatant, by_pk)) is not None:
        raise violation(
            "encounter",
            _("%(name)s est dans l'étreinte %(of_holder)s : impossible de se relever.")
            % {"name": combatant.name, "of_holder": de(holder.name)},
        )
    combatant.prone = False
    combatant.save(update_fields=["prone"])
    _log_one(encounter, by, _("%(name)s se relève.") % {"name": combatant.name}, combatant)
    return combatant
