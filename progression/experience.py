"""Experience (§10–§11): the XP ledger, spending XP now, queueing and cancelling trainings, and
applying a finished improvement to the sheet.

The ledger (`XpEntry`) is append-only; a character's balance is the sum of its entries. XP held by
queued or running trainings is reserved: what a character may spend is balance − reserved.
Every rule (costs, once per act, opposition, durations, ellipse kinds) is the rules engine's.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q, Sum

from campaigns.models import Ability, Arc, Branch, CharacterClass
from characters import sheet
from characters.models import (
    CHARACTERISTIC_DB_MAX,
    ChangeAction,
    Character,
    CharacterChange,
    CharacterSkill,
    SkillKind,
)
from progression.models import (
    ArcAward,
    Ellipse,
    JobStatus,
    Training,
    TrainingStatus,
    XpEntry,
    XpEntryKind,
)
from rules import ellipse as rules_ellipse
from rules import experience as rules_xp
from rules import reference
from rules.errors import RuleError

ACTIVE = (TrainingStatus.QUEUED, TrainingStatus.RUNNING)
# Kinds the rules engine finishes at the end of an ellipse; a class and a branch do the same
# (the engine has no duration for them: they are learnt, not trained — §10).
END_OF_ELLIPSE_AS = {"class": "ability", "branch": "ability"}
FREE_KINDS = frozenset({"class", "branch"})
SPENDING_NOW = ("hope", "on_receipt")


def _error(reasons: list[str] | str, field: str = "__all__") -> ValidationError:
    return ValidationError({field: reasons if isinstance(reasons, list) else [reasons]})


def _rule_error(error: RuleError) -> ValidationError:
    messages: dict[str, list[str]] = {}
    for violation in error.violations:
        messages.setdefault(violation.field or "__all__", []).append(violation.message)
    return ValidationError(messages)


# --- reads: balances and the act record -----------------------------------------------------


def xp_balance(*, character: Character | int) -> int:
    """The sum of the character's ledger entries (one query)."""
    pk = character if isinstance(character, int) else character.pk
    return XpEntry.objects.filter(character_id=pk).aggregate(total=Sum("amount"))["total"] or 0


def xp_reserved(*, character: Character | int) -> int:
    pk = character if isinstance(character, int) else character.pk
    total = Training.objects.filter(character_id=pk, status__in=ACTIVE).aggregate(
        total=Sum("xp_reserved")
    )["total"]
    return total or 0


def xp_balances(*, character_ids: list[int]) -> dict[int, dict[str, int]]:
    """character id → {"balance", "reserved", "available"} for many characters (two queries)."""
    balances = dict(
        XpEntry.objects.filter(character_id__in=character_ids)
        .values("character_id")
        .annotate(total=Sum("amount"))
        .values_list("character_id", "total")
    )
    reserved = dict(
        Training.objects.filter(character_id__in=character_ids, status__in=ACTIVE)
        .values("character_id")
        .annotate(total=Sum("xp_reserved"))
        .values_list("character_id", "total")
    )
    return {
        pk: {
            "balance": balances.get(pk, 0),
            "reserved": reserved.get(pk, 0),
            "available": balances.get(pk, 0) - reserved.get(pk, 0),
        }
        for pk in character_ids
    }


def xp_available(*, character: Character | int) -> int:
    return xp_balance(character=character) - xp_reserved(character=character)


def ledger(*, character: Character) -> list[XpEntry]:
    return list(XpEntry.objects.filter(character=character).order_by("-created_at", "-pk"))


def current_arc(*, campaign_id: int) -> Arc | None:
    """The campaign's latest arc: its act is the current act."""
    return Arc.objects.filter(campaign_id=campaign_id).order_by("-created_at", "-pk").first()


def _rolled_in_arc(*, arc: Arc, character_id: int) -> frozenset[str]:
    """What the roll log says the character used during the arc (characteristics and skills)."""
    try:
        from sessions.selectors import used_in_arc
    except ImportError:  # the roll log is not there yet: the Conteur's ticks alone count
        return frozenset()
    used = used_in_arc(arc=arc, character_id=character_id).get(character_id)
    if used is None:
        return frozenset()
    return frozenset(used.characteristics) | frozenset(used.skills)


@dataclass(frozen=True)
class Context:
    """What spending needs to know about a character: its act record and XP."""

    record: rules_xp.ActRecord
    act: int | None
    arc: Arc | None
    available: int
    just_received: bool


