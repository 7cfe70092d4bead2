"""The advance job (§11): one recorded advance of an ellipse moves every timer of the campaign,
completes the trainings that finish (applied to the sheet, their reserved XP charged), and at the
ellipse's end grants ellipse XP and rest; the in-game date follows and the players are notified.

It runs exactly once: one transaction locks the `Advance` row, the campaign's sheets (in id order,
as `characters_lock` takes them), the ellipse and its trainings, so a repeated or concurrent run
finds it done and changes nothing, a player's edit or cancel waits for it (or it for them), and
nothing is written from a stale read. Everything it writes is gathered in memory and saved in
bulk through the sheets' versioned, recorded path: a few queries per 200 characters.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.live import notify
from campaigns.models import Campaign, Notification
from characters import sheet
from characters.models import Character, CharacterSkill
from characters.services import characters_lock
from progression.experience import ACTIVE
from progression.improvements import SheetChanges, apply_improvement
from progression.models import (
    Advance,
    Ellipse,
    EllipseStatus,
    JobStatus,
    Training,
    TrainingStatus,
    XpEntry,
    XpEntryKind,
)
from progression.notifications import character_notification
from progression.trainings import effective_trainer, missing_trainer
from rules import ellipse as rules_ellipse
from rules import reference
from rules.french import de

# Test-only hook: the advance sleeps this many seconds once it holds its locks, so a test can
# kill the worker mid-run.
PAUSE_ENV = "ALTHERION_TEST_ADVANCE_PAUSE"


@dataclass
class _Run:
    """What one advance writes, gathered while it runs and saved at the end."""

    now: datetime
    start_day: int
    characters: dict[int, Character]
    summary: dict[str, Any]
    sheets: SheetChanges = field(default_factory=SheetChanges)
    trainings: list[Training] = field(default_factory=list)
    entries: list[XpEntry] = field(default_factory=list)
    notes: list[Notification] = field(default_factory=list)

    def notify(self, character: Character, key: str, text: str) -> None:
        self.notes.append(character_notification(character, key=key, text=text))


@transaction.atomic
def advance_run(*, advance_id: int) -> Advance | None:
    """Run one advance, exactly once: move every timer of the campaign, complete the trainings
    that finish (apply them to the sheet, charge the reserved XP), and at the ellipse's end grant
    ellipse XP and threshold reductions; advance the in-game date; notify players.
    One transaction, its locks taken in the order the players' writes take them."""
    advance = (
        Advance.objects.select_for_update(of=("self",))
        .select_related("ellipse")
        .filter(pk=advance_id)
        .first()
    )
    if advance is None or advance.status == JobStatus.DONE:
        return advance
    # The sheets before the ellipse, as a player's training request takes them.
    characters = characters_lock(
        Character.objects.filter(campaign_id=advance.ellipse.campaign_id)
        .select_related("species", "owner")
        .prefetch_related("skills")
    )
    ellipse = (
        Ellipse.objects.select_for_update().select_related("campaign").get(pk=advance.ellipse_id)
    )
    if pause := float(os.environ.get(PAUSE_ENV, "0") or 0):
        time.sleep(pause)
    now = timezone.now()
    if not ellipse.is_open:
        advance.status, advance.finished_at = JobStatus.DONE, now
        advance.summary = {"skipped": _("L'ellipse était déjà close.")}
        advance.save(update_fields=["status", "finished_at", "summary"])
        return advance
    days = ellipse.days_left if advance.closes else min(advance.days, ellipse.days_left)
    ends = advance.closes or ellipse.days_elapsed + days >= ellipse.length_days
    campaign = ellipse.campaign

    trainings = list(
        Training.objects.select_for_update()
        .filter(character_id__in=list(characters), status__in=ACTIVE)
        .order_by("character_id", "position", "pk")
    )
    moved = rules_ellipse.advance([_rules_training(t) for t in trainings], days, ellipse_ends=ends)
    summary = {"days": days, "completed": [], "refused": [], "xp": [], "rest": []}
    run = _Run(now, campaign.in_game_day, characters, summary)
    _complete(run, moved.completed, {t.pk: t for t in trainings}, ellipse_kind=ellipse.kind)
    still = rules_ellipse.carried_over(moved.trainings) if ends else moved.trainings
    _move_timers(run, trainings, {int(t.key): t for t in still})
    if ends:
        _end_ellipse(run, ellipse)
    _save(run, by=advance.requested_by)
    _finish(advance, ellipse, run, days=days, ends=ends)
    return advance


