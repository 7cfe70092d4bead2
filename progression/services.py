"""What the progression's services share (§10–§11): a refusal in the services' error shape, the
idempotency keys of the forms, and the background jobs — queueing them after the commit, telling
whether the broker answers, and the beat's sweep that sends a lost or orphaned job again.

The writes themselves live beside their idea: `awards` (closing an arc), `experience` (the ledger
and spending), `trainings`, `ellipses` and `advances` (an ellipse's timers), `notifications`.
Background work claims itself, so a job sent twice (by the sweep, or a retry) changes nothing more.
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from progression.models import Advance, ArcAward, JobStatus

logger = logging.getLogger(__name__)

# A job that showed no sign of life for this long (never delivered: the broker was down or the
# send failed; or its worker died mid-run) is sent again by the beat's sweep (every 10 s, in
# CELERY_BEAT_SCHEDULE). A live job beats more often (each paid chunk), and a duplicate is
# harmless: the services claim their work.
JOB_LEASE = timedelta(seconds=20)
QUEUE_DOWN_MESSAGE = "Le serveur de tâches ne répond pas : le calcul reprendra automatiquement."


def refusal(reasons: list[str] | str, field: str = "__all__") -> ValidationError:
    """A ValidationError carrying the French reasons under one field (the whole form by default)."""
    return ValidationError({field: reasons if isinstance(reasons, list) else [reasons]})


def new_key() -> str:
    """A fresh idempotency key, for a form that may be posted twice."""
    return uuid.uuid4().hex


# --- background jobs -------------------------------------------------------------------------


def job_queue(task, *args) -> None:
    """Send `task` once the current transaction commits (the worker then reads committed rows)."""
    transaction.on_commit(lambda: job_send(task, *args))


def job_send(task, *args) -> bool:
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
    """The beat's sweep: send again every unfinished job silent for longer than JOB_LEASE (its
    send failed, the broker lost it, or its worker died), at most once a lease. Returns how many
    were sent."""
    from progression.tasks import advance_run as advance_task
    from progression.tasks import arc_award_pay

    now = now or timezone.now()
    sent = 0
    for award in _silent(ArcAward, now):
        sent += _send_again(award, now, arc_award_pay, award.pk, award.revision)
    for advance in _silent(Advance, now):
        sent += _send_again(advance, now, advance_task, advance.pk)
    return sent


def _silent(model, now: datetime) -> list:
    return list(
        model.objects.exclude(status=JobStatus.DONE).filter(heartbeat_at__lte=now - JOB_LEASE)
    )


def _send_again(job, now: datetime, task, *args) -> bool:
    """Send `job` again; once sent, its lease starts over (so the next sweeps leave it alone)."""
    if not job_send(task, *args):
        return False
    type(job).objects.filter(pk=job.pk, heartbeat_at=job.heartbeat_at).update(heartbeat_at=now)
    return True