def spending_context(*, character: Character) -> Context:
    """The character's act record (§10): improvements already made in the current act, what it
    used in the last closed arc (roll log + the Conteur's ticks), oppositions, and its XP."""
    arc = current_arc(campaign_id=character.campaign_id)
    act = arc.act if arc else None
    improved: set[tuple[str, str]] = set()
    if act is not None:
        for value in XpEntry.objects.filter(
            character=character, act=act, kind=XpEntryKind.SPEND
        ).values_list("improvement", flat=True):
            kind, _sep, target = value.partition(":")
            improved.add((kind, target))
        for kind, target in (
            Training.objects.filter(character=character, act=act)
            .exclude(status=TrainingStatus.CANCELLED)
            .values_list("kind", "target")
        ):
            improved.add((kind, target))
    awarded = (
        ArcAward.objects.filter(arc__campaign_id=character.campaign_id, arc__status="closed")
        .select_related("arc")
        .order_by("-arc__closed_at", "-pk")
        .first()
    )
    ticks: dict[str, Any] = {}
    used: frozenset[str] = frozenset()
    if awarded is not None:
        ticks = awarded.checklist.get("characters", {}).get(str(character.pk), {})
        used = _rolled_in_arc(arc=awarded.arc, character_id=character.pk)
    used = used | frozenset(ticks.get("used", []))
    level = ticks.get("opposition_level")
    opposition = {target: int(level) for target in _all_targets()} if level is not None else {}
    record = rules_xp.ActRecord(
        improved_this_act=frozenset(improved),
        used_in_arc=used,
        opposition_levels=opposition,
        faced_more_combative_enemy=bool(ticks.get("more_combative_enemy")),
        nearly_died=bool(ticks.get("nearly_died")),
        means_for=frozenset(ticks.get("means", [])),
    )
    # "Right when it is received" (§10): while the last arc is closed and paid, before the next.
    just_received = (
        awarded is not None
        and arc is not None
        and awarded.arc_id == arc.pk
        and awarded.status == JobStatus.DONE
    )
    return Context(
        record,
        act,
        awarded.arc if awarded else None,
        xp_available(character=character),
        just_received,
    )


def _all_targets() -> list[str]:
    return [*reference.CHARACTERISTICS, *reference.SKILLS_BY_KEY]


# --- improvements: what may be bought, and applying one --------------------------------------


@dataclass(frozen=True)
class Option:
    kind: str
    target: str
    label: str
    cost: int
    allowed: bool
    reasons: tuple[str, ...]
    detail: str = ""


def _skill_level(character: Character, key: str) -> int:
    row = next((s for s in character.skills.all() if s.key == key), None)
    return row.level if row else 0


def improvement_of(
    *, character: Character, kind: str, target: str, ability: Ability | None = None
) -> tuple[rules_xp.Improvement, str]:
    """The rules engine's Improvement for a kind and target, and its French label. An ability
    already loaded by the caller (`ability`) is used as is rather than looked up again."""
    if kind == "characteristic":
        if target not in reference.CHARACTERISTICS:
            raise _error("Cette caractéristique n'existe pas.", "target")
        return rules_xp.Improvement(kind, target), f"{reference.LABELS[target]} +1"
    if kind in ("skill", "specialty"):
        skill = reference.SKILLS_BY_KEY.get(target)
        if skill is None:
            raise _error("Cette compétence n'existe pas.", "target")
        level = _skill_level(character, target)
        label = f"{skill.label} {level + 1}" if kind == "skill" else f"Spécialité de {skill.label}"
        return rules_xp.Improvement(kind, target, level=level), label
    if kind == "forgotten_domain":
        if not target or target in reference.SKILLS_BY_KEY:
            raise _error("Nommez le domaine oublié.", "target")
        level = _skill_level(character, target)
        return rules_xp.Improvement(kind, target, level=level), f"{target} {level + 1}"
    if kind == "combativeness":
        return rules_xp.Improvement(kind), f"Combativité {character.combativeness + 1}"
    if kind == "ability":
        ability = ability or _compendium(Ability, character, target)
        return rules_xp.Improvement(kind, target, tier=ability.tier), f"Aptitude {ability.name}"
    raise _error("Ce type d'amélioration n'existe pas.", "kind")


def _compendium(model, character: Character, target: str):
    entry = (
        model.objects.filter(campaign_id=character.campaign_id, pk=target).first()
        if str(target).isdigit()
        else None
    )
    if entry is None:
        raise _error("Cette entrée n'existe pas dans le compendium de la campagne.", "target")
    return entry