def _rules_training(training: Training) -> rules_ellipse.Training:
    return rules_ellipse.Training(
        key=str(training.pk),
        character=str(training.character_id),
        kind=training.kind,
        target=training.target,
        trainer=effective_trainer(training),
        days_done=training.days_done,
        xp=training.xp_reserved,
    )


def _complete(run: _Run, completions, by_pk: dict[int, Training], *, ellipse_kind: str) -> None:
    """Apply each finished training to its character's sheet; one the sheet refuses, or a class
    or another class's ability without a confirmed trainer (§10), is cancelled instead (its
    reserved XP is given back)."""
    skills: dict[int, dict[str, CharacterSkill]] = {
        pk: {s.key: s for s in c.skills.all()} for pk, c in run.characters.items()
    }
    for completion in completions:
        training = by_pk[int(completion.training.key)]
        character = run.characters[training.character_id]
        try:
            missing = missing_trainer(training, character, ellipse_kind)
            if missing:
                raise ValidationError(missing)
            applied = apply_improvement(
                character,
                kind=training.kind,
                target=training.target,
                detail=training.detail,
                skills=skills[character.pk],
            )
        except ValidationError as error:
            _refuse(run, training, character, reason=" ".join(error.messages))
            continue
        run.sheets.add(character.pk, applied)
        _charge(run, training, character, day=run.start_day + completion.day)


def _refuse(run: _Run, training: Training, character: Character, *, reason: str) -> None:
    training.status = TrainingStatus.CANCELLED
    training.finished_at = run.now
    run.trainings.append(training)
    run.summary["refused"].append({"character": character.name, "training": training.label})
    run.notify(
        character,
        f"training:{training.pk}:refused",
        _(
            "L'entraînement « %(label)s » %(of_name)s n'a pas pu s'appliquer : %(reason)s L'expérience réservée est rendue."
        )
        % {"label": training.label, "of_name": de(character.name), "reason": reason},
    )


def _charge(run: _Run, training: Training, character: Character, *, day: int) -> None:
    """A training done on in-game `day`: its reserved XP becomes a ledger entry."""
    training.status = TrainingStatus.DONE
    training.days_done = training.days_needed or 0
    training.finished_at = run.now
    training.finished_day = day
    run.trainings.append(training)
    if training.xp_reserved:
        run.entries.append(
            XpEntry(
                character=character,
                source_key=f"training:{training.pk}",
                kind=XpEntryKind.TRAINING,
                amount=-training.xp_reserved,
                label=_("Entraînement : %(label)s") % {"label": training.label},
                act=training.act,
                improvement=f"{training.kind}:{training.target}",
            )
        )
    run.summary["completed"].append(
        {"character": character.name, "training": training.label, "day": day}
    )
    run.notify(
        character,
        f"training:{training.pk}:done",
        _("%(name)s a terminé son entraînement « %(label)s » (jour %(day)s).")
        % {"name": character.name, "label": training.label, "day": day},
    )


def _move_timers(
    run: _Run, trainings: list[Training], still: dict[int, rules_ellipse.Training]
) -> None:
    """The trainings still going: their days done, and each character's first one runs."""
    first_seen: set[int] = set()
    for training in trainings:
        if training.pk not in still:
            continue
        training.days_done = still[training.pk].days_done
        running = training.character_id not in first_seen
        first_seen.add(training.character_id)
        training.status = TrainingStatus.RUNNING if running else TrainingStatus.QUEUED
        run.trainings.append(training)


