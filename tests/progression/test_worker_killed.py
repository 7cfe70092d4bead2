"""A whole worker killed mid-job (issue 12 §1): the system finishes the job by itself, paid once,
with the settings production runs — docker-compose.yml's worker and beat commands, the
project's Celery settings (no test override of the visibility timeout), real Redis and
PostgreSQL. The worker's main process and its pool children die together (`kill -9` of the
process group); a new worker comes up; the beat's lease sweep sends the orphaned jobs again."""

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.db import transaction

from altherion.celery import app as celery_app
from campaigns.models import Campaign
from characters.models import Character, CharacterSkill
from progression import advances, awards, ellipses, trainings
from progression.models import Advance, ArcAward, JobStatus, TrainingStatus, XpEntry
from progression.services import JOB_LEASE
from tests.progression.helpers import BASE_DIR, GROUP, checklist, database_url, make_arc

pytestmark = pytest.mark.services

PARTY = 600
# "Finished by the system alone within 2 minutes of a new worker starting."
RECOVERY = 120


def _compose_command(service: str) -> list[str]:
    compose = yaml.safe_load((Path(BASE_DIR) / "docker-compose.yml").read_text())
    command = compose["services"][service]["command"]
    assert command[0] == "celery"
    return [sys.executable, "-m", "celery", *command[1:]]


def _start(service: str, broker: str, tmp_path: Path, **env_extra) -> subprocess.Popen:
    """docker-compose's `service` command in its own process group, on the test's services."""
    command = _compose_command(service)
    if service == "beat":
        at = command.index("--schedule")
        command[at + 1] = str(tmp_path / f"beat-{uuid.uuid4().hex[:6]}")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": broker,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "0",
        **env_extra,
    }
    log = open(tmp_path / f"{service}-{uuid.uuid4().hex[:6]}.log", "wb")  # noqa: SIM115
    return subprocess.Popen(
        command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


def _kill_group(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def _stop_group(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            _kill_group(process)


def _wait(predicate, timeout: float, message: str) -> float:
    started = time.monotonic()
    while not predicate():
        assert time.monotonic() - started < timeout, message
        time.sleep(0.25)
    return time.monotonic() - started


def _party(campaign, owner, size: int) -> list[Character]:
    party = Character.objects.bulk_create(
        Character(campaign=campaign, owner=owner, name=f"P{i}") for i in range(size)
    )
    CharacterSkill.objects.bulk_create(
        CharacterSkill(character=c, key="melee", level=2) for c in party
    )
    return party


def test_a_worker_killed_mid_job_leaves_nothing_stuck(
    postgres, redis_broker, storyteller, player, campaign, other_campaign, outsider, tmp_path
):
    # An arc award for 600 characters, and an ellipse close in another campaign.
    party = _party(campaign, player, PARTY)
    arc = make_arc(campaign)
    hero = _party(other_campaign, outsider, 1)[0]
    earlier = make_arc(other_campaign)
    ticks = {"bounty": ["took_part"], "used": ["strength"], "opposition_level": 5}
    earned = {"group": GROUP, "characters": {str(hero.pk): ticks}}
    awards.arc_award_confirm(arc=earlier, checklist=earned, by=outsider)  # eager: paid now
    ellipse = ellipses.ellipse_open(campaign=other_campaign, length_days=90)
    training = trainings.training_queue(
        character=hero, ellipse=ellipse, kind="characteristic", target="strength", by=outsider
    )
    day = Campaign.objects.get(pk=other_campaign.pk).in_game_day

    celery_app.control.purge()
    celery_app.conf.task_always_eager = False
    beat = first = second = None
    try:
        beat = _start("beat", redis_broker, tmp_path)
        # The test-only hooks make the first worker pause in the middle of each job.
        first = _start(
            "worker",
            redis_broker,
            tmp_path,
            **{awards.PAUSE_ENV: "600", advances.PAUSE_ENV: "600"},
        )
        with transaction.atomic():
            award = awards.arc_award_confirm(arc=arc, checklist=checklist(party), by=storyteller)
        with transaction.atomic():
            advance = ellipses.advance_request(ellipse=ellipse, key="close", closes=True)
        paid = XpEntry.objects.filter(source_key=f"arc:{arc.pk}")
        _wait(lambda: paid.count() >= 1, 60, "the first worker never started paying")
        time.sleep(1)  # the advance, on the pool's other process, is holding its locks

        _kill_group(first)
        assert ArcAward.objects.get(pk=award.pk).status == JobStatus.RUNNING
        assert paid.count() < PARTY
        assert Advance.objects.get(pk=advance.pk).status == JobStatus.PENDING

        second = _start("worker", redis_broker, tmp_path)
        took = _wait(
            lambda: (
                ArcAward.objects.get(pk=award.pk).status == JobStatus.DONE
                and Advance.objects.get(pk=advance.pk).status == JobStatus.DONE
            ),
            RECOVERY,
            f"a job stayed stuck after its worker died (logs in {tmp_path})",
        )
        assert took > JOB_LEASE.total_seconds() / 2  # the lease sweep did it, not a fluke
    finally:
        celery_app.conf.task_always_eager = True
        for process in (first, second, beat):
            if process is not None:
                _stop_group(process)

    # Paid once: one entry per character, the ellipse closed once.
    assert paid.count() == PARTY
    assert sorted(paid.values_list("character_id", flat=True)) == sorted(c.pk for c in party)
    assert ArcAward.objects.get(pk=award.pk).paid == PARTY
    training.refresh_from_db()
    assert training.status == TrainingStatus.DONE
    assert XpEntry.objects.filter(source_key=f"training:{training.pk}").count() == 1
    assert XpEntry.objects.filter(source_key=f"ellipse:{ellipse.pk}:xp").count() == 1
    assert Campaign.objects.get(pk=other_campaign.pk).in_game_day == day + 90
    hero.refresh_from_db()
    assert hero.strength == 3 and hero.version == 2


def test_the_beat_sweeps_twice_per_lease_and_the_broker_outlives_the_longest_job():
    sweep = settings.CELERY_BEAT_SCHEDULE["jobs-requeue"]["schedule"]
    assert sweep <= JOB_LEASE.total_seconds() / 2
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] >= 300