def spending_options(*, character: Character, context: Context | None = None) -> list[Option]:
    """Every improvement the sheet can aim at, with its cost and whether it may be bought now
    (and if not, the rules engine's reasons). The character must have skills and abilities
    prefetched; abilities of the compendium cost one query."""
    context = context or spending_context(character=character)
    wanted: list[tuple[str, str]] = [("characteristic", c) for c in reference.CHARACTERISTICS]
    wanted += [("skill", s.key) for s in reference.SKILLS]
    wanted += [
        ("forgotten_domain", row.key)
        for row in character.skills.all()
        if row.kind == SkillKind.FORGOTTEN_DOMAIN
    ]
    wanted.append(("combativeness", ""))
    owned = {a.pk for a in character.abilities.all()}
    abilities = {
        str(a.pk): a
        for a in Ability.objects.filter(campaign_id=character.campaign_id).exclude(pk__in=owned)
    }
    wanted += [("ability", pk) for pk in abilities]
    options = []
    for kind, target in wanted:
        improvement, label = improvement_of(
            character=character, kind=kind, target=target, ability=abilities.get(target)
        )
        allowed, reasons = rules_xp.can_spend(improvement, context.record, context.available)
        options.append(
            Option(kind, target, label, rules_xp.xp_cost(improvement), allowed, tuple(reasons))
        )
    return options


@dataclass
class Applied:
    """What applying an improvement changed: history rows and the columns to save."""

    changes: dict[str, tuple[Any, Any]]
    columns: list[str]
    skill_rows: list[CharacterSkill]
    m2m: list[tuple[str, int]]  # (relation, entry id) to add


def apply_improvement(
    character: Character,
    *,
    kind: str,
    target: str,
    detail: str = "",
    skills: dict[str, CharacterSkill] | None = None,
) -> Applied:
    """Change the in-memory sheet for a finished improvement (nothing is saved here); raise
    ValidationError if it would leave the sheet impossible. `skills` are the character's rows."""
    skills = {s.key: s for s in character.skills.all()} if skills is None else skills
    applied = Applied({}, [], [], [])
    if kind == "characteristic":
        old = getattr(character, target)
        if old + 1 > CHARACTERISTIC_DB_MAX:
            raise _error("Cette caractéristique est déjà au plus haut.")
        setattr(character, target, old + 1)
        applied.changes[target] = (old, old + 1)
        applied.columns.append(target)
    elif kind == "combativeness":
        old = character.combativeness
        if old + 1 > reference.COMBATIVENESS_MAX:
            raise _error("La Combativité est déjà au plus haut.")
        character.combativeness = old + 1
        applied.changes["combativeness"] = (old, old + 1)
        applied.columns.append("combativeness")
    elif kind in ("skill", "forgotten_domain", "specialty"):
        row = skills.get(target)
        skill_kind = SkillKind.SKILL if kind != "forgotten_domain" else SkillKind.FORGOTTEN_DOMAIN
        if row is None:
            row = CharacterSkill(character=character, key=target, kind=skill_kind, level=0)
            skills[target] = row
        old = {"level": row.level, "expertises": list(row.expertises)}
        if kind == "specialty":
            name = (detail or "").strip()[:120]
            if not name:
                raise _error("Nommez la spécialité.", "detail")
            if name in row.expertises:
                raise _error("Le personnage a déjà cette spécialité.", "detail")
            row.expertises = [*row.expertises, name]
        else:
            if row.level + 1 > reference.SKILL_MAX:
                raise _error("Cette compétence est déjà au plus haut.")
            row.level += 1
        applied.changes[f"skills.{target}"] = (
            old,
            {"level": row.level, "expertises": list(row.expertises)},
        )
        applied.skill_rows.append(row)
    elif kind in ("ability", "class", "branch"):
        relation = {"ability": "abilities", "class": "classes", "branch": "branches"}[kind]
        applied.changes[relation] = (None, {"id": int(target), "name": detail})
        applied.m2m.append((relation, int(target)))
    else:
        raise _error("Ce type d'amélioration n'existe pas.", "kind")
    try:
        sheet.validate(character)
    except RuleError as error:
        raise _rule_error(error) from error
    return applied


