"""Spells in a fight (§15): a healing spell's difficulty and complexity read from its target's
sheet, an area spell's one check per target or group, and the incantation that takes the turn.

`spell_cast` is one step of the acting combatant (its player, or the Conteur for an NPC), like
an attack (`sessions.combat.attacks`): it takes the table's lock, then the fight's
(`steps.encounter_lock`), checks the `turn` the caller read, and rolls the spell as every table
roll (`sessions.services.roll_create`: the sheet's dice, Agonie, its log line), the
incantation's focus adding surpuissance dice (`rules.magic.incantation`). The incantation takes
the rest of the caster's round (`rules.magic.incantation_actions`: its later actions this round
leave the order; the Combativité it spends is drawn from them), then the turn passes as "next
turn" does (`sessions.combat.fights.turn_next`).

The cast is logged as one `combat` line whose payload carries it (`payload["spell"]`, with the
encounter, round and step, like every line of the fight): hidden when a hidden NPC casts, public
otherwise. The same `idempotency_key` from the same member again answers that cast, unchanged.

`spell_preview` computes the same numbers without writing anything (the form's preview, the
API's GET): the healing's difficulty and complexity with their reasons, what the incantation's
spends give, the Combativité left to the caster this round.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from rules import magic as rules_magic
from rules import reference
from rules.check import RandomSource
from rules.french import de
from sessions import services, writes
from sessions.checks import CHARACTERISTIC_KEYS, RollRequest
from sessions.combat import fights as combat
from sessions.combat.harm import fighter_of
from sessions.combat.holds import refuse_if_held
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

PLAIN, HEALING, AREA = "plain", "healing", "area"
KINDS = {
    PLAIN: gettext_noop("Sort"),
    HEALING: gettext_noop("Sort de guérison"),
    AREA: gettext_noop("Sort de zone"),
}
MAX_AREA = 20  # checks of one area spell at most (one per target or group)
MAX_SPELL_POINTS = 1_000
OUT = (CombatantStatus.DEAD, CombatantStatus.LEFT)
AGGRAVATION_LABELS = {
    rules_magic.GAUGE_AT_ZERO: gettext_noop("constitution à 0"),
    rules_magic.RESILIENCE_AT_ZERO: gettext_noop("Résilience à 0"),
    rules_magic.GAUGE_IN_PERIL: gettext_noop("en péril"),
}


@dataclass(frozen=True)
class SpellRequest:
    """A spell: its check (§5: the characteristic and skill the caster names), its kind and
    the incantation's Combativité spends (§15)."""

    characteristic: str
    skills: tuple[str, ...] = ()
    kind: str = PLAIN
    name: str = ""
    complexity: int = 0  # a plain or area spell's (the Conteur's call); healing: computed
    difficulty: int = 0
    boon: int = 0
    bane: int = 0
    characteristic_value: int | None = None  # an NPC caster's, given by the Conteur
    skill_level: int | None = None
    spell_points: int = 0
    focus: int = 0
    gestures: int = 0
    words: int = 0
    components: int = 0
    overcharge: bool = False
    target: int | None = None  # healing: the combatant healed (a character)
    gauge: str = "vitality"  # healing: the gauge healed
    targets: int = 1  # area: the characters or groups affected


@dataclass(frozen=True)
class Healing:
    """A healing spell's difficulty and complexity, read from its target's gauge (§15)."""

    target: int
    target_name: str
    gauge: str
    maximum: int
    current: int
    wounds: int
    scars: int
    peril: bool
    resilience_points: int
    difficulty: int
    complexity: int
    scar_complexity: int
    aggravations: tuple[str, ...]

    @property
    def gauge_label(self) -> str:
        return reference.LABELS[self.gauge]

    @property
    def reasons(self) -> list[str]:
        """Why the complexity is what it is, in French: the scars' part, then each +1."""
        if self.scars:
            head = ngettext(
                "%(n)d cicatrice sur %(max)d : %(c)d",
                "%(n)d cicatrices sur %(max)d : %(c)d",
                self.scars,
            ) % {"n": self.scars, "max": self.maximum, "c": self.scar_complexity}
        else:
            head = _("aucune cicatrice : %(c)d") % {"c": self.scar_complexity}
        return [head] + [f"+1 {_(AGGRAVATION_LABELS[key])}" for key in self.aggravations]

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "aggravations": list(self.aggravations), "reasons": self.reasons}


