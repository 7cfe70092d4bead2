"""At the table: rolls, the Moral and the consequences of a roll (RULES.md §5–§8, §14).

Every write here is a keyword-only `@transaction.atomic` service. Each one first locks the
campaign's `MoralePool` row: that one lock serialises every change of the table (payments, Moral
moves, consequences) and keeps the log's event ids in commit order, so a poller reading
`?after=<id>` can never skip an event committed late. Sheets are then locked and written through
`characters.services.character_update` (version bump and history, as every sheet edit).

Rules come from `rules/`: the check and its odds (§5), the Moral state machine (§6), the special
states and the Aggravation table (§7–§8). Nothing here re-implements a rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from campaigns.models import Arc, ArcStatus, Campaign, Role
from campaigns.policy import is_storyteller
from characters.models import Character, SpecialState
from characters.services import character_update, rule_error_to_validation_error
from rules import morale as rules_morale
from rules import reference
from rules import sheet as rules_sheet
from rules import states as rules_states
from rules.check import (
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    Breakdown,
    Check,
    RandomSource,
    combined_skill,
    roll_check,
    system_rng,
)
from rules.errors import RuleError
from rules.gauges import Gauge
from sessions.models import (
    Injury,
    MoralePool,
    PlaySession,
    Roll,
    TableEvent,
    TableEventKind,
    Visibility,
)

# §1: the nine main characteristics, then the six secondary ones (column and row scores).
MAIN_CHARACTERISTICS: tuple[str, ...] = reference.CHARACTERISTICS
SECONDARY_CHARACTERISTICS: tuple[str, ...] = (*reference.COLUMNS, *reference.ROWS)
CHARACTERISTIC_KEYS: tuple[str, ...] = (*MAIN_CHARACTERISTICS, *SECONDARY_CHARACTERISTICS)
ROLLED_SKILLS: tuple[reference.Skill, ...] = tuple(s for s in reference.SKILLS if s.rolled)
GROUP, PERSONAL = rules_morale.GROUP, rules_morale.PERSONAL
MAX_DICE_INPUT = 20


def characteristic_label(key: str) -> str:
    return reference.LABELS.get(key, key)


def skill_label(key: str) -> str:
    skill = reference.SKILLS_BY_KEY.get(key)
    return skill.label if skill else key


# --- the check's inputs ----------------------------------------------------------------------


@dataclass(frozen=True)
class RollRequest:
    """What a player declares before rolling (§5), shape-checked by forms and serializers.

    `boon`/`bane` are the dice the situation adds (the Conteur's call); the sheet's own dice
    (Épuisement, Découragement, Descente, special states) and Agonie are added by the service.
    `impact` buys boon dice with Impact points; `hope` buys +1 each. The hope options cost one
    hope point each, the despair options one despair point each, from `*_source`."""

    characteristic: str
    skills: tuple[str, ...] = ()
    complexity: int = 0
    difficulty: int = 0
    expertise: bool = False
    boon: int = 0
    bane: int = 0
    impact: int = 0
    hope: int = 0
    hope_source: str = PERSONAL
    cancel_critical_failure: bool = False
    substitute: bool = False  # hope: Puissance for a main characteristic, Harmonie for a secondary
    despair_source: str = PERSONAL
    narrow_success: bool = False
    fury: bool = False  # despair: enter Acharnement
    fortune_fate: bool = False  # despair: every character +1 Fortune, the Conteur +1 Fatalité
    # A roll with no character (the Conteur's NPC) gives its values directly.
    characteristic_value: int | None = None
    skill_level: int | None = None
    label: str = ""
    injuries: tuple[int, ...] = ()  # the roller's injuries that hinder this roll (§8)

    @property
    def hope_points(self) -> int:
        return self.hope + int(self.cancel_critical_failure) + int(self.substitute)

    @property
    def despair_points(self) -> int:
        return int(self.narrow_success) + int(self.fury) + int(self.fortune_fate)

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["skills"] = list(self.skills)
        data["injuries"] = list(self.injuries)
        return data


@dataclass(frozen=True)
class Cause:
    """A die or point the sheet adds by itself, with its French cause, shown beside the form."""

    kind: str  # "boon" | "bane" | "agony"
    count: int
    label: str


@dataclass(frozen=True)
class PreparedCheck:
    """The engine's Check and how it was made: values used and the sheet's automatic dice."""

    check: Check
    characteristic_value: int
    skill_level: int
    causes: tuple[Cause, ...] = ()
    substituted_by: str = ""  # "might" | "harmony" when hope replaces the characteristic


def _characteristics(character: Character) -> rules_sheet.Characteristics:
    return rules_sheet.Characteristics(
        **{name: getattr(character, name) for name in MAIN_CHARACTERISTICS}
    )


def characteristic_value(character: Character, key: str) -> int:
    """A main characteristic as stored, or a secondary one (column or row score) from the rules."""
    if key in MAIN_CHARACTERISTICS:
        return getattr(character, key)
    chars = _characteristics(character)
    if key in reference.COLUMNS:
        return rules_sheet.column_score(chars, key)
    return rules_sheet.row_score(chars, key)


def is_discouraged(character: Character) -> bool:
    """Découragement: Confiance collapsed (§8), computed by the rules engine."""
    gauge = Gauge(
        maximum=rules_sheet.gauge_maximum(character.premice_confidence, character.exaltation),
        current=character.confidence_current,
        scars=character.confidence_scars,
        ephemeral=character.confidence_ephemeral,
        stabilised=character.confidence_stabilised,
    )
    return rules_states.gauge_collapsed(gauge)


def _state(character: Character | None) -> str | None:
    if character is None or character.special_state == SpecialState.NONE:
        return None
    return character.special_state


def condition_of(character: Character) -> rules_states.Condition:
    return rules_states.Condition(
        fragility=character.fragility,
        exhaustion=character.exhaustion,
        aggravation=character.aggravation,
        agony=character.agony,
        agony_locked=character.agony_locked,
        state=_state(character),
        discouraged=is_discouraged(character),
    )


def sheet_causes(character: Character | None) -> tuple[Cause, ...]:
    """The boon and bane dice and the Agonie the sheet implies on every roll (§5, §7, §8)."""
    if character is None:
        return ()
    condition = condition_of(character)
    state = condition.state
    causes: list[Cause] = []
    boon, bane = rules_states.state_dice(state)
    if boon:
        causes.append(Cause("boon", boon, rules_states.STATE_LABELS[state]))
    if condition.exhaustion:
        causes.append(Cause("bane", condition.exhaustion, f"Épuisement {condition.exhaustion}"))
    if condition.discouraged:
        causes.append(Cause("bane", 1, "Découragement"))
    if bane:
        causes.append(Cause("bane", bane, rules_states.STATE_LABELS[state]))
    agony = rules_states.effective_agony(condition.agony, state)
    if agony:
        causes.append(Cause("agony", agony, f"Agonie {agony}"))
    elif condition.agony:
        causes.append(Cause("agony", 0, f"Agonie {condition.agony} ignorée (état spécial)"))
    return tuple(causes)


SCOPE_LABELS = {
    "limb": "jets usant de ce membre",
    "hearing": "Perception auditive",
    "sight": "Perception visuelle, vision en profondeur",
}


def injury_effect(injury: Injury) -> reference.AggravationEffect | None:
    """The Aggravation table's effect an injury came from (§8)."""
    return next(
        (e for e in reference.AGGRAVATION_TABLE.get(injury.row, ()) if e.key == injury.effect), None
    )


def is_lasting(effect: reference.AggravationEffect) -> bool:
    """Effects that stay on the character until healed: impuissance dice, an unusable or lost
    limb, a harder rest, an Agonie held by the wound."""
    return bool(
        effect.bane_dice
        or effect.unusable_limb
        or effect.lost_limb
        or effect.harder_rest_gauges
        or effect.agony_locked_until_healed
    )


def injury_label(injury: Injury) -> str:
    effect = injury_effect(injury)
    if effect is None:
        return injury.effect
    if effect.bane_dice:
        scope = SCOPE_LABELS.get(effect.bane_scope, effect.bane_scope)
        return f"{effect.label} : {effect.bane_dice} dé d'impuissance ({scope})"
    return f"{effect.label} : {effect.description}"


def open_injuries(character_ids: Iterable[int]) -> list[Injury]:
    """The unhealed injuries of these characters (one query), oldest first."""
    return list(
        Injury.objects.filter(character_id__in=list(character_ids), healed_at__isnull=True)
        .select_related("character")
        .order_by("created_at", "pk")
    )


def _skill_rows(character: Character) -> dict[str, Any]:
    return {row.key: row for row in character.skills.all()}


def _violation(field: str, message: str) -> ValidationError:
    return ValidationError({field: message})


def check_prepare(
    *,
    request: RollRequest,
    character: Character | None,
    state: str | None = None,
    injuries: Sequence[Injury] = (),
) -> PreparedCheck:
    """Turn a declaration and a sheet into the engine's Check (§5), with the sheet's own dice.

    `state` overrides the character's special state (a roll that enters Acharnement first);
    `injuries` are the roller's injuries the player says hinder this roll (their dice, §8)."""
    if request.characteristic not in CHARACTERISTIC_KEYS:
        raise _violation("characteristic", "Cette caractéristique n'existe pas.")
    if character is None:
        if request.characteristic_value is None:
            raise _violation(
                "characteristic_value", "Sans personnage, donnez la valeur de la caractéristique."
            )
        value = request.characteristic_value
        level = request.skill_level or 0
        substituted = ""
        causes: tuple[Cause, ...] = ()
        condition = rules_states.Condition()
    else:
        if state is not None:
            character = _with_state(character, state)
        rows = _skill_rows(character)
        levels = []
        for key in request.skills:
            row = rows.get(key)
            skill = reference.SKILLS_BY_KEY.get(key)
            if skill is not None and not skill.rolled:
                raise _violation(
                    "skills", f"{skill.label} est une compétence théorique : elle ne se lance pas."
                )
            if skill is None and row is None:
                raise _violation("skills", f"Compétence inconnue : « {key} ».")
            levels.append(row.level if row is not None else 0)
        if request.expertise and not any(
            rows.get(key) is not None and rows[key].expertises for key in request.skills
        ):
            raise _violation(
                "expertise", "Ce personnage n'a aucune expertise dans la compétence lancée."
            )
        level = combined_skill(*levels)
        value = characteristic_value(character, request.characteristic)
        substituted = ""
        if request.substitute:
            chars = _characteristics(character)
            if request.characteristic in MAIN_CHARACTERISTICS:
                value, substituted = rules_sheet.might(chars), "might"
            else:
                value, substituted = rules_sheet.harmony(chars), "harmony"
        causes = sheet_causes(character)
        condition = condition_of(character)
    agony = rules_states.effective_agony(condition.agony, condition.state)
    injury_bane = 0
    for injury in injuries:
        effect = injury_effect(injury)
        if effect is not None and effect.bane_dice:
            injury_bane += effect.bane_dice
            causes = (*causes, Cause("bane", effect.bane_dice, f"Blessure : {effect.label}"))
    try:
        check = Check(
            skill=level,
            complexity=request.complexity,
            characteristic=value,
            difficulty=request.difficulty,
            expertise=request.expertise,
            boon=request.boon + rules_states.boon_dice(condition, impact_points=request.impact),
            bane=request.bane + rules_states.bane_dice(condition, injury_bane=injury_bane),
            hope=request.hope,
            agony=agony,
            cancel_critical_failure=request.cancel_critical_failure,
            narrow_success=request.narrow_success,
        )
    except RuleError as error:
        raise rule_error_to_validation_error(error) from error
    return PreparedCheck(check, value, level, causes, substituted)


def _with_state(character: Character, state: str) -> Character:
    clone = Character(**{f.attname: getattr(character, f.attname) for f in Character._meta.fields})
    clone.special_state = state
    clone._prefetched_objects_cache = getattr(character, "_prefetched_objects_cache", {})
    return clone


# --- the Moral pool and its members -----------------------------------------------------------


def player_characters(campaign: Campaign | int) -> QuerySet[Character]:
    """The group: characters whose owner is a player of the campaign (capacity = their number)."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    return Character.objects.filter(
        campaign_id=campaign_id,
        owner__memberships__campaign_id=campaign_id,
        owner__memberships__role=Role.PLAYER,
    ).order_by("pk")


def member_keys(characters: Iterable[Character]) -> dict[int, str]:
    """The name each character has in the Moral's messages: its name, made unique if needed."""
    characters = list(characters)
    names = [c.name for c in characters]
    return {c.pk: c.name if names.count(c.name) == 1 else f"{c.name} ({c.pk})" for c in characters}


def morale_of(pool: MoralePool, characters: list[Character]) -> rules_morale.Morale:
    keys = member_keys(characters)
    return rules_morale.Morale(
        hope=pool.hope,
        despair=pool.despair,
        members=tuple(
            rules_morale.Member(
                key=keys[c.pk],
                exaltation=c.exaltation,
                hope=c.personal_hope,
                despair=c.personal_despair,
                serenity=c.special_state == SpecialState.SERENITY,
            )
            for c in characters
        ),
    )


def _lock_pool(campaign: Campaign | int) -> MoralePool:
    """Lock (and create on first use) the campaign's Moral row: the table's one lock."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    pool = MoralePool.objects.select_for_update().filter(campaign_id=campaign_id).first()
    if pool is None:
        MoralePool.objects.bulk_create([MoralePool(campaign_id=campaign_id)], ignore_conflicts=True)
        pool = MoralePool.objects.select_for_update().get(campaign_id=campaign_id)
    return pool


def _lock_members(campaign: Campaign | int) -> list[Character]:
    return list(player_characters(campaign).select_for_update(of=("self",)))


def _sheet_write(character: Character, changes: dict[str, Any], by) -> Character:
    """Write sheet values through the sheets' own service (lock, version bump, history)."""
    changed = {k: v for k, v in changes.items() if getattr(character, k) != v}
    if not changed:
        return character
    saved = character_update(
        character=character.pk, changes=changed, version=None, by=by, storyteller=True
    )
    for name, value in changed.items():
        setattr(character, name, value)
    character.version = saved.version
    return character


def _write_morale(
    *,
    pool: MoralePool,
    before: rules_morale.Morale,
    after: rules_morale.Morale,
    characters: list[Character],
    by,
    extra: dict[int, dict[str, Any]] | None = None,
) -> None:
    """Save the pool and each character's personal points (and `extra` sheet changes)."""
    violations = rules_morale.morale_violations(after)
    if violations:
        raise ValidationError(violations)
    if (pool.hope, pool.despair) != (after.hope, after.despair):
        pool.hope, pool.despair = after.hope, after.despair
        pool.save(update_fields=["hope", "despair", "updated_at"])
    keys = member_keys(characters)
    extra = extra or {}
    for character in characters:
        member = after.member(keys[character.pk])
        changes = {"personal_hope": member.hope, "personal_despair": member.despair}
        changes.update(extra.get(character.pk, {}))
        _sheet_write(character, changes, by)


def _log(
    *,
    campaign_id: int,
    kind: str,
    summary: str,
    by,
    visibility: str = Visibility.PUBLIC,
    character: Character | None = None,
    roll: Roll | None = None,
    payload: dict[str, Any] | None = None,
) -> TableEvent:
    return TableEvent.objects.create(
        campaign_id=campaign_id,
        kind=kind,
        visibility=visibility,
        actor=by,
        character=character,
        roll=roll,
        summary=summary[:500],
        payload=payload or {},
    )


def _rule_call(call: Callable[[], Any]) -> Any:
    """Run a rules transition; its French refusals become one ValidationError about the move
    (the engine's field names, "group" or "hope", are not this request's fields)."""
    try:
        return call()
    except RuleError as error:
        raise ValidationError([v.message for v in error.violations]) from error


def _require_controller(campaign: Campaign, character: Character, by) -> None:
    if character.owner_id != by.pk and not is_storyteller(campaign):
        raise PermissionDenied("Seuls le joueur du personnage et le Conteur peuvent faire cela.")


def _member_character(characters: list[Character], pk: int | None, field: str) -> Character:
    for character in characters:
        if character.pk == pk:
            return character
    raise _violation(field, "Ce personnage ne fait pas partie du groupe.")


# --- rolls ------------------------------------------------------------------------------------


def arc_open(campaign_id: int) -> Arc | None:
    return (
        Arc.objects.filter(campaign_id=campaign_id, status=ArcStatus.OPEN)
        .order_by("-created_at", "-pk")
        .first()
    )


def _visibility_allowed(campaign: Campaign, visibility: str) -> str:
    storyteller = is_storyteller(campaign)
    if visibility not in Visibility.values:
        raise _violation("visibility", "Visibilité inconnue.")
    if storyteller and visibility == Visibility.STORYTELLER:
        return Visibility.HIDDEN  # the Conteur's secret roll is hidden from everyone
    if not storyteller and visibility == Visibility.HIDDEN:
        raise _violation(
            "visibility", "Seul le Conteur peut cacher un jet ; choisissez « secret »."
        )
    return visibility


def roll_summary(roll: Roll, who: str) -> str:
    skills = " / ".join(skill_label(k) for k in roll.skills) or "sans compétence"
    label = f" — {roll.label}" if roll.label else ""
    outcome = roll.breakdown.get("outcome_label", roll.outcome)
    zone = " · Zone !" if roll.zone else ""
    return (
        f"{who} : {characteristic_label(roll.characteristic)} + {skills}{label} → "
        f"{roll.total} contre {roll.target}, {outcome}{zone}"
    )


@transaction.atomic
def roll_create(
    *,
    campaign: Campaign,
    by,
    request: RollRequest,
    character_id: int | None,
    idempotency_key: str,
    visibility: str = Visibility.PUBLIC,
    play_session: PlaySession | None = None,
    rng: RandomSource | None = None,
) -> Roll:
    """Roll a check on the server and store it with its breakdown, paying for it atomically.

    Impact points (boon dice), hope and despair are deducted in the same transaction: a roll that
    cannot be paid for raises ValidationError and changes nothing. The same idempotency key from
    the same user returns the roll already stored (`roll.created` is False then).
    `campaign.membership` must be the caller's (from `campaigns.policy`)."""
    if not idempotency_key or len(idempotency_key) > 64:
        raise _violation("idempotency_key", "Clé d'idempotence manquante ou trop longue.")
    pool = _lock_pool(campaign)
    existing = _existing_roll(campaign=campaign, by=by, key=idempotency_key)
    if existing is not None:
        return existing
    visibility = _visibility_allowed(campaign, visibility)
    try:
        with transaction.atomic():
            roll = _roll_and_pay(
                campaign=campaign,
                pool=pool,
                by=by,
                request=request,
                character_id=character_id,
                idempotency_key=idempotency_key,
                visibility=visibility,
                play_session=play_session,
                rng=rng,
            )
    except IntegrityError:
        existing = _existing_roll(campaign=campaign, by=by, key=idempotency_key)
        if existing is None:
            raise
        return existing
    roll.created = True
    return roll


def roller_injuries(character: Character | None, ids: Sequence[int]) -> list[Injury]:
    """The injuries a roll declares, which must be the roller's and not healed."""
    if not ids:
        return []
    wanted = set(ids)
    found = [i for i in open_injuries([character.pk]) if i.pk in wanted] if character else []
    if len(found) != len(wanted):
        raise _violation(
            "injuries", "Cette blessure n'est pas (ou plus) celle du personnage qui lance."
        )
    return found


def _existing_roll(*, campaign: Campaign, by, key: str) -> Roll | None:
    roll = Roll.objects.filter(rolled_by=by, idempotency_key=key).first()
    if roll is None:
        return None
    if roll.campaign_id != campaign.pk:
        raise _violation("idempotency_key", "Cette clé d'idempotence sert déjà à un autre jet.")
    roll.created = False
    return roll


def _roll_and_pay(
    *,
    campaign: Campaign,
    pool: MoralePool,
    by,
    request: RollRequest,
    character_id: int | None,
    idempotency_key: str,
    visibility: str,
    play_session: PlaySession | None,
    rng: RandomSource | None,
) -> Roll:
    character = None
    members: list[Character] = []
    needs_morale = request.hope_points or request.despair_points or request.fortune_fate
    if character_id is None:
        if not is_storyteller(campaign):
            raise _violation("character", "Choisissez le personnage qui lance.")
        if needs_morale or request.impact:
            raise _violation(
                "character", "Un jet sans personnage ne peut dépenser ni Impact ni Moral."
            )
    else:
        if needs_morale:
            members = _lock_members(campaign)
        character = next((c for c in members if c.pk == character_id), None)
        if character is None:
            character = (
                Character.objects.select_for_update(of=("self",))
                .filter(pk=character_id, campaign=campaign)
                .first()
            )
        if character is None:
            raise _violation("character", "Ce personnage n'existe pas dans la campagne.")
        _require_controller(campaign, character, by)

    changes: dict[int, dict[str, Any]] = {}
    state = None
    if character is not None and request.impact:
        if request.impact > character.impact_points:
            raise _violation(
                "impact",
                f"{character.name} n'a que {character.impact_points} point(s) d'Impact.",
            )
        changes.setdefault(character.pk, {})["impact_points"] = (
            character.impact_points - request.impact
        )
    if request.fury:
        if not rules_states.may_enter(rules_states.FURY, spent_despair=True):
            raise _violation("fury", "Impossible d'entrer en Acharnement.")
        state = rules_states.FURY
        changes.setdefault(character.pk, {})["special_state"] = SpecialState.FURY

    injuries = roller_injuries(character, request.injuries)
    prepared = check_prepare(request=request, character=character, state=state, injuries=injuries)

    morale_events: list[rules_morale.MoraleEvent] = []
    if needs_morale:
        before = morale_of(pool, members)
        key = member_keys(members).get(character.pk)
        if key is None:
            raise _violation("hope_source", "Seuls les personnages des joueurs utilisent le Moral.")
        after = before
        for _ in range(request.hope_points):
            after, events = _rule_call(
                lambda a=after: rules_morale.spend_hope(a, key, request.hope_source)
            )
            morale_events += events
        for _ in range(request.despair_points):
            after, events = _rule_call(
                lambda a=after: rules_morale.spend_despair(a, key, request.despair_source)
            )
            morale_events += events
        if request.fortune_fate:
            for member in members:
                fortune = changes.get(member.pk, {}).get("fortune", member.fortune)
                changes.setdefault(member.pk, {})["fortune"] = rules_states.gain_capped(
                    fortune, reference.FORTUNE_MAX
                )
            pool.fate = rules_states.gain_capped(pool.fate, reference.FATE_MAX)
            pool.save(update_fields=["fate", "updated_at"])
            morale_events.append(
                rules_morale.MoraleEvent(
                    "fortune_fate", "Chaque personnage gagne 1 Fortune, le Conteur 1 Fatalité."
                )
            )
        _write_morale(
            pool=pool, before=before, after=after, characters=members, by=by, extra=changes
        )
    elif character is not None and changes:
        _sheet_write(character, changes[character.pk], by)

    breakdown: Breakdown = roll_check(prepared.check, rng)
    roll = Roll.objects.create(
        campaign=campaign,
        play_session=play_session,
        arc=arc_open(campaign.pk),
        character=character,
        label=request.label[:120],
        rolled_by=by,
        visibility=visibility,
        characteristic=request.characteristic,
        skills=list(request.skills),
        inputs={
            **request.to_dict(),
            "characteristic_value": prepared.characteristic_value,
            "skill_level": prepared.skill_level,
            "substituted_by": prepared.substituted_by,
            "causes": [c.__dict__ for c in prepared.causes],
            "check": {
                "skill": prepared.check.skill,
                "complexity": prepared.check.complexity,
                "characteristic": prepared.check.characteristic,
                "difficulty": prepared.check.difficulty,
                "expertise": prepared.check.expertise,
                "boon": prepared.check.boon,
                "bane": prepared.check.bane,
                "hope": prepared.check.hope,
                "agony": prepared.check.agony,
            },
        },
        breakdown=breakdown.to_dict(),
        outcome=breakdown.outcome,
        total=breakdown.total,
        target=breakdown.target,
        margin=breakdown.margin,
        zone=breakdown.zone,
        idempotency_key=idempotency_key,
    )
    who = character.name if character is not None else (request.label or "PNJ")
    _log(
        campaign_id=campaign.pk,
        kind=TableEventKind.ROLL,
        summary=roll_summary(roll, who),
        by=by,
        visibility=visibility,
        character=character,
        roll=roll,
    )
    if morale_events:
        _log(
            campaign_id=campaign.pk,
            kind=TableEventKind.MORALE,
            summary=" ".join(e.message for e in morale_events),
            by=by,
            character=character,
            payload={
                "move": "roll",
                "events": [e.to_dict() for e in morale_events],
                "state": {"hope": pool.hope, "despair": pool.despair, "fate": pool.fate},
            },
        )
    return roll


# --- the Moral --------------------------------------------------------------------------------

GAIN_HOPE = "gain_hope"
GAIN_DESPAIR = "gain_despair"
GAIN_PERSONAL_HOPE = "gain_personal_hope"
GAIN_PERSONAL_DESPAIR = "gain_personal_despair"
SPEND_HOPE = "spend_hope"
SPEND_DESPAIR = "spend_despair"
HOPE_EXPLOIT = "hope_exploit"
DESPAIR_EXPLOIT = "despair_exploit"
STATE_ENTER = "state_enter"
STATE_END = "state_end"
SERENITY_EFFECT = "serenity_effect"
MORALE_ACTIONS: dict[str, str] = {
    GAIN_HOPE: "Le groupe gagne 1 espoir",
    GAIN_DESPAIR: "Le groupe gagne 1 désespoir",
    GAIN_PERSONAL_HOPE: "Espoir personnel +1",
    GAIN_PERSONAL_DESPAIR: "Désespoir personnel +1",
    SPEND_HOPE: "Dépenser 1 espoir",
    SPEND_DESPAIR: "Dépenser 1 désespoir",
    HOPE_EXPLOIT: "Exploit d'espoir",
    DESPAIR_EXPLOIT: "Exploit de désespoir",
    STATE_ENTER: "Entrer dans un état spécial",
    STATE_END: "Fin de l'état spécial",
    SERENITY_EFFECT: "Effet d'Apaisement",
}
STORYTELLER_ACTIONS = frozenset(
    {GAIN_HOPE, GAIN_DESPAIR, GAIN_PERSONAL_HOPE, GAIN_PERSONAL_DESPAIR, HOPE_EXPLOIT,
     DESPAIR_EXPLOIT, STATE_END}
)  # fmt: skip
ENTERABLE_STATES = (rules_states.FURY, rules_states.BLAZE, rules_states.SERENITY)


@dataclass
class MoraleChange:
    """What a Moral move did: the logged event, and the exploit's dice if any."""

    event: TableEvent
    state: rules_morale.Morale
    exploit: rules_morale.ExploitResult | None = None
    fragility: list[int] = field(default_factory=list)  # characters who took 1 Fragilité


@transaction.atomic
def morale_change(
    *,
    campaign: Campaign,
    by,
    action: str,
    character_id: int | None = None,
    source: str = GROUP,
    taker_id: int | None = None,
    agreeing: Collection[int] = (),
    state: str = "",
    effect: str = "",
    rng: RandomSource | None = None,
) -> MoraleChange:
    """Apply one Moral move (§6, §7) with the rules engine, under the campaign's Moral lock.

    Gains, exploits and the end of a state are the Conteur's; a player spends and enters states
    for its own character. Refused moves raise ValidationError (or PermissionDenied) and change
    nothing; accepted ones are logged with the move, so the log replays the Moral exactly."""
    if action not in MORALE_ACTIONS:
        raise _violation("action", "Action de Moral inconnue.")
    if action in STORYTELLER_ACTIONS and not is_storyteller(campaign):
        raise PermissionDenied("Seul le Conteur peut faire cela.")
    pool = _lock_pool(campaign)
    members = _lock_members(campaign)
    keys = member_keys(members)
    before = morale_of(pool, members)
    character = None
    if character_id is not None or action not in (
        GAIN_HOPE,
        GAIN_DESPAIR,
        HOPE_EXPLOIT,
        DESPAIR_EXPLOIT,
    ):
        character = _member_character(members, character_id, "character")
        _require_controller(campaign, character, by)
    key = keys[character.pk] if character is not None else None
    taker = None
    if taker_id is not None:
        taker = keys[_member_character(members, taker_id, "taker").pk]
    move: dict[str, Any] = {"action": action, "character": key, "source": source, "taker": taker}
    exploit = None
    extra: dict[int, dict[str, Any]] = {}
    if action == GAIN_HOPE:
        after, events = _rule_call(lambda: rules_morale.gain_hope(before, taker))
    elif action == GAIN_DESPAIR:
        after, events = _rule_call(lambda: rules_morale.gain_despair(before, taker))
    elif action == GAIN_PERSONAL_HOPE:
        after, events = _rule_call(lambda: rules_morale.gain_personal_hope(before, key))
    elif action == GAIN_PERSONAL_DESPAIR:
        after, events = _rule_call(lambda: rules_morale.gain_personal_despair(before, key))
    elif action == SPEND_HOPE:
        after, events = _rule_call(lambda: rules_morale.spend_hope(before, key, source))
    elif action == SPEND_DESPAIR:
        after, events = _rule_call(lambda: rules_morale.spend_despair(before, key, source))
    elif action in (HOPE_EXPLOIT, DESPAIR_EXPLOIT):
        agreeing_keys = [keys[pk] for pk in agreeing if pk in keys]
        move["agreeing"] = agreeing_keys
        exploit_fn = (
            rules_morale.hope_exploit if action == HOPE_EXPLOIT else rules_morale.despair_exploit
        )
        after, events, exploit = _rule_call(lambda: exploit_fn(before, agreeing_keys, rng))
        move["dice"] = list(exploit.dice)
    elif action == SERENITY_EFFECT:
        if effect not in ("hope", "despair"):
            raise _violation("effect", "Choisissez un effet d'espoir ou de désespoir.")
        move["effect"] = effect
        after, events = _rule_call(lambda: rules_morale.serenity_effect(before, key, effect))
    elif action == STATE_ENTER:
        after, events = _state_enter(before, character, key, state, source, extra)
        move["state"] = state
    else:  # STATE_END
        after, events = _state_end(before, character, extra)
    fragile: list[int] = []
    for event in events:
        if event.kind == "fragility" and event.member is not None:
            victim = next(c for c in members if keys[c.pk] == event.member)
            current = extra.get(victim.pk, {}).get("fragility", victim.fragility)
            condition = rules_states.add_fragility(rules_states.Condition(fragility=current))
            extra.setdefault(victim.pk, {})["fragility"] = condition.fragility
            fragile.append(victim.pk)
    _write_morale(pool=pool, before=before, after=after, characters=members, by=by, extra=extra)
    summary = " ".join(e.message for e in events) or MORALE_ACTIONS[action]
    event = _log(
        campaign_id=campaign.pk,
        kind=TableEventKind.MORALE,
        summary=summary,
        by=by,
        character=character,
        payload={
            "move": move,
            "events": [e.to_dict() for e in events],
            "state": {"hope": after.hope, "despair": after.despair, "fate": pool.fate},
        },
    )
    return MoraleChange(event=event, state=after, exploit=exploit, fragility=fragile)


def _state_enter(
    before: rules_morale.Morale,
    character: Character,
    key: str,
    state: str,
    source: str,
    extra: dict[int, dict[str, Any]],
) -> rules_morale.Transition:
    """Enter Acharnement (spend despair), Flamboyance (spend hope while Galvanisé) or Apaisement
    (while Calme), §7. Zone comes from a roll (`consequence_apply`)."""
    if state not in ENTERABLE_STATES:
        raise _violation("state", "On n'entre pas dans cet état depuis le Moral.")
    label = rules_states.STATE_LABELS[state]
    after, events = before, []
    if state == rules_states.FURY:
        after, events = _rule_call(lambda: rules_morale.spend_despair(before, key, source))
        allowed = rules_states.may_enter(state, spent_despair=True)
    elif state == rules_states.BLAZE:
        if not before.galvanized:
            raise _violation("state", "Flamboyance : le groupe doit être Galvanisé.")
        after, events = _rule_call(lambda: rules_morale.spend_hope(before, key, source))
        allowed = rules_states.may_enter(state, spent_hope=True, galvanized=True)
    else:
        allowed = rules_states.may_enter(state, calm=before.is_calm(key))
    if not allowed:
        raise _violation(
            "state", f"{character.name} ne peut pas entrer en {label} : il faut être Calme."
        )
    extra.setdefault(character.pk, {})["special_state"] = state
    event = rules_morale.MoraleEvent("state_entered", f"{character.name} entre en {label}.", key)
    return after, [*events, event]


def _state_end(
    before: rules_morale.Morale, character: Character, extra: dict[int, dict[str, Any]]
) -> rules_morale.Transition:
    """End the character's special state (§7): Descente and Fragilité from the rules engine."""
    condition = condition_of(character)
    if condition.state not in rules_states.SPECIAL_STATES:
        raise _violation("state", f"{character.name} n'est dans aucun état spécial.")
    ended = rules_states.end_state(condition)
    extra.setdefault(character.pk, {}).update(
        special_state=ended.state or SpecialState.NONE, fragility=ended.fragility
    )
    label = rules_states.STATE_LABELS[condition.state]
    then = rules_states.STATE_LABELS.get(ended.state, "aucun état")
    message = f"Fin de {label} pour {character.name} : {then}"
    if ended.fragility > condition.fragility:
        message += ", +1 Fragilité"
    return before, [rules_morale.MoraleEvent("state_ended", message + ".")]


# --- consequences of a roll (§5, §8, §14) -----------------------------------------------------

CRITICAL = "critical"
FORTUNE = "fortune"
FATE = "fate"
ZONE = "zone"
CONSEQUENCES = {
    CRITICAL: "Critique subi",
    FORTUNE: "Fortune",
    FATE: "Fatalité",
    ZONE: "Entrer dans la Zone",
}
RESILIENCE, TABLE = "resilience", "table"


def consequences_available(roll: Roll) -> list[str]:
    """The one-click consequences a roll allows that were not applied yet."""
    found = []
    if roll.outcome in (CRITICAL_FAILURE, CRITICAL_SUCCESS):
        found.append(CRITICAL)
    if roll.outcome == CRITICAL_SUCCESS and roll.character_id:
        found.append(FORTUNE)
    if roll.outcome == CRITICAL_FAILURE and roll.character_id:
        found.append(FATE)
    if roll.zone and roll.character_id:
        found.append(ZONE)
    return [kind for kind in found if kind not in roll.consequences]


@transaction.atomic
def consequence_apply(
    *,
    campaign: Campaign,
    by,
    roll_id: int,
    kind: str,
    victim_id: int | None = None,
    mode: str = TABLE,
    face: int | None = None,
    rng: RandomSource | None = None,
) -> TableEvent:
    """The Conteur applies a roll's consequence once: a critical suffered (Aggravation, then
    Résilience or the Aggravation table, §8), Fortune for a critical success (§14), Fatalité for a
    critical failure (§14) or the Zone (§7). Returns the logged event."""
    if not is_storyteller(campaign):
        raise PermissionDenied("Seul le Conteur applique les conséquences d'un jet.")
    pool = _lock_pool(campaign)
    roll = Roll.objects.select_for_update().filter(pk=roll_id, campaign=campaign).first()
    if roll is None:
        raise _violation("roll", "Ce jet n'existe pas dans la campagne.")
    if kind not in CONSEQUENCES:
        raise _violation("kind", "Conséquence inconnue.")
    if kind not in consequences_available(roll):
        raise _violation("kind", "Cette conséquence ne s'applique pas (ou plus) à ce jet.")
    character = None
    payload: dict[str, Any] = {"roll": roll.pk, "kind": kind}
    if kind == CRITICAL:
        victim_id = victim_id or (roll.character_id if roll.outcome == CRITICAL_FAILURE else None)
        if victim_id is None:
            raise _violation("victim", "Choisissez le personnage qui subit le critique.")
        character = _lock_character(campaign, victim_id, "victim")
        summary, details = _critical_suffered(character, mode, face, rng, by, roll)
        payload.update(details)
    elif kind == FORTUNE:
        character = _lock_character(campaign, roll.character_id, "roll")
        fortune = rules_states.gain_capped(character.fortune, reference.FORTUNE_MAX)
        _sheet_write(character, {"fortune": fortune}, by)
        summary = f"{character.name} gagne 1 Fortune (réussite critique) : {fortune}."
    elif kind == FATE:
        character = _lock_character(campaign, roll.character_id, "roll")
        pool.fate = rules_states.gain_capped(pool.fate, reference.FATE_MAX)
        pool.save(update_fields=["fate", "updated_at"])
        summary = f"Le Conteur gagne 1 Fatalité (échec critique de {character.name}) : {pool.fate}."
    else:
        character = _lock_character(campaign, roll.character_id, "roll")
        if not rules_states.may_enter(rules_states.ZONE, zone_roll=roll.zone):
            raise _violation("kind", "Ce jet n'est pas une Zone.")
        _sheet_write(character, {"special_state": SpecialState.ZONE}, by)
        summary = f"{character.name} entre dans la Zone."
    roll.consequences = [*roll.consequences, kind]
    roll.save(update_fields=["consequences"])
    return _log(
        campaign_id=campaign.pk,
        kind=TableEventKind.CONSEQUENCE,
        summary=summary,
        by=by,
        visibility=roll.visibility,
        character=character,
        roll=roll,
        payload=payload,
    )


def _lock_character(campaign: Campaign, pk: int | None, field_name: str) -> Character:
    character = (
        Character.objects.select_for_update(of=("self",)).filter(pk=pk, campaign=campaign).first()
    )
    if character is None:
        raise _violation(field_name, "Ce personnage n'existe pas dans la campagne.")
    return character


def _critical_suffered(
    character: Character, mode: str, face: int | None, rng: RandomSource | None, by, roll: Roll
) -> tuple[str, dict[str, Any]]:
    condition = rules_states.suffer_critical(condition_of(character))
    changes: dict[str, Any] = {"aggravation": condition.aggravation}
    details: dict[str, Any] = {"aggravation": condition.aggravation, "mode": mode}
    if mode == RESILIENCE:
        cost = rules_states.avoid_cost(condition.aggravation)
        if character.resilience_points < cost:
            raise _violation(
                "mode",
                f"{character.name} n'a que {character.resilience_points} point(s) de Résilience "
                f"; il en faut {cost} (Aggravation {condition.aggravation}).",
            )
        changes["resilience_points"] = character.resilience_points - cost
        summary = (
            f"{character.name} subit un critique (Aggravation {condition.aggravation}) et "
            f"dépense {cost} point(s) de Résilience pour l'éviter."
        )
    elif mode == TABLE:
        die = face if face is not None else (rng or system_rng()).randint(1, 10)
        effect = _rule_call(lambda: rules_states.aggravation_effect(character.fragility, die))
        after = rules_states.apply_aggravation(condition, effect)
        changes.update(
            fragility=after.fragility, agony=after.agony, agony_locked=after.agony_locked
        )
        details.update(die=die, chosen=face is not None, effect=effect.key)
        if is_lasting(effect):
            injury = Injury.objects.create(
                campaign_id=roll.campaign_id,
                character=character,
                row=min(character.fragility, 5),
                effect=effect.key,
                roll=roll,
            )
            details["injury"] = injury.pk
        how = "choisi par le Conteur" if face is not None else "tiré"
        summary = (
            f"{character.name} subit un critique (Aggravation {condition.aggravation}) : "
            f"d10 {how} {die} sur la ligne Fragilité {character.fragility} → "
            f"{effect.label} ({effect.description})"
        )
    else:
        raise _violation("mode", "Choisissez Résilience ou la table d'Aggravation.")
    _sheet_write(character, changes, by)
    return summary, details


@transaction.atomic
def injury_heal(*, campaign: Campaign, by, injury_id: int) -> TableEvent:
    """The Conteur marks an injury healed (§8): its dice stop; a stomach wound releases the
    Agonie it held. Logged."""
    if not is_storyteller(campaign):
        raise PermissionDenied("Seul le Conteur déclare une blessure guérie.")
    _lock_pool(campaign)
    injury = (
        Injury.objects.select_for_update()
        .filter(pk=injury_id, campaign=campaign, healed_at__isnull=True)
        .first()
    )
    if injury is None:
        raise _violation("injury", "Cette blessure n'existe pas ou est déjà guérie.")
    character = _lock_character(campaign, injury.character_id, "injury")
    injury.healed_at = timezone.now()
    injury.save(update_fields=["healed_at"])
    effect = injury_effect(injury)
    if effect is not None and effect.agony_locked_until_healed:
        still_held = Injury.objects.filter(
            character=character, healed_at__isnull=True, effect=injury.effect
        ).exists()
        if not still_held:
            _sheet_write(character, {"agony_locked": False}, by)
    label = effect.label if effect else injury.effect
    return _log(
        campaign_id=campaign.pk,
        kind=TableEventKind.CONSEQUENCE,
        summary=f"{character.name} : blessure guérie ({label}).",
        by=by,
        character=character,
        payload={"injury": injury.pk, "healed": True},
    )


def seeded_rng(seed: int | None) -> RandomSource | None:
    """A reproducible source for tests and demos; None means the OS's (production)."""
    return random.Random(seed) if seed is not None else None
