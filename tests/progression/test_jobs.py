"""The progression's jobs are sent by their Celery names: the beat's names resolve to registered
tasks, and in the embedded mode (no broker) a job sent by name — by a service or by the requeue
sweep — runs in-process."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from altherion.celery import app as celery_app
from progression import ellipses, services
from progression.models import Advance, ArcAward, JobStatus, XpEntry
from tests.progression.helpers import GROUP, make_arc, make_character


def test_every_progression_job_the_beat_names_is_a_registered_task():
    names = [
        entry["task"]
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
        if entry["task"].startswith("progression.")
    ]
    assert names
    for name in [*names, services.ARC_AWARD_PAY, services.ADVANCE_RUN]:
        assert name in celery_app.tasks, name


@pytest.mark.django_db
def test_an_advance_requested_runs_in_process_after_the_commit(
    campaign, player, django_capture_on_commit_callbacks
):
    make_character(campaign, player)
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=30)
    with django_capture_on_commit_callbacks(execute=True):
        advance = ellipses.advance_request(ellipse=ellipse, key="k1", days=5)
    advance.refresh_from_db()
    assert advance.status == JobStatus.DONE
    ellipse.refresh_from_db()
    assert ellipse.days_elapsed == 5


@pytest.mark.django_db
def test_the_sweep_sends_a_silent_award_again_and_it_is_paid_once(
    campaign, player, other_player, storyteller
):
    characters = [
        make_character(campaign, player, "Aelis"),
        make_character(campaign, other_player, "Brann"),
    ]
    arc = make_arc(campaign)
    # Recorded while the broker was down: the job never left, its row is pending and silent.
    award = ArcAward.objects.create(
        arc=arc,
        checklist={
            "group": GROUP,
            "characters": {str(c.pk): {"bounty": ["took_part"]} for c in characters},
        },
        total=len(characters),
        created_by=storyteller,
    )
    later = timezone.now() + services.JOB_LEASE + timedelta(seconds=1)

    assert services.jobs_requeue(now=later) == 1

    award.refresh_from_db()
    assert award.status == JobStatus.DONE
    assert sorted(XpEntry.objects.values_list("amount", flat=True)) == [15, 15]
    # Done: the next sweeps leave it alone.
    assert services.jobs_requeue(now=later + services.JOB_LEASE * 2) == 0
    assert not Advance.objects.exists()
