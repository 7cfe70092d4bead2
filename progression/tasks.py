"""Background jobs of the progression (thin: load, call the service, done). The services claim
their work, so a retry (acks_late, a worker lost) or a duplicate run changes nothing more.

The services queue these by name (`progression.services`), never by importing this module."""

from celery import shared_task

from progression import advances, awards, ellipses, services


@shared_task(name=services.ARC_AWARD_PAY, acks_late=True, reject_on_worker_lost=True)
def arc_award_pay(award_id: int, revision: int) -> None:
    """Pay an arc's experience awards (one ledger entry per character and revision)."""
    awards.arc_award_pay(award_id=award_id, revision=revision)


@shared_task(name=services.ADVANCE_RUN, acks_late=True, reject_on_worker_lost=True)
def advance_run(advance_id: int) -> None:
    """Move an ellipse's timers by one recorded advance, exactly once."""
    advances.advance_run(advance_id=advance_id)


@shared_task(name=services.ELLIPSE_DEADLINES_SWEEP, acks_late=True)
def ellipse_deadlines_sweep() -> None:
    """Beat: end the open ellipses whose real-world deadline has passed."""
    ellipses.ellipse_deadlines_sweep()


@shared_task(name=services.JOBS_REQUEUE, acks_late=True)
def jobs_requeue() -> None:
    """Beat: send again the jobs left pending (their broker was down when they were recorded)."""
    services.jobs_requeue()
