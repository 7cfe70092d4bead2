"""What the progression's services share (§10–§11): the idempotency keys of the forms, and the
background jobs — queueing them by name after the commit, telling whether the broker answers, and
the beat's sweep that sends a lost or orphaned job again.

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

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from common.health import broker_answers
from progression.models import Advance, ArcAward, JobStatus

logger = logging.getLogger(__name__)

# The jobs' Celery names: `progression.tasks` registers its tasks under them and the services
# send them by name, so a service never imports the tasks that call it back. They are the
# modules' default names, which queued messages and CELERY_BEAT_SCHEDULE already carry.
ARC_AWARD_PAY = "progression.tasks.arc_award_pay"
ADVANCE_RUN = "progression.tasks.advance_run"
ELLIPSE_DEADLINES_SWEEP = "progression.tasks.ellipse_deadlines_sweep"
JOBS_REQUEUE = "progression.tasks.jobs_requeue"

# A job that showed no sign of life for this long (never delivered: the broker was down or the
# send failed; or its worker died mid-run) is sent again by the beat's sweep (every 10 s, in
# CELERY_BEAT_SCHEDULE). A live job beats more often (each paid chunk), and a duplicate is
# harmless: the services claim their work.
JOB_LEASE = timedelta(seconds=20)
QUEUE_DOWN_MESSAGE = gettext_noop(
    "Le serveur de tâches ne répond pas : le calcul reprendra automatiquement."
)


def new_key() -> str:
    """A fresh idempotency key, for a form that may be posted twice."""
    return uuid.uuid4().hex


# --- background jobs -------------------------------------------------------------------------


def job_queue(name: str, *args) -> None:
    """Send the job `name` once the current transaction commits (the worker then reads
    committed rows)."""
    transaction.on_commit(lambda: job_send(name, *args))


def job_send(name: str, *args) -> bool:
    """Queue the job `name`; with the broker down, say so in the log and leave the job pending
    (the page answers at once; `jobs_requeue` sends it again once the broker is back). In the
    embedded mode the registered task runs in-process, as its `apply_async` does there."""
    try:
        current_app.signature(name, args=args).apply_async()
    except Exception:
        logger.warning("broker unreachable: %s%r stays pending", name, args, exc_info=True)
        return False
    return True


def broker_down(*, ttl: float = 5.0) -> bool:
    """Whether the task broker fails to answer (checked at most every `ttl` seconds per process;
    always False in the embedded mode, where jobs run in-process)."""
    if not settings.CELERY_BROKER_URL:
        return False
    now = time.monotonic()
    if now - _broker_check["at"] > ttl:
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
    now = now or timezone.now()
    sent = 0
    for award in _silent(ArcAward, now):
        sent += _send_again(award, now, ARC_AWARD_PAY, award.pk, award.revision)
    for advance in _silent(Advance, now):
        sent += _send_again(advance, now, ADVANCE_RUN, advance.pk)
    return sent


def _silent(model, now: datetime) -> list:
    return list(
        model.objects.exclude(status=JobStatus.DONE).filter(heartbeat_at__lte=now - JOB_LEASE)
    )


def _send_again(job, now: datetime, name: str, *args) -> bool:
    """Send `job` again; once sent, its lease starts over (so the next sweeps leave it alone)."""
    if not job_send(name, *args):
        return False
    type(job).objects.filter(pk=job.pk, heartbeat_at=job.heartbeat_at).update(heartbeat_at=now)
    return True
