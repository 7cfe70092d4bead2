"""Progression services (§10–§11): closing an arc with the experience checklist and paying the
awards in the background, ellipses and their advances, and in-app notifications.

Background work claims itself: an award pays "arc:<id>" (or "arc:<id>:correction:<n>") once per
character through the ledger's unique key; an advance runs inside one transaction that locks its
`Advance` row and its ellipse, so a repeated or concurrent run finds it done and changes nothing.
"""

from __future__ import annotations

import logging
import os
import time
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q, Sum, Value
from django.db.models.functions import Greatest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from campaigns import services as campaign_services
from campaigns.models import Arc, ArcCloses, ArcStatus, Campaign, Membership, Notification, Role
from characters.models import ChangeAction, Character, CharacterChange, CharacterSkill
from progression import experience
from progression.models import (
    Advance,
    ArcAward,
    Ellipse,
    EllipseStatus,
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

logger = logging.getLogger(__name__)

AWARD_CHUNK = 50
# A job still pending this long after it was recorded was not delivered (the broker was down, or
# the send failed): the beat's sweep sends it again. Duplicates are harmless, the services claim
# their work.
REQUEUE_AFTER = timedelta(seconds=30)
QUEUE_DOWN_MESSAGE = "Le serveur de tâches ne répond pas : le calcul reprendra automatiquement."
# Test-only hook: the award job pays one character per chunk and sleeps this many seconds after
# the first chunk, so a test can kill the worker mid-task.
PAUSE_ENV = "ALTHERION_TEST_AWARD_PAUSE"


def _rule_error(error: RuleError) -> ValidationError:
    messages: dict[str, list[str]] = {}
    for violation in error.violations:
        messages.setdefault(violation.field or "__all__", []).append(violation.message)
    return ValidationError(messages)


# --- the arc checklist and its award ---------------------------------------------------------


def default_checklist(*, arc: Arc, characters: list[Character]) -> dict[str, Any]:
    """A first checklist for the form: the arc's own ending and length, everyone took part."""
    return {
        "group": {
            "danger": 3,
            "balance": [],
            "ingenuity": [],
            "ending": arc.closes or "none",
            "ending_items": [],
            "length": arc.length_unit,
        },
        "characters": {
            str(c.pk): {"bounty": ["took_part"], "optional_objectives": 0} for c in characters
        },
    }


def _group(checklist: dict[str, Any]) -> rules_xp.GroupChecklist:
    group = checklist.get("group", {})
    return rules_xp.GroupChecklist(
        danger=int(group.get("danger", 0)),
        balance=frozenset(group.get("balance", [])),
        ingenuity=frozenset(group.get("ingenuity", [])),
        ending=group.get("ending", "none") or "none",
        ending_items=frozenset(group.get("ending_items", [])),
        length=group.get("length", "hours"),
    )


def checklist_awards(checklist: dict[str, Any]) -> dict[int, rules_xp.Award]:
    """character id → the rules engine's award (total and breakdown) for this checklist."""
    sheets = [
        rules_xp.CharacterChecklist(
            character=str(pk),
            bounty=frozenset(ticks.get("bounty", [])),
            optional_objectives=int(ticks.get("optional_objectives", 0)),
        )
        for pk, ticks in checklist.get("characters", {}).items()
    ]
    try:
        awards = rules_xp.award(_group(checklist), sheets)
    except RuleError as error:
        raise _rule_error(error) from error
    return {int(key): award for key, award in awards.items()}


def arc_characters(*, arc: Arc) -> list[Character]:
    return list(Character.objects.filter(campaign_id=arc.campaign_id).select_related("owner"))


def _check_characters(arc: Arc, checklist: dict[str, Any]) -> None:
    ids = {int(pk) for pk in checklist.get("characters", {})}
    known = set(
        Character.objects.filter(campaign_id=arc.campaign_id, pk__in=ids).values_list(
            "pk", flat=True
        )
    )
    if ids - known:
        raise ValidationError({"characters": ["Ce personnage n'est pas dans la campagne."]})
    if not ids:
        raise ValidationError({"characters": ["Cochez au moins un personnage présent."]})


@transaction.atomic
def arc_award_confirm(*, arc: Arc, checklist: dict[str, Any], by) -> ArcAward:
    """Close the arc with the Conteur's checklist and queue the job that pays the awards.
    A second confirmation (a double click) returns the first one and queues nothing."""
    locked = Arc.objects.select_for_update().get(pk=arc.pk)
    existing = ArcAward.objects.filter(arc=locked).first()
    if existing is not None:
        return existing
    _check_characters(locked, checklist)
    awards = checklist_awards(checklist)
    award = ArcAward.objects.create(
        arc=locked, checklist=checklist, total=len(awards), created_by=by
    )
    if locked.status == ArcStatus.OPEN:
        campaign_services.arc_close(arc=locked)
    _queue_award(award)
    return award


@transaction.atomic
def arc_award_correct(*, award: ArcAward, checklist: dict[str, Any], by) -> ArcAward:
    """Correct a closed arc's checklist: a new revision whose job writes correcting entries
    (the difference per character), never rewriting the entries already paid."""
    locked = ArcAward.objects.select_for_update().select_related("arc").get(pk=award.pk)
    _check_characters(locked.arc, checklist)
    awards = checklist_awards(checklist)
    locked.checklist = checklist
    locked.revision += 1
    locked.status = JobStatus.PENDING
    locked.total = len(awards)
    locked.paid = 0
    locked.finished_at = None
    locked.summary = []
    locked.save()
    _queue_award(locked)
    return locked


def _queue_award(award: ArcAward) -> None:
    from progression.tasks import arc_award_pay

    pk, revision = award.pk, award.revision
    transaction.on_commit(lambda: _send(arc_award_pay, pk, revision))


def _send(task, *args) -> bool:
    """Queue `task`; with the broker down, say so in the log and leave the job pending (the page
    answers at once; `jobs_requeue` sends it again once the broker is back)."""
    try:
        task.apply_async(args)
    except Exception:
        logger.warning("broker unreachable: %s%r stays pending", task.name, args, exc_info=True)
        return False
    return True


def broker_down(*, ttl: float = 5.0) -> bool:
    """Whether the task broker fails to answer (checked at most every `ttl` seconds per process;
    always False in the embedded mode, where jobs run in-process)."""
    from django.conf import settings

    if not settings.CELERY_BROKER_URL:
        return False
    now = time.monotonic()
    if now - _broker_check["at"] > ttl:
        from common.health import broker_answers

        _broker_check.update(at=now, down=not broker_answers())
    return _broker_check["down"]


_broker_check: dict[str, Any] = {"at": float("-inf"), "down": False}


def queue_message(job) -> str:
    """The French sentence to show beside a pending job whose broker does not answer, or ""."""
    if job is None or job.status != JobStatus.PENDING or not broker_down():
        return ""
    return gettext(QUEUE_DOWN_MESSAGE)


def jobs_requeue(*, now: datetime | None = None) -> int:
    """The beat's sweep: send again every job left pending longer than REQUEUE_AFTER (its send
    failed, or the broker lost it). Returns how many were sent."""
    from progression.tasks import advance_run as advance_task
    from progression.tasks import arc_award_pay

    before = (now or timezone.now()) - REQUEUE_AFTER
    sent = 0
    for pk, revision in ArcAward.objects.filter(
        status=JobStatus.PENDING, created_at__lte=before
    ).values_list("pk", "revision"):
        sent += _send(arc_award_pay, pk, revision)
    for pk in Advance.objects.filter(status=JobStatus.PENDING, created_at__lte=before).values_list(
        "pk", flat=True
    ):
        sent += _send(advance_task, pk)
    return sent


def _arc_keys_q(arc_id: int) -> Q:
    return Q(source_key=f"arc:{arc_id}") | Q(source_key__startswith=f"arc:{arc_id}:")


def award_key(arc_id: int, revision: int) -> str:
    return f"arc:{arc_id}" if revision == 1 else f"arc:{arc_id}:correction:{revision}"


def arc_award_pay(*, award_id: int, revision: int) -> ArcAward | None:
    """The award job: write one ledger entry per character for this revision, chunk by chunk
    (each chunk commits, so progress shows). Safe to run twice, concurrently or after a crash:
    the ledger's unique (character, source key) keeps each payment once. A job for a stale
    revision stops. Queries: a fixed number per chunk of AWARD_CHUNK characters."""
    award = ArcAward.objects.select_related("arc").filter(pk=award_id).first()
    if award is None or award.revision != revision or award.status == JobStatus.DONE:
        return award
    ArcAward.objects.filter(pk=award_id, revision=revision, status=JobStatus.PENDING).update(
        status=JobStatus.RUNNING
    )
    arc = award.arc
    awards = checklist_awards(award.checklist)
    characters = list(
        Character.objects.filter(campaign_id=arc.campaign_id, pk__in=list(awards))
        .only("pk", "name", "owner_id", "campaign_id")
        .order_by("pk")
    )
    key = award_key(arc.pk, revision)
    pause = float(os.environ.get(PAUSE_ENV, "0") or 0)
    size = 1 if pause else AWARD_CHUNK
    summary: list[dict[str, Any]] = []
    for start in range(0, len(characters), size):
        chunk = characters[start : start + size]
        with transaction.atomic():
            current = ArcAward.objects.select_for_update().get(pk=award_id)
            if current.revision != revision:
                return current  # corrected meanwhile: the newer job pays
            previous = dict(
                XpEntry.objects.filter(_arc_keys_q(arc.pk), character__in=chunk)
                .exclude(source_key=key)
                .values("character_id")
                .annotate(total=Sum("amount"))
                .values_list("character_id", "total")
            )
            entries, notes = [], []
            for character in chunk:
                result = awards[character.pk]
                delta = result.total - previous.get(character.pk, 0)
                summary.append(
                    {
                        "character": character.pk,
                        "name": character.name,
                        "total": result.total,
                        "paid": delta,
                    }
                )
                if revision > 1 and delta == 0:
                    continue
                entries.append(
                    XpEntry(
                        character=character,
                        source_key=key,
                        kind=XpEntryKind.AWARD if revision == 1 else XpEntryKind.CORRECTION,
                        amount=delta,
                        label=(
                            f"Fin de l'arc « {arc.title} »"
                            if revision == 1
                            else f"Correction de l'arc « {arc.title} »"
                        ),
                        breakdown=[
                            {"label": line.label, "points": line.points} for line in result.lines
                        ],
                        act=arc.act,
                    )
                )
                text = (
                    f"{character.name} reçoit {delta} points d'expérience pour l'arc « {arc.title} »."
                    if revision == 1
                    else f"Correction de l'arc « {arc.title} » : {delta:+d} points d'expérience "
                    f"pour {character.name}."
                )
                notes.append(
                    Notification(
                        user_id=character.owner_id,
                        campaign_id=arc.campaign_id,
                        kind="award",
                        key=f"{key}:{character.pk}",
                        text=text[:500],
                        link=experience_link(arc.campaign_id, character.pk),
                    )
                )
            XpEntry.objects.bulk_create(entries, ignore_conflicts=True)
            Notification.objects.bulk_create(notes, ignore_conflicts=True)
            ArcAward.objects.filter(pk=award_id, revision=revision).update(
                paid=Greatest(F("paid"), Value(min(start + len(chunk), len(characters))))
            )
        if pause and start == 0:
            time.sleep(pause)
    with transaction.atomic():
        current = ArcAward.objects.select_for_update().get(pk=award_id)
        if current.revision == revision and current.status != JobStatus.DONE:
            current.status = JobStatus.DONE
            current.paid = current.total
            current.summary = summary
            current.finished_at = timezone.now()
            current.save(update_fields=["status", "paid", "summary", "finished_at"])
            storyteller = Membership.objects.filter(
                campaign_id=arc.campaign_id, role=Role.STORYTELLER
            ).first()
            if storyteller is not None:
                Notification.objects.bulk_create(
                    [
                        Notification(
                            user_id=storyteller.user_id,
                            campaign_id=arc.campaign_id,
                            kind="award_done",
                            key=f"{key}:done",
                            text=(
                                f"Expérience de l'arc « {arc.title} » versée à "
                                f"{len(summary)} personnage(s)."
                            ),
                            link=reverse(
                                "progression:arc_experience", args=[arc.campaign_id, arc.pk]
                            ),
                        )
                    ],
                    ignore_conflicts=True,
                )
    return current


# --- ellipses and advances -------------------------------------------------------------------


@transaction.atomic
def ellipse_open(
    *, campaign: Campaign, length_days: int, deadline: datetime | None = None
) -> Ellipse:
    """Open an ellipse of `length_days` in-game days; its kind follows from the length (§11)."""
    try:
        kind = rules_ellipse.classify(length_days)
    except RuleError as error:
        raise _rule_error(error) from error
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if Ellipse.objects.filter(campaign=campaign, status=EllipseStatus.OPEN).exists():
        raise ValidationError({"__all__": ["Une ellipse est déjà en cours dans cette campagne."]})
    campaign.refresh_from_db(fields=["in_game_day"])
    try:
        with transaction.atomic():
            return Ellipse.objects.create(
                campaign=campaign,
                length_days=length_days,
                kind=kind,
                deadline=deadline,
                start_day=campaign.in_game_day,
            )
    except IntegrityError as error:
        raise ValidationError(
            {"__all__": ["Une ellipse est déjà en cours dans cette campagne."]}
        ) from error


@transaction.atomic
def ellipse_set_xp_trainer(*, ellipse: Ellipse, character_id: int, trainer: str) -> Ellipse:
    """The Conteur confirms a character's trainer multiplier for the ellipse's XP (§11)."""
    if trainer not in reference.TRAINER_MULTIPLIERS:
        raise ValidationError({"trainer": ["Ce niveau d'entraîneur n'existe pas."]})
    locked = Ellipse.objects.select_for_update().get(pk=ellipse.pk)
    if not locked.is_open:
        raise ValidationError({"__all__": ["Cette ellipse est close."]})
    if not Character.objects.filter(pk=character_id, campaign_id=locked.campaign_id).exists():
        raise ValidationError({"character": ["Ce personnage n'est pas dans la campagne."]})
    locked.xp_trainers = {**locked.xp_trainers, str(character_id): trainer}
    locked.save(update_fields=["xp_trainers"])
    return locked


@transaction.atomic
def advance_request(
    *, ellipse: Ellipse, key: str, days: int = 0, closes: bool = False, by=None
) -> Advance:
    """Record an advance (N days, or the ellipse's end) under an idempotency key and queue the
    job that runs it. The same key twice returns the first request and queues nothing."""
    if days < 0 or (days == 0 and not closes):
        raise ValidationError({"days": ["Avancez d'au moins un jour."]})
    existing = Advance.objects.filter(key=key).first()
    if existing is not None:
        return existing
    if not ellipse.is_open:
        raise ValidationError({"__all__": ["Cette ellipse est close."]})
    try:
        with transaction.atomic():
            advance = Advance.objects.create(
                ellipse=ellipse, key=key, days=days, closes=closes, requested_by=by
            )
    except IntegrityError:
        return Advance.objects.get(key=key)
    _queue_advance(advance)
    return advance


def _queue_advance(advance: Advance) -> None:
    from progression.tasks import advance_run as task

    pk = advance.pk
    transaction.on_commit(lambda: _send(task, pk))


def ellipse_deadlines_sweep(*, now: datetime | None = None) -> list[Advance]:
    """The beat job: request the end of every open ellipse whose real-world deadline passed."""
    now = now or timezone.now()
    due = Ellipse.objects.filter(status=EllipseStatus.OPEN, deadline__lte=now)
    return [
        advance_request(ellipse=ellipse, key=f"deadline:{ellipse.pk}", closes=True)
        for ellipse in due
    ]


def _rules_training(training: Training) -> rules_ellipse.Training:
    return rules_ellipse.Training(
        key=str(training.pk),
        character=str(training.character_id),
        kind=experience.END_OF_ELLIPSE_AS.get(training.kind, training.kind),
        target=training.target,
        trainer=experience.effective_trainer(training),
        days_done=training.days_done,
        xp=training.xp_reserved,
    )


@transaction.atomic
def advance_run(*, advance_id: int) -> Advance | None:
    """Run one advance, exactly once: move every timer of the campaign, complete the trainings
    that finish (apply them to the sheet, charge the reserved XP), and at the ellipse's end grant
    ellipse XP and threshold reductions; advance the in-game date; notify players.
    One transaction that locks the advance and its ellipse; a fixed number of queries."""
    advance = Advance.objects.select_for_update().filter(pk=advance_id).first()
    if advance is None or advance.status == JobStatus.DONE:
        return advance
    ellipse = (
        Ellipse.objects.select_for_update().select_related("campaign").get(pk=advance.ellipse_id)
    )
    now = timezone.now()
    if not ellipse.is_open:
        advance.status, advance.finished_at = JobStatus.DONE, now
        advance.summary = {"skipped": "L'ellipse était déjà close."}
        advance.save(update_fields=["status", "finished_at", "summary"])
        return advance
    days = ellipse.days_left if advance.closes else min(advance.days, ellipse.days_left)
    ends = advance.closes or ellipse.days_elapsed + days >= ellipse.length_days
    campaign = ellipse.campaign
    start_day = campaign.in_game_day

    trainings = list(
        Training.objects.filter(
            character__campaign=campaign, status__in=experience.ACTIVE
        ).order_by("character_id", "position", "pk")
    )
    by_pk = {t.pk: t for t in trainings}
    moved = rules_ellipse.advance([_rules_training(t) for t in trainings], days, ellipse_ends=ends)
    characters = {
        c.pk: c
        for c in Character.objects.filter(campaign=campaign)
        .select_related("species", "owner")
        .prefetch_related("skills")
    }
    skills = {pk: {s.key: s for s in c.skills.all()} for pk, c in characters.items()}
    changes: dict[int, dict[str, tuple[Any, Any]]] = defaultdict(dict)
    columns: dict[int, set[str]] = defaultdict(set)
    skill_rows: dict[int, CharacterSkill] = {}
    m2m: dict[str, list[tuple[int, int]]] = defaultdict(list)
    entries: list[XpEntry] = []
    notes: list[Notification] = []
    finished: list[Training] = []
    summary: dict[str, Any] = {"days": days, "completed": [], "refused": [], "xp": [], "rest": []}
    link_for = {pk: experience_link(campaign.pk, pk) for pk in characters}

    for completion in moved.completed:
        training = by_pk[int(completion.training.key)]
        character = characters[training.character_id]
        day = start_day + completion.day
        try:
            applied = experience.apply_improvement(
                character,
                kind=training.kind,
                target=training.target,
                detail=training.detail,
                skills=skills[character.pk],
            )
        except ValidationError as error:
            training.status = TrainingStatus.CANCELLED
            training.finished_at = now
            finished.append(training)
            reason = " ".join(error.messages)
            summary["refused"].append({"character": character.name, "training": training.label})
            notes.append(
                _note(
                    character,
                    f"training:{training.pk}:refused",
                    f"L'entraînement « {training.label} » de {character.name} n'a pas pu "
                    f"s'appliquer : {reason} L'expérience réservée est rendue.",
                    link_for[character.pk],
                )
            )
            continue
        for field, (old, new) in applied.changes.items():
            first_old = changes[character.pk][field][0] if field in changes[character.pk] else old
            changes[character.pk][field] = (first_old, new)
        columns[character.pk].update(applied.columns)
        for row in applied.skill_rows:
            skill_rows[id(row)] = row
        for relation, pk in applied.m2m:
            m2m[relation].append((character.pk, pk))
        training.status = TrainingStatus.DONE
        training.days_done = training.days_needed or 0
        training.finished_at = now
        training.finished_day = day
        finished.append(training)
        if training.xp_reserved:
            entries.append(
                XpEntry(
                    character=character,
                    source_key=f"training:{training.pk}",
                    kind=XpEntryKind.TRAINING,
                    amount=-training.xp_reserved,
                    label=f"Entraînement : {training.label}",
                    act=training.act,
                    improvement=f"{training.kind}:{training.target}",
                )
            )
        summary["completed"].append(
            {"character": character.name, "training": training.label, "day": day}
        )
        notes.append(
            _note(
                character,
                f"training:{training.pk}:done",
                f"{character.name} a terminé son entraînement « {training.label} » (jour {day}).",
                link_for[character.pk],
            )
        )

    still = {int(t.key): t for t in moved.trainings}
    first_seen: set[int] = set()
    for training in trainings:
        if training.pk not in still:
            continue
        training.days_done = still[training.pk].days_done
        running = training.character_id not in first_seen
        first_seen.add(training.character_id)
        training.status = TrainingStatus.RUNNING if running else TrainingStatus.QUEUED
        finished.append(training)

    if ends:
        weeks = ellipse.length_days // reference.DAYS_PER_WEEK
        reductions = rules_ellipse.threshold_reductions(ellipse.kind, weeks)
        for character in characters.values():
            trainer = ellipse.xp_trainers.get(str(character.pk), "free")
            gained = rules_ellipse.ellipse_xp(weeks, trainer)
            if gained:
                entries.append(
                    XpEntry(
                        character=character,
                        source_key=f"ellipse:{ellipse.pk}:xp",
                        kind=XpEntryKind.ELLIPSE,
                        amount=gained,
                        label=f"Ellipse de {ellipse.length_days} jours",
                        breakdown=[
                            {"label": f"{weeks} semaine(s)", "points": weeks},
                            {
                                "label": f"Entraîneur ×{reference.TRAINER_MULTIPLIERS[trainer]}",
                                "points": 0,
                            },
                        ],
                    )
                )
                summary["xp"].append({"character": character.name, "xp": gained})
            lowered = min(reductions, character.fragility)
            text = f"L'ellipse se termine : {character.name} gagne {gained} points d'expérience."
            if lowered:
                old = changes[character.pk].get("fragility", (character.fragility,))[0]
                character.fragility -= lowered
                changes[character.pk]["fragility"] = (old, character.fragility)
                columns[character.pk].add("fragility")
                summary["rest"].append({"character": character.name, "fragility": -lowered})
                text += f" Le repos lui retire {lowered} point(s) de Fragilité."
            notes.append(
                _note(
                    character,
                    f"ellipse:{ellipse.pk}:end:{character.pk}",
                    text,
                    link_for[character.pk],
                )
            )

    # Writes, in bulk: the number of queries does not grow with the number of characters.
    changed = [characters[pk] for pk in changes if changes[pk]]
    fields: set[str] = {"version", "updated_by", "updated_at"}
    history = []
    for character in changed:
        character.version += 1
        character.updated_by = advance.requested_by
        character.updated_at = now
        fields.update(columns[character.pk])
        history += [
            CharacterChange(
                character=character,
                version=character.version,
                field=field,
                old_value=old,
                new_value=new,
                action=ChangeAction.EDIT,
                by=advance.requested_by,
            )
            for field, (old, new) in changes[character.pk].items()
        ]
    if changed:
        Character.objects.bulk_update(changed, sorted(fields))
        CharacterChange.objects.bulk_create(history)
    new_rows = [r for r in skill_rows.values() if r.pk is None]
    old_rows = [r for r in skill_rows.values() if r.pk is not None]
    if new_rows:
        CharacterSkill.objects.bulk_create(new_rows)
    if old_rows:
        CharacterSkill.objects.bulk_update(old_rows, ["level", "expertises"])
    for relation, pairs in m2m.items():
        through = getattr(Character, relation).through
        target = {"abilities": "ability_id", "classes": "characterclass_id"}.get(
            relation, "branch_id"
        )
        through.objects.bulk_create(
            [through(character_id=c, **{target: t}) for c, t in pairs], ignore_conflicts=True
        )
    if finished:
        Training.objects.bulk_update(
            finished, ["status", "days_done", "finished_at", "finished_day"]
        )
    XpEntry.objects.bulk_create(entries, ignore_conflicts=True)
    Notification.objects.bulk_create(notes, ignore_conflicts=True)
    Campaign.objects.filter(pk=campaign.pk).update(in_game_day=start_day + days)
    ellipse.days_elapsed += days
    update = ["days_elapsed"]
    if ends:
        ellipse.status, ellipse.closed_at = EllipseStatus.CLOSED, now
        update += ["status", "closed_at"]
    ellipse.save(update_fields=update)
    advance.days = days
    advance.status, advance.finished_at, advance.summary = JobStatus.DONE, now, summary
    advance.save(update_fields=["days", "status", "finished_at", "summary"])
    return advance


def experience_link(campaign_id: int, character_id: int) -> str:
    return reverse("progression:character_experience", args=[campaign_id, character_id])


def _note(character: Character, key: str, text: str, link: str) -> Notification:
    return Notification(
        user_id=character.owner_id,
        campaign_id=character.campaign_id,
        kind=key.split(":")[0],
        key=key,
        text=text[:500],
        link=link,
    )


# --- notifications ---------------------------------------------------------------------------


def unread_count(*, user) -> int:
    if not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notifications_for(*, user, limit: int = 50) -> list[Notification]:
    return list(Notification.objects.filter(user=user).select_related("campaign")[:limit])


def notifications_mark_read(*, user, pk: int | None = None) -> int:
    """Mark one notification (or all) of this user read; returns how many changed."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if pk is not None:
        rows = rows.filter(pk=pk)
    return rows.update(read_at=timezone.now())


def arc_closes_label(value: str) -> str:
    return dict(ArcCloses.choices).get(value, "")