@dataclass
class Preview:
    """What a spell would be, before it is cast."""

    caster: Combatant | None
    actions_left: int | None  # the caster's actions still to come this round
    incantation: rules_magic.Incantation | None
    spell_points: int
    healing: Healing | None = None
    checks: int = 1
    errors: list[str] = field(default_factory=list)

    @property
    def total_points(self) -> int:
        extra = self.incantation.extra_points if self.incantation else 0
        return self.spell_points + extra

    def as_dict(self) -> dict[str, Any]:
        return {
            "caster": self.caster.pk if self.caster else None,
            "caster_name": self.caster.name if self.caster else "",
            "actions_left": self.actions_left,
            "incantation": asdict(self.incantation) if self.incantation else None,
            "spell_points": self.spell_points,
            "total_points": self.total_points,
            "healing": self.healing.as_dict() if self.healing else None,
            "checks": self.checks,
            "errors": self.errors,
        }


# --- the numbers ---------------------------------------------------------------------------------


def healing_of(campaign: Campaign, target: Combatant | None, gauge: str) -> Healing:
    """The healing spell on `target`'s gauge: difficulty = wounds to heal, complexity by scars
    against the maximum, +1 each for the gauge at 0, Résilience at 0, péril (§15)."""
    storyteller = is_storyteller(campaign)
    if target is None or target.character_id is None or (target.hidden and not storyteller):
        raise violation("target", _("Choisissez un personnage de ce combat à soigner."))
    if target.status in OUT:
        raise violation("target", _("Ce personnage n'est plus dans le combat."))
    if gauge not in reference.GAUGES:
        raise violation("gauge", _("Cette constitution n'existe pas."))
    fighter = fighter_of(campaign, target)
    state = fighter.gauges()[gauge]
    resilience = fighter.resilience_points
    return Healing(
        target=target.pk,
        target_name=target.name,
        gauge=gauge,
        maximum=state.maximum,
        current=state.current,
        wounds=state.wounds,
        scars=state.scars,
        peril=state.peril,
        resilience_points=resilience,
        difficulty=rules_magic.healing_difficulty(state),
        complexity=rules_magic.healing_complexity(state, resilience_points=resilience),
        scar_complexity=rules_magic.healing_scar_complexity(state),
        aggravations=rules_magic.healing_aggravations(state, resilience),
    )


def incantation_of(request: SpellRequest) -> rules_magic.Incantation:
    """What the incantation's spends give (§15); the engine's refusals in French."""
    if not 0 <= request.spell_points <= MAX_SPELL_POINTS:
        raise violation(
            "spell_points",
            _("Les points du sort vont de 0 à %(max)d.") % {"max": MAX_SPELL_POINTS},
        )
    return rule_call(
        lambda: rules_magic.incantation(
            request.spell_points,
            focus=request.focus,
            gestures=request.gestures,
            words=request.words,
            components=request.components,
            overcharge=request.overcharge,
        )
    )


def checks_of(request: SpellRequest) -> int:
    """An area spell: one check per character or group affected (§15); another spell: one."""
    if request.kind != AREA:
        return 1
    checks = rule_call(lambda: rules_magic.area_checks(request.targets))
    if not 1 <= checks <= MAX_AREA:
        raise violation(
            "targets",
            _("Un sort de zone touche de 1 à %(max)d cibles ou groupes.") % {"max": MAX_AREA},
        )
    return checks


def _later_slots(encounter: Encounter, caster_id: int) -> list[int]:
    """The indexes of the caster's slots after the one acting now, in this round's order."""
    return [
        index
        for index in range(encounter.position + 1, len(encounter.order))
        if encounter.order[index]["combatant"] == caster_id
    ]


def _acting(encounter: Encounter) -> Combatant | None:
    if encounter.status != EncounterStatus.RUNNING or not encounter.order:
        return None
    slot = encounter.order[min(encounter.position, len(encounter.order) - 1)]
    return Combatant.objects.select_related("character").filter(pk=slot["combatant"]).first()


def spell_preview(*, campaign: Campaign, encounter: Encounter, request: SpellRequest) -> Preview:
    """The spell's numbers before it is cast, nothing written: each refusal the cast would
    meet is listed in `errors` (in French) instead of raised."""
    caster = _acting(encounter)
    if caster is not None and caster.hidden and not is_storyteller(campaign):
        caster = None  # a player does not learn what a hidden NPC may do
    left = len(_later_slots(encounter, caster.pk)) if caster is not None else None
    errors: list[str] = []
    incantation = _collect(errors, lambda: incantation_of(request))
    preview = Preview(caster, left, incantation, request.spell_points)
    if incantation is not None and left is not None:
        _collect(
            errors,
            lambda: rule_call(
                lambda: rules_magic.incantation_actions(incantation, actions_left=left)
            ),
        )
    checks = _collect(errors, lambda: checks_of(request))
    preview.checks = checks if checks is not None else 0
    if request.kind == HEALING:
        target = encounter.combatants.filter(pk=request.target or 0).first()
        preview.healing = _collect(errors, lambda: healing_of(campaign, target, request.gauge))
    preview.errors = errors
    return preview


