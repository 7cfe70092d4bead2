"""Closing an arc (§10): the Conteur's end-of-arc checklist, the awards the rules engine makes of
it, confirming or correcting it, and the background job that pays each character.

The job claims its work: it pays "arc:<id>" (or "arc:<id>:correction:<n>") once per character
through the ledger's unique (character, source key), so a repeated, concurrent or crashed run
pays nothing twice; a job for a revision corrected meanwhile stops. Each paid chunk is a
heartbeat: a job whose worker died goes silent, and the beat's sweep sends it again.
"""

from __future__ import annotations

import os
import time
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q, Sum, Value
from django.db.models.functions import Greatest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns import services as campaign_services
from campaigns import webhooks
from campaigns.live import notify
from campaigns.models import Arc, ArcCloses, ArcStatus, Membership, Notification, Role
from characters.models import Character
from characters.services import characters_lock, rule_error_to_validation_error
from progression.models import ArcAward, JobStatus, XpEntry, XpEntryKind
from progression.notifications import character_notification
from progression.services import ARC_AWARD_PAY, job_queue
from rules import experience as rules_xp
from rules.errors import RuleError

AWARD_CHUNK = 50
# Test-only hook: the award job pays one character per chunk and sleeps this many seconds after
# the first chunk, so a test can kill the worker mid-task.
PAUSE_ENV = "ALTHERION_TEST_AWARD_PAUSE"


# --- the checklist and the awards it makes ---------------------------------------------------


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
        raise rule_error_to_validation_error(error) from error
    return {int(key): award for key, award in awards.items()}


def award_breakdown(award: rules_xp.Award) -> list[dict[str, Any]]:
    """The award's lines as the ledger and the API show them."""
    return [{"label": line.label, "points": line.points} for line in award.lines]


def arc_characters(*, arc: Arc) -> list[Character]:
    return list(Character.objects.filter(campaign_id=arc.campaign_id).select_related("owner"))


def arc_closes_label(value: str) -> str:
    return dict(ArcCloses.choices).get(value, "")


def _check_characters(arc: Arc, checklist: dict[str, Any]) -> None:
    ids = {int(pk) for pk in checklist.get("characters", {})}
    known = set(
        Character.objects.filter(campaign_id=arc.campaign_id, pk__in=ids).values_list(
            "pk", flat=True
        )
    )
    if ids - known:
        raise ValidationError({"characters": [_("Ce personnage n'est pas dans la campagne.")]})
    if not ids:
        raise ValidationError({"characters": [_("Cochez au moins un personnage présent.")]})


# --- confirming and correcting ----------------------------------------------------------------


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
    locked.heartbeat_at = timezone.now()
    locked.save()
    _queue_award(locked)
    return locked


def _queue_award(award: ArcAward) -> None:
    job_queue(ARC_AWARD_PAY, award.pk, award.revision)


# --- the award job ----------------------------------------------------------------------------


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
        status=JobStatus.RUNNING, heartbeat_at=timezone.now()
    )
    arc = award.arc
    awards = checklist_awards(award.checklist)
    characters = list(
        Character.objects.filter(campaign_id=arc.campaign_id, pk__in=list(awards))
        .only("pk", "name", "owner_id", "campaign_id")
        .order_by("pk")
    )
    pause = float(os.environ.get(PAUSE_ENV, "0") or 0)
    size = 1 if pause else AWARD_CHUNK
    summary: list[dict[str, Any]] = []
    for start in range(0, len(characters), size):
        chunk = characters[start : start + size]
        paid = min(start + len(chunk), len(characters))
        newer = _pay_chunk(award_id, revision, arc, awards, chunk, paid=paid, summary=summary)
        if newer is not None:
            return newer  # corrected meanwhile: the newer job pays
        if pause and start == 0:
            time.sleep(pause)
    return _award_finish(award_id, revision, arc, summary)


