"""Helpers of the progression tests: characters, an arc, a checklist and paying it, a worker
process."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import connection

from altherion.celery import app as celery_app
from campaigns.models import Arc
from characters.models import Character, CharacterSkill
from progression import awards

BASE_DIR = Path(__file__).resolve().parent.parent.parent

# §10 worked example: danger 3; balance: all active, nobody monopolised (2); ingenuity: arc
# finished, a good idea (2); end of a chapter 1 + most main objectives met 1 (2); then per
# character a bounty; in-game length weeks ×3; then optional objectives.
EXAMPLE_GROUP = {
    "danger": 3,
    "balance": ["all_active", "no_monopoly"],
    "ingenuity": ["arc_finished", "good_idea"],
    "ending": "chapter",
    "ending_items": ["main_objectives"],
    "length": "weeks",
}

# A short arc: (danger 3 + 2 for taking part) × 3 for weeks = 15 XP each.
GROUP = {"danger": 3, "ending": "none", "length": "weeks"}


def make_character(campaign, owner, name="Aelis", **fields) -> Character:
    character = Character.objects.create(campaign=campaign, owner=owner, name=name, **fields)
    CharacterSkill.objects.create(character=character, key="melee", level=2)
    return character


def make_arc(campaign, **fields) -> Arc:
    fields.setdefault("title", "La tour engloutie")
    fields.setdefault("length_unit", "weeks")
    return Arc.objects.create(campaign=campaign, **fields)


def checklist(characters, group=None, per_character=None) -> dict:
    """Everyone took part; `per_character` maps a character's pk to extra ticks."""
    return {
        "group": group or EXAMPLE_GROUP,
        "characters": {
            str(c.pk): {"bounty": ["took_part"], "optional_objectives": 0}
            | (per_character or {}).get(c.pk, {})
            for c in characters
        },
    }


def pay(capture, arc, characters, by, **ticks):
    """Close `arc` with the short checklist (everyone took part, plus `ticks`) and pay it now;
    `capture` is django_capture_on_commit_callbacks."""
    with capture(execute=True):
        return awards.arc_award_confirm(
            arc=arc,
            checklist={
                "group": GROUP,
                "characters": {str(c.pk): {"bounty": ["took_part"], **ticks} for c in characters},
            },
            by=by,
        )


def database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}"
    )


WORKER = """
import sys
from altherion.celery import app
# Redeliver a lost worker's unacknowledged task after 2 s instead of an hour.
app.conf.broker_transport_options = {
    **(app.conf.broker_transport_options or {}),
    "visibility_timeout": 2,
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
app.worker_main(sys.argv[1:])
"""


def start_worker(broker: str, **env_extra) -> subprocess.Popen:
    """A real `celery worker` process on the test database and broker (like the celery_worker
    fixture), with extra environment (e.g. the award job's test-only pause)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": broker,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "0",
        "CONN_MAX_AGE": "0",
        **env_extra,
    }
    name = f"test-{uuid.uuid4().hex[:8]}@%h"
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            WORKER,
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "-n",
            name,
        ],
        cwd=BASE_DIR,
        env=env,
    )
    deadline = time.monotonic() + 30
    while not celery_app.control.ping(destination=[name.replace("%h", _hostname())], timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError("the Celery worker did not start")
    return process


def _hostname() -> str:
    import socket

    return socket.gethostname()


def wait_for(predicate, timeout=30.0, message="condition never met"):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, message
        time.sleep(0.1)