def _collect(errors: list[str], call):
    try:
        return call()
    except ValidationError as error:
        errors.extend(error.messages)
        return None


# --- the cast ------------------------------------------------------------------------------------


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


@transaction.atomic
def spell_cast(
    *,
    campaign: Campaign,
    by,
    encounter_id: int,
    turn: int,
    request: SpellRequest,
    idempotency_key: str = "",
    rng: RandomSource | None = None,
) -> tuple[dict[str, Any], bool]:
    """The acting combatant casts a spell; returns the cast (its rolls, the healing's numbers,
    the incantation's effect) and whether it is new. The incantation takes the caster's turn:
    its later actions this round are given up and the hand passes to the next combatant."""
    key = (idempotency_key or uuid.uuid4().hex)[:64]
    encounter = encounter_lock(campaign, encounter_id)
    done = _already(campaign, by, key)
    if done is not None:
        return done, False
    if encounter.status != EncounterStatus.RUNNING or not encounter.order:
        raise violation("encounter", _("Lancez d'abord l'initiative."))
    if turn != encounter.turn:
        raise StaleTurn(encounter.turn)
    if encounter.pending_attack:
        raise violation("encounter", _("Une attaque attend sa défense : résolvez-la d'abord."))
    if request.kind not in KINDS:
        raise violation("kind", _("Type de sort inconnu."))
    if request.characteristic not in CHARACTERISTIC_KEYS:
        raise violation("characteristic", _("Caractéristique inconnue."))
    by_pk = {c.pk: c for c in encounter_combatants(encounter)}
    caster = by_pk[encounter.order[encounter.position]["combatant"]]
    if caster.status != CombatantStatus.ACTIVE:
        raise violation("encounter", _("Ce combattant n'est pas en état d'incanter."))
    refuse_if_held(caster, by_pk, "spell")
    if not _controls(campaign, caster, by):
        raise PermissionDenied(
            _("Seuls le Conteur et le joueur dont c'est le tour peuvent lancer un sort.")
        )
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
    incantation = incantation_of(request)
    later = _later_slots(encounter, caster.pk)
    rule_call(lambda: rules_magic.incantation_actions(incantation, actions_left=len(later)))
    checks = checks_of(request)
    healing = None
    if request.kind == HEALING:
        healing = healing_of(campaign, by_pk.get(request.target or 0), request.gauge)
    hidden = caster.hidden or (healing is not None and by_pk[healing.target].hidden)
    visibility = Visibility.HIDDEN if hidden else Visibility.PUBLIC
    rolls = [
        _roll(
            campaign,
            encounter,
            by,
            caster,
            request,
            incantation,
            healing,
            visibility,
            key=key,
            n=n,
            checks=checks,
            rng=rng,
        )  # fmt: skip
        for n in range(1, checks + 1)
    ]
    encounter.order = [s for i, s in enumerate(encounter.order) if i not in set(later)]
    encounter.save(update_fields=["order"])
    cast = {
        "id": uuid.uuid4().hex,
        "key": key,
        "by": by.pk,
        "caster": caster.pk,
        "caster_name": caster.name,
        "kind": request.kind,
        "name": (request.name or "").strip()[:80],
        "round": encounter.round,
        "slot": [encounter.round, encounter.position],
        "spell_points": request.spell_points,
        "total_points": request.spell_points + incantation.extra_points,
        "spends": {
            "focus": request.focus,
            "gestures": request.gestures,
            "words": request.words,
            "components": request.components,
            "overcharge": request.overcharge,
        },
        "incantation": asdict(incantation),
        "actions_given_up": len(later),
        "checks": checks,
        "healing": healing.as_dict() if healing else None,
        "rolls": [_roll_dict(roll) for roll in rolls],
        "visibility": visibility,
    }
    cast["summary"] = _summary(cast, caster, healing, incantation, rolls)[:500]
    writes_payload = {
        "encounter": encounter.pk,
        "round": encounter.round,
        "turn": encounter.turn,
        "spell": cast,
    }
    writes.log_event(
        campaign_id=campaign.pk,
        kind=TableEventKind.COMBAT,
        summary=cast["summary"],
        by=by,
        visibility=visibility,
        character=caster.character,
        payload=writes_payload,
    )
    combat.turn_next(
        campaign=campaign, by=by, encounter_id=encounter.pk, turn=encounter.turn, rng=rng
    )
    return cast, True


