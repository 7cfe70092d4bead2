"""Failures of the task broker: with Redis down the pages still answer at once, the jobs wait with
a clear French message, and once Redis is back the beat's sweep sends them again: each is paid
exactly once by a real worker. (A worker killed mid-task: tests/campaigns/test_progression_award.py;
a database error's friendly page: tests/altherion/test_error_pages.py.)"""

import shutil
import socket
import subprocess
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from altherion.celery import app as celery_app
from campaigns.models import Arc
from characters.models import Character
from progression import ellipses
from progression import services as progression
from progression.models import Advance, ArcAward, JobStatus, XpEntry
from tests.conftest import service_missing
from tests.progression.helpers import start_worker, wait_for

MESSAGE = "Le serveur de tâches ne répond pas : le calcul reprendra automatiquement."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def reset_pools() -> None:
    """Forget pooled broker connections and producers (they keep the URL they were made for)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker_at(settings, monkeypatch):
    """Point the app (this process and the pages) at a broker URL; restored afterwards."""
    saved = (celery_app.conf.broker_url, celery_app.conf.task_always_eager)

    def point(url: str) -> None:
        # Celery reads CELERY_BROKER_URL from the environment before its own configuration.
        monkeypatch.setenv("CELERY_BROKER_URL", url)
        settings.CELERY_BROKER_URL = url
        celery_app.conf.broker_url = url
        celery_app.conf.task_always_eager = False
        reset_pools()
        progression._broker_check.update(at=float("-inf"), down=False)

    yield point
    celery_app.conf.broker_url, celery_app.conf.task_always_eager = saved
    reset_pools()
    progression._broker_check.update(at=float("-inf"), down=False)


def _confirm_arc(client, campaign, arc, characters):
    data = {"action": "confirm", "danger": "3", "ending": "none", "length": "weeks"}
    for character in characters:
        data[f"present_{character.pk}"] = "on"
        data[f"bounty_{character.pk}"] = "took_part"
    return client.post(reverse("progression:arc_experience", args=[campaign.pk, arc.pk]), data)


@pytest.fixture
def table(campaign, storyteller, player, other_player):
    characters = [
        Character.objects.create(campaign=campaign, owner=player, name="Aelis"),
        Character.objects.create(campaign=campaign, owner=other_player, name="Brann"),
    ]
    arc = Arc.objects.create(campaign=campaign, title="La tour engloutie", length_unit="weeks")
    client = Client()
    client.force_login(storyteller)
    return campaign, arc, characters, client


@pytest.mark.django_db(transaction=True)
def test_with_the_broker_down_closing_an_arc_answers_at_once_and_says_the_job_waits(
    broker_at, table
):
    campaign, arc, characters, client = table
    broker_at(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there

    started = time.monotonic()
    response = _confirm_arc(client, campaign, arc, characters)
    assert response.status_code == 302
    assert time.monotonic() - started < 3

    award = ArcAward.objects.get(arc=arc)
    assert award.status == JobStatus.PENDING
    assert not XpEntry.objects.exists()
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert MESSAGE in page.content.decode()
    progress = client.get(
        reverse("progression:arc_experience_progress", args=[campaign.pk, arc.pk]),
        HTTP_HX_REQUEST="true",
    )
    assert MESSAGE in progress.content.decode()

    # An ellipse advance: the same.
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=30)
    started = time.monotonic()
    response = client.post(
        reverse("progression:ellipse_advance", args=[campaign.pk, ellipse.pk]),
        {"days": "5", "key": "k1"},
    )
    assert response.status_code in (200, 302)
    assert time.monotonic() - started < 3
    assert Advance.objects.get().status == JobStatus.PENDING
    page = client.get(reverse("progression:ellipse_detail", args=[campaign.pk, ellipse.pk]))
    assert MESSAGE in page.content.decode()

    # The sweep, with the broker still down, fails as fast and keeps the jobs pending.
    started = time.monotonic()
    later = timezone.now() + progression.JOB_LEASE + timedelta(seconds=1)
    assert progression.jobs_requeue(now=later) == 0
    assert time.monotonic() - started < 5
    assert ArcAward.objects.get().status == JobStatus.PENDING


@pytest.mark.django_db
def test_the_message_stays_away_in_the_embedded_mode(table, django_capture_on_commit_callbacks):
    campaign, arc, characters, client = table
    with django_capture_on_commit_callbacks(execute=True):
        response = _confirm_arc(client, campaign, arc, characters)  # paid in-process
    page = client.get(response["Location"])
    assert MESSAGE not in page.content.decode()
    assert ArcAward.objects.get().status == JobStatus.DONE


def test_the_beat_schedules_the_requeue_sweep():
    from django.conf import settings

    assert settings.CELERY_BEAT_SCHEDULE["jobs-requeue"]["task"] == "progression.tasks.jobs_requeue"
    assert "progression.tasks.jobs_requeue" in celery_app.tasks


@pytest.fixture
def own_redis():
    """A redis-server of this test's own on a free port: `start()` and `stop()` at will."""
    binary = shutil.which("redis-server")
    if binary is None:
        service_missing("redis-server is not installed")
    port = free_port()
    state = {"process": None}

    def start():
        state["process"] = subprocess.Popen(
            [binary, "--port", str(port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def stop():
        if state["process"] is not None:
            state["process"].kill()
            state["process"].wait()
            state["process"] = None

    yield SimpleRedis(f"redis://127.0.0.1:{port}/0", start, stop)
    stop()


class SimpleRedis:
    def __init__(self, url, start, stop):
        self.url, self.start, self.stop = url, start, stop


@pytest.mark.services
def test_jobs_recorded_while_redis_was_down_are_paid_once_when_it_returns(
    postgres, own_redis, broker_at, table
):
    campaign, arc, characters, client = table
    broker_at(own_redis.url)
    own_redis.start()
    own_redis.stop()  # Redis was there, and went away

    started = time.monotonic()
    assert _confirm_arc(client, campaign, arc, characters).status_code == 302
    assert time.monotonic() - started < 3
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=30)
    client.post(
        reverse("progression:ellipse_advance", args=[campaign.pk, ellipse.pk]),
        {"days": "5", "key": "k1"},
    )
    assert ArcAward.objects.get().status == JobStatus.PENDING
    assert Advance.objects.get().status == JobStatus.PENDING

    own_redis.start()  # back: a worker comes up, the beat's sweep sends the jobs again
    reset_pools()
    worker = start_worker(own_redis.url)
    try:
        later = timezone.now() + progression.JOB_LEASE + timedelta(seconds=1)
        assert progression.jobs_requeue(now=later) == 2
        wait_for(lambda: ArcAward.objects.get().status == JobStatus.DONE, 30, "award never paid")
        wait_for(lambda: Advance.objects.get().status == JobStatus.DONE, 30, "advance never ran")
        # A second sweep (the next beat tick) finds nothing left to send.
        assert progression.jobs_requeue(now=later) == 0
        time.sleep(1)
    finally:
        worker.terminate()
        worker.wait(15)

    # Paid exactly once: one ledger entry per character, (3 + 2) × 3 = 15 XP each.
    entries = XpEntry.objects.filter(source_key=f"arc:{arc.pk}")
    assert sorted(entries.values_list("character__name", "amount")) == [
        ("Aelis", 15),
        ("Brann", 15),
    ]
    assert ellipse.__class__.objects.get(pk=ellipse.pk).days_elapsed == 5
    page = client.get(reverse("progression:arc_experience", args=[campaign.pk, arc.pk]))
    assert MESSAGE not in page.content.decode()
