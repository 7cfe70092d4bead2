"""Bench of the progression jobs on PostgreSQL (database altherion_bench_jobs): the arc award job
and an ellipse advance for 1,000 characters in 50 campaigns, then 100 characters in 50
campaigns; prints seconds and queries. Queries per campaign must not grow with its characters."""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "altherion.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/altherion_bench_jobs")
os.environ.setdefault("SECRET_KEY", "bench-key-" + "x" * 50)
os.environ.pop("CELERY_BROKER_URL", None)  # run the jobs in-process: we time the services

import django  # noqa: E402

django.setup()

from _report import emit  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from campaigns.models import Arc, Campaign  # noqa: E402
from characters.models import Character  # noqa: E402
from progression import advances, awards  # noqa: E402
from progression.models import Advance, ArcAward, Ellipse, Training  # noqa: E402

CAMPAIGNS = 50


def ensure_database() -> None:
    import psycopg

    name = connection.settings_dict["NAME"]
    admin = dict(connection.settings_dict)
    with psycopg.connect(
        host=admin["HOST"] or "127.0.0.1", user=admin["USER"], dbname="postgres", autocommit=True
    ) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)


def build(per_campaign: int, tag: str) -> list[tuple[ArcAward, Advance]]:
    user_model = get_user_model()
    jobs = []
    with transaction.atomic():
        for n in range(CAMPAIGNS):
            owner, _ = user_model.objects.get_or_create(username=f"bench-{tag}-{n}")
            campaign = Campaign.objects.create(name=f"Bench {tag} {n}")
            characters = Character.objects.bulk_create(
                Character(campaign=campaign, owner=owner, name=f"C{i}") for i in range(per_campaign)
            )
            arc = Arc.objects.create(campaign=campaign, title="Arc", length_unit="weeks")
            checklist = {
                "group": {"danger": 3, "balance": ["all_active"], "length": "weeks"},
                "characters": {
                    str(c.pk): {"bounty": ["took_part"], "used": ["strength"]} for c in characters
                },
            }
            award = ArcAward.objects.create(arc=arc, checklist=checklist, total=len(characters))
            ellipse = Ellipse.objects.create(campaign=campaign, length_days=30, kind="medium")
            Training.objects.bulk_create(
                Training(
                    character=c,
                    ellipse=ellipse,
                    kind="characteristic",
                    target="strength",
                    label="Force +1",
                    days_needed=30,
                    position=1,
                    xp_reserved=5,
                    status="running",
                )
                for c in characters
            )
            advance = Advance.objects.create(
                ellipse=ellipse, key=f"bench-{ellipse.pk}", closes=True
            )
            jobs.append((award, advance))
    return jobs


FRENCH = {"award job": "tâche de récompense d'arc", "ellipse advance": "avance d'ellipse"}


def run(per_campaign: int, tag: str) -> None:
    jobs = build(per_campaign, tag)
    total = per_campaign * CAMPAIGNS
    for label, call in (
        ("award job", lambda a, v: awards.arc_award_pay(award_id=a.pk, revision=1)),
        ("ellipse advance", lambda a, v: advances.advance_run(advance_id=v.pk)),
    ):
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            for award, advance in jobs:
                call(award, advance)
        seconds = time.perf_counter() - start
        if total >= 1000:
            emit(
                {
                    "name": f"{FRENCH[label]} ({total} personnages, {CAMPAIGNS} campagnes)",
                    "seconds": seconds,
                    "queries": len(queries),
                }
            )
        print(
            f"{label:16} {total:5} characters in {CAMPAIGNS} campaigns: {seconds:6.2f} s, "
            f"{len(queries):5} queries ({len(queries) / CAMPAIGNS:.1f} per campaign)",
            flush=True,
        )


def main() -> None:
    ensure_database()
    tag = str(int(time.time()))
    run(2, tag + "a")  # 100 characters
    run(20, tag + "b")  # 1,000 characters


if __name__ == "__main__":
    main()