def _roll(
    campaign,
    encounter,
    by,
    caster,
    request,
    incantation,
    healing,
    visibility,
    *,
    key,
    n,
    checks,
    rng,
) -> Roll:
    """One check of the spell, rolled as every table roll; focus adds surpuissance dice."""
    name = (request.name or "").strip() or _(KINDS[request.kind])
    if healing is not None:
        label = _("Sort « %(name)s » sur %(target)s (%(gauge)s)") % {
            "name": name,
            "target": healing.target_name,
            "gauge": healing.gauge_label,
        }
    elif checks > 1:
        label = _("Sort de zone « %(name)s », jet %(n)d/%(of)d") % {
            "name": name,
            "n": n,
            "of": checks,
        }
    else:
        label = _("Sort « %(name)s »") % {"name": name}
    complexity = healing.complexity if healing else request.complexity
    difficulty = healing.difficulty if healing else request.difficulty
    roll_request = RollRequest(
        characteristic=request.characteristic,
        skills=request.skills,
        complexity=complexity,
        difficulty=difficulty,
        boon=request.boon + incantation.boon_dice,
        bane=request.bane,
        characteristic_value=None if caster.character_id else request.characteristic_value,
        skill_level=None if caster.character_id else request.skill_level,
        label=label[:120],
    )
    return services.roll_create(
        campaign=campaign,
        by=by,
        request=roll_request,
        character_id=caster.character_id,
        idempotency_key=key if n == 1 else f"{key[:58]}:{n}",
        visibility=visibility,
        play_session=encounter.play_session,
        rng=rng,
    )


def _roll_dict(roll: Roll) -> dict[str, Any]:
    return {
        "id": roll.pk,
        "total": roll.total,
        "target": roll.target,
        "margin": roll.margin,
        "outcome": roll.outcome,
        "outcome_label": roll.breakdown.get("outcome_label", roll.outcome),
    }


def _summary(cast, caster, healing, incantation, rolls) -> str:
    """The log's line: who casts what, the healing's numbers or the area's checks, the rolls,
    what the incantation spent."""
    name = cast["name"] or _(KINDS[cast["kind"]]).lower()
    head = _("%(caster)s incante « %(name)s »") % {"caster": caster.name, "name": name}
    if healing is not None:
        head += " " + _(
            "sur %(target)s (%(gauge)s) : difficulté %(d)d (blessures à soigner), "
            "complexité %(c)d (%(reasons)s)"
        ) % {
            "target": healing.target_name,
            "gauge": healing.gauge_label,
            "d": healing.difficulty,
            "c": healing.complexity,
            "reasons": ", ".join(healing.reasons),
        }
    elif cast["kind"] == AREA:
        head += " " + ngettext(
            "(sort de zone : %(n)d jet, un par cible ou groupe)",
            "(sort de zone : %(n)d jets, un par cible ou groupe)",
            cast["checks"],
        ) % {"n": cast["checks"]}
    results = ", ".join(
        _("%(total)d contre %(target)d (%(outcome)s)")
        % {"total": r.total, "target": r.target, "outcome": _roll_dict(r)["outcome_label"]}
        for r in rolls
    )
    parts = [f"{head} : {results}."]
    spends = []
    if incantation.boon_dice:
        spends.append(
            ngettext(
                "concentration +%(n)d dé",
                "concentration +%(n)d dés",
                incantation.boon_dice,
            )
            % {"n": incantation.boon_dice}
        )
    named = [
        label
        for label, used in (
            (_("gestes"), _used(cast, "gestures")),
            (_("paroles"), _used(cast, "words")),
            (_("composantes"), _used(cast, "components")),
            (_("surcharge (coût ×2)"), incantation.cost_multiplier > 1),
        )
        if used
    ]
    spends += named
    if spends or cast["spell_points"]:
        if cast["total_points"]:
            spends.append(
                ngettext("%(n)d point de sort", "%(n)d points de sort", cast["total_points"])
                % {"n": cast["total_points"]}
            )
        if incantation.combativeness_spent:
            spends.append(
                ngettext(
                    "%(n)d point de Combativité dépensé",
                    "%(n)d points de Combativité dépensés",
                    incantation.combativeness_spent,
                )
                % {"n": incantation.combativeness_spent}
            )
        detail = "; ".join(spends)
        parts.append(_("Incantation : %(detail)s.") % {"detail": detail})
    if cast["actions_given_up"]:
        parts.append(
            ngettext(
                "L'incantation prend le reste du tour %(of)s (%(n)d action).",
                "L'incantation prend le reste du tour %(of)s (%(n)d actions).",
                cast["actions_given_up"],
            )
            % {"of": de(caster.name), "n": cast["actions_given_up"]}
        )
    return " ".join(parts)


def _used(cast: dict[str, Any], option: str) -> bool:
    return bool(cast["spends"][option])