def save_applied(character: Character, applied: Applied, *, by) -> None:
    """Write one character's applied improvement: columns, skill row, relation, version, history."""
    for row in applied.skill_rows:
        row.save()
    for relation, pk in applied.m2m:
        getattr(character, relation).add(pk)
    character.version += 1
    character.updated_by = by
    character.save(update_fields=[*applied.columns, "version", "updated_by", "updated_at"])
    CharacterChange.objects.bulk_create(
        CharacterChange(
            character=character,
            version=character.version,
            field=field,
            old_value=old,
            new_value=new,
            action=ChangeAction.EDIT,
            by=by,
        )
        for field, (old, new) in applied.changes.items()
    )


def _lock(character: Character | int) -> Character:
    pk = character if isinstance(character, int) else character.pk
    return (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "species")
        .prefetch_related("skills", "abilities", "classes", "branches")
        .get(pk=pk)
    )


# --- spending now ----------------------------------------------------------------------------


@transaction.atomic
def xp_spend(
    *,
    character: Character | int,
    kind: str,
    target: str = "",
    detail: str = "",
    mode: str,
    key: str | uuid.UUID,
    by,
) -> XpEntry:
    """Spend XP right away (§10: with a hope point, or right when it is received) and apply the
    improvement. `key` is the form's idempotency key: the same spend twice is paid once.
    Raises ValidationError with the rules engine's French reasons and changes nothing."""
    locked = _lock(character)
    source_key = f"spend:{key}"
    existing = XpEntry.objects.filter(character=locked, source_key=source_key).first()
    if existing is not None:
        return existing
    if mode not in SPENDING_NOW:
        raise _error("Dépensez avec un point d'espoir ou à la réception.", "mode")
    context = spending_context(character=locked)
    improvement, label = improvement_of(character=locked, kind=kind, target=target)
    allowed, reasons = rules_xp.can_spend(improvement, context.record, context.available)
    if mode == "hope" and locked.personal_hope < 1:
        reasons.append("Il faut un point d'espoir personnel pour dépenser ainsi.")
    if mode == "on_receipt" and not context.just_received:
        reasons.append(
            "L'expérience se dépense à la réception seulement juste après la fin d'un arc."
        )
    if reasons:
        raise _error(reasons)
    cost = rules_xp.xp_cost(improvement)
    applied = apply_improvement(locked, kind=kind, target=target, detail=detail)
    if mode == "hope":
        applied.changes["personal_hope"] = (locked.personal_hope, locked.personal_hope - 1)
        locked.personal_hope -= 1
        applied.columns.append("personal_hope")
    save_applied(locked, applied, by=by)
    try:
        with transaction.atomic():
            return XpEntry.objects.create(
                character=locked,
                source_key=source_key,
                kind=XpEntryKind.SPEND,
                amount=-cost,
                label=label + (" (point d'espoir)" if mode == "hope" else " (à la réception)"),
                act=context.act,
                improvement=f"{kind}:{target}",
            )
    except IntegrityError as error:  # the same key, in a race the row lock should prevent
        raise _error("Cette dépense a déjà été faite.") from error


# --- trainings -------------------------------------------------------------------------------


def effective_trainer(training: Training) -> str:
    """A trainer counts once the Conteur confirms it; until then the player trains alone."""
    return training.trainer if training.trainer_confirmed else "alone"


def days_needed(kind: str, trainer: str) -> int | None:
    return rules_ellipse.training_days(END_OF_ELLIPSE_AS.get(kind, kind), trainer)


def _learning_action(character: Character, kind: str, target: str) -> str | None:
    """The §10 learning a class, branch or ability is (None: a plain XP training)."""
    if kind == "class":
        return "gain_class"
    if kind == "branch":
        return "learn_branch"
    if kind == "ability":
        ability = _compendium(Ability, character, target)
        owned = {c.pk for c in character.classes.all()}
        if ability.character_class_id is not None and ability.character_class_id not in owned:
            return "learn_other_class_ability"
    return None