def _pay_chunk(
    award_id: int,
    revision: int,
    arc: Arc,
    awards: dict[int, rules_xp.Award],
    chunk: list[Character],
    *,
    paid: int,
    summary: list[dict[str, Any]],
) -> ArcAward | None:
    """Pay one chunk of characters in one transaction (what each already received from this arc
    is deducted) and add them to `summary`. Returns the award if it was corrected meanwhile and
    this job must stop, else None."""
    key = award_key(arc.pk, revision)
    with transaction.atomic():
        current = ArcAward.objects.select_for_update().get(pk=award_id)
        if current.revision != revision:
            return current
        # Experience is the sheet's: a spend or a cancel on these sheets waits for the payment.
        characters_lock(Character.objects.filter(pk__in=[c.pk for c in chunk]).only("pk"))
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
            entries.append(_award_entry(arc, character, result, revision=revision, delta=delta))
            notes.append(_award_notification(arc, character, revision=revision, delta=delta))
        XpEntry.objects.bulk_create(entries, ignore_conflicts=True)
        notify(notes)
        ArcAward.objects.filter(pk=award_id, revision=revision).update(
            paid=Greatest(F("paid"), Value(paid)), heartbeat_at=timezone.now()
        )
    return None


def _award_entry(
    arc: Arc, character: Character, result: rules_xp.Award, *, revision: int, delta: int
) -> XpEntry:
    first = revision == 1
    return XpEntry(
        character=character,
        source_key=award_key(arc.pk, revision),
        kind=XpEntryKind.AWARD if first else XpEntryKind.CORRECTION,
        amount=delta,
        label=(_("Fin de l'arc « %(title)s »") if first else _("Correction de l'arc « %(title)s »"))
        % {"title": arc.title},
        breakdown=award_breakdown(result),
        act=arc.act,
    )


def _award_notification(
    arc: Arc, character: Character, *, revision: int, delta: int
) -> Notification:
    text = (
        _("%(name)s reçoit %(delta)s points d'expérience pour l'arc « %(title)s ».")
        % {"name": character.name, "delta": delta, "title": arc.title}
        if revision == 1
        else _("Correction de l'arc « %(title)s » : %(delta)+d points d'expérience pour %(name)s.")
        % {"title": arc.title, "delta": delta, "name": character.name}
    )
    key = f"{award_key(arc.pk, revision)}:{character.pk}"
    return character_notification(character, key=key, text=text, kind="award")


def _award_finish(
    award_id: int, revision: int, arc: Arc, summary: list[dict[str, Any]]
) -> ArcAward:
    """Mark this revision done with its summary and tell the Conteur, once."""
    with transaction.atomic():
        current = ArcAward.objects.select_for_update().get(pk=award_id)
        if current.revision == revision and current.status != JobStatus.DONE:
            current.status = JobStatus.DONE
            current.paid = current.total
            current.summary = summary
            current.finished_at = timezone.now()
            current.save(update_fields=["status", "paid", "summary", "finished_at"])
            _notify_storyteller(arc, key=award_key(arc.pk, revision), paid_to=len(summary))
            _post_award(arc, key=award_key(arc.pk, revision), summary=summary)
    return current


def _post_award(arc: Arc, *, key: str, summary: list[dict[str, Any]]) -> None:
    """Post who received what to the campaign's webhook (once per award revision)."""
    rows = [row for row in summary if row["paid"]]
    if rows:
        webhooks.webhook_post(
            campaign_id=arc.campaign_id, key=f"award:{key}", kind="award", arc=arc.title, rows=rows
        )


def _notify_storyteller(arc: Arc, *, key: str, paid_to: int) -> None:
    storyteller = Membership.objects.filter(
        campaign_id=arc.campaign_id, role=Role.STORYTELLER
    ).first()
    if storyteller is None:
        return
    notification = Notification(
        user_id=storyteller.user_id,
        campaign_id=arc.campaign_id,
        kind="award_done",
        key=f"{key}:done",
        text=ngettext(
            "Expérience de l'arc « %(title)s » versée à %(n)d personnage.",
            "Expérience de l'arc « %(title)s » versée à %(n)d personnages.",
            paid_to,
        )
        % {"title": arc.title, "n": paid_to},
        link=reverse("progression:arc_experience", args=[arc.campaign_id, arc.pk]),
    )
    notify([notification])