def _end_ellipse(run: _Run, ellipse: Ellipse) -> None:
    """The ellipse's end for every character, trained or not: its XP (weeks × the confirmed
    trainer) and the rest the rules engine computes (Fragilité lowered in a medium or major
    ellipse, Épuisement cleared in a minor one, §8, §11)."""
    for character in run.characters.values():
        rest = rules_ellipse.ellipse_rest(
            ellipse.kind,
            ellipse.length_days,
            fragility=character.fragility,
            exhaustion=character.exhaustion,
            wounds=sum(g.wounds for g in sheet.gauges(character).values()),
        )
        gained = _grant_ellipse_xp(run, ellipse, character, weeks=rest.weeks)
        text = _("L'ellipse se termine : %(name)s gagne %(gained)s points d'expérience.") % {
            "name": character.name,
            "gained": gained,
        }
        rested: dict[str, Any] = {}
        if rest.fragility_removed:
            run.sheets.set_column(character, "fragility", rest.fragility)
            rested["fragility"] = -rest.fragility_removed
            text += " " + ngettext(
                "Le repos lui retire %(n)d point de Fragilité.",
                "Le repos lui retire %(n)d points de Fragilité.",
                rest.fragility_removed,
            ) % {"n": rest.fragility_removed}
        if rest.exhaustion_removed:
            run.sheets.set_column(character, "exhaustion", rest.exhaustion)
            rested["exhaustion"] = -rest.exhaustion_removed
            text += " " + ngettext(
                "Le repos lui retire %(n)d point d'Épuisement.",
                "Le repos lui retire %(n)d points d'Épuisement.",
                rest.exhaustion_removed,
            ) % {"n": rest.exhaustion_removed}
        if rested:
            run.summary["rest"].append({"character": character.name, **rested})
        run.notify(character, f"ellipse:{ellipse.pk}:end:{character.pk}", text)


def _grant_ellipse_xp(run: _Run, ellipse: Ellipse, character: Character, *, weeks: int) -> int:
    trainer = ellipse.xp_trainers.get(str(character.pk), "free")
    surcharge = int(ellipse.surcharge_weeks.get(str(character.pk), 0))
    gained = rules_ellipse.ellipse_xp(weeks, trainer, surcharge_weeks=surcharge)
    if gained:
        run.entries.append(
            XpEntry(
                character=character,
                source_key=f"ellipse:{ellipse.pk}:xp",
                kind=XpEntryKind.ELLIPSE,
                amount=gained,
                label=_("Ellipse de %(days)s jours") % {"days": ellipse.length_days},
                breakdown=[
                    {
                        "label": ngettext("%(n)d semaine", "%(n)d semaines", weeks) % {"n": weeks},
                        "points": weeks,
                    },
                    {
                        "label": _("Entraîneur ×%(multiplier)s")
                        % {"multiplier": reference.TRAINER_MULTIPLIERS[trainer]},
                        "points": 0,
                    },
                    *_surcharge_lines(surcharge),
                ],
            )
        )
        run.summary["xp"].append({"character": character.name, "xp": gained})
    return gained


def _surcharge_lines(weeks: int) -> list[dict[str, Any]]:
    """The breakdown's line for the surcharge weeks (§11: +1 XP each), if any."""
    if not weeks:
        return []
    label = ngettext("Surcharge : %(n)d semaine", "Surcharge : %(n)d semaines", weeks)
    return [{"label": label % {"n": weeks}, "points": weeks}]


def _save(run: _Run, *, by) -> None:
    """Write what the advance gathered, in bulk."""
    run.sheets.save(run.characters, by=by)
    if run.trainings:
        Training.objects.bulk_update(
            run.trainings, ["status", "days_done", "finished_at", "finished_day"]
        )
    XpEntry.objects.bulk_create(run.entries, ignore_conflicts=True)
    notify(run.notes)


def _finish(advance: Advance, ellipse: Ellipse, run: _Run, *, days: int, ends: bool) -> None:
    """Move the in-game date and the ellipse on by `days` (closing it at its end), and mark the
    advance done with its summary."""
    Campaign.objects.filter(pk=ellipse.campaign_id).update(in_game_day=run.start_day + days)
    ellipse.days_elapsed += days
    update = ["days_elapsed"]
    if ends:
        ellipse.status, ellipse.closed_at = EllipseStatus.CLOSED, run.now
        update += ["status", "closed_at"]
    ellipse.save(update_fields=update)
    advance.days = days
    advance.status, advance.finished_at, advance.summary = JobStatus.DONE, run.now, run.summary
    advance.save(update_fields=["days", "status", "finished_at", "summary"])