@transaction.atomic
def training_queue(
    *,
    character: Character | int,
    ellipse: Ellipse,
    kind: str,
    target: str = "",
    detail: str = "",
    trainer: str = "alone",
    by,
) -> Training:
    """Queue a training in an open ellipse: its XP is reserved now, charged when it finishes.
    A class, a branch or another class's ability needs the right ellipse kind (and a trainer)."""
    locked = _lock(character)
    ellipse = Ellipse.objects.select_for_update().get(pk=ellipse.pk)
    if not ellipse.is_open or ellipse.campaign_id != locked.campaign_id:
        raise _error("Il n'y a pas d'ellipse en cours pour s'entraîner.")
    if trainer not in reference.TRAINER_KINDS:
        raise _error("L'entraîneur est absent, simple ou pédagogue.", "trainer")
    reasons: list[str] = []
    action = _learning_action(locked, kind, target)
    if action is not None:
        _allowed, why = rules_ellipse.can_learn(action, ellipse.kind, trainer != "alone")
        reasons += why
    else:
        _allowed, why = rules_ellipse.can_learn("train_xp", ellipse.kind, True)
        reasons += why
    context = spending_context(character=locked)
    cost = 0
    if kind == "class":
        entry = _compendium(CharacterClass, locked, target)
        if entry.pk in {c.pk for c in locked.classes.all()}:
            reasons.append("Le personnage a déjà cette classe.")
        label, detail = f"Classe {entry.name}", entry.name
    elif kind == "branch":
        entry = _compendium(Branch, locked, target)
        if entry.character_class_id not in {c.pk for c in locked.classes.all()}:
            reasons.append("Une branche s'apprend seulement pour une classe possédée.")
        label, detail = f"Branche {entry.name}", entry.name
    else:
        improvement, label = improvement_of(character=locked, kind=kind, target=target)
        if kind == "ability":
            detail = _compendium(Ability, locked, target).name
        _allowed, why = rules_xp.can_spend(improvement, context.record, context.available)
        reasons += why
        cost = rules_xp.xp_cost(improvement)
        if kind == "specialty" and not detail.strip():
            reasons.append("Nommez la spécialité.")
    if reasons:
        raise _error(reasons)
    active = Training.objects.filter(character=locked, status__in=ACTIVE)
    last = active.aggregate(last=Max("position"))["last"]
    return Training.objects.create(
        character=locked,
        ellipse=ellipse,
        kind=kind,
        target=str(target),
        detail=detail.strip(),
        label=label,
        trainer=trainer,
        trainer_confirmed=trainer == "alone",
        days_needed=days_needed(kind, "alone"),
        position=(last or 0) + 1,
        xp_reserved=cost,
        act=context.act,
        status=TrainingStatus.QUEUED if last is not None else TrainingStatus.RUNNING,
    )


def _promote_next(character_id: int) -> None:
    """The first active training of a character is the one that runs."""
    first = (
        Training.objects.filter(character_id=character_id, status__in=ACTIVE)
        .order_by("position", "pk")
        .first()
    )
    if first is not None and first.status != TrainingStatus.RUNNING:
        Training.objects.filter(pk=first.pk).update(status=TrainingStatus.RUNNING)


@transaction.atomic
def training_cancel(*, training: Training) -> Training:
    """Cancel a queued or running training: its reserved XP is free again (nothing was charged).
    Cancelling twice changes nothing."""
    _lock(training.character_id)
    updated = Training.objects.filter(pk=training.pk, status__in=ACTIVE).update(
        status=TrainingStatus.CANCELLED
    )
    if updated:
        _promote_next(training.character_id)
    training.refresh_from_db()
    return training


@transaction.atomic
def training_confirm_trainer(*, training: Training, confirmed: bool = True) -> Training:
    """The Conteur confirms (or not) the trainer a player chose: the timer's length follows."""
    locked = Training.objects.select_for_update().get(pk=training.pk)
    if not locked.is_active:
        raise _error("Cet entraînement est terminé ou annulé.")
    locked.trainer_confirmed = confirmed or locked.trainer == "alone"
    locked.days_needed = days_needed(locked.kind, effective_trainer(locked))
    if locked.days_needed is not None:
        locked.days_done = min(locked.days_done, locked.days_needed)
    locked.save(update_fields=["trainer_confirmed", "days_needed", "days_done"])
    return locked


def trainings_for(*, character: Character) -> list[Training]:
    return list(
        Training.objects.filter(character=character)
        .filter(Q(status__in=ACTIVE) | Q(finished_at__isnull=False))
        .order_by("status", "position", "pk")
    )


def new_key() -> str:
    return uuid.uuid4().hex


def set_expected_days(trainings: list[Training], today: int) -> None:
    """Set `expected_day` on active trainings: queued ones run after the one before (§11)."""
    day_by_character: dict[int, int] = {}
    for training in trainings:
        if not training.is_active:
            continue
        start = day_by_character.get(training.character_id, today)
        if training.days_needed is None:
            training.expected_day = None
            continue
        end = start + training.days_needed - training.days_done
        training.expected_day = end
        day_by_character[training.character_id] = end
