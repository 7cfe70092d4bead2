"""Closing an arc pays each character's §10 award once: worked examples, double clicks,
re-runs, corrections, concurrent runs and a worker killed mid-task."""

import os
import signal
import threading
import uuid

import pytest
from django.db import connection, transaction

from altherion.celery import app as celery_app
from altherion.models import Heartbeat
from altherion.tasks import ping
from campaigns.models import ArcStatus, Notification
from progression import awards
from progression.experience import xp_balance
from progression.models import ArcAward, JobStatus, XpEntry
from progression.tasks import arc_award_pay
from tests.progression.helpers import (
    EXAMPLE_GROUP,
    checklist,
    make_arc,
    make_character,
    start_worker,
    wait_for,
)


@pytest.fixture
def party(campaign, player, other_player):
    return [
        make_character(campaign, player, "Aelis"),
        make_character(campaign, other_player, "Brann"),
    ]


def test_the_sources_checklist_gives_the_worked_examples(party):
    aelis, brann = party
    by_character = awards.checklist_awards(
        checklist(
            party,
            per_character={
                aelis.pk: {"bounty": ["took_part", "funny"], "optional_objectives": 2},
                brann.pk: {"bounty": ["took_part"]},
            },
        )
    )
    # (danger 3 + balance 2 + ingenuity 2 + bounty 3 + chapter 1 + objectives met 1) × weeks 3
    # + 2 optional objectives = 12 × 3 + 2.
    assert by_character[aelis.pk].total == 38
    # Brann: bounty 2 only → 11 × 3.
    assert by_character[brann.pk].total == 33
    labels = [line.label for line in by_character[aelis.pk].lines]
    assert "Fin de chapitre" in labels and "Objectifs optionnels" in labels


def test_an_act_ending_in_hours_with_nothing_ticked(party):
    group = {"danger": 1, "ending": "act", "length": "hours"}
    by_character = awards.checklist_awards(checklist(party, group=group))
    # danger 1 + end of act 2 + took part 2, × 1.
    assert {a.total for a in by_character.values()} == {5}


def test_confirming_closes_the_arc_and_pays_each_character_once(
    campaign, party, storyteller, player, django_capture_on_commit_callbacks
):
    arc = make_arc(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        award = awards.arc_award_confirm(arc=arc, checklist=checklist(party), by=storyteller)
    award.refresh_from_db()
    arc.refresh_from_db()
    assert arc.status == ArcStatus.CLOSED
    assert award.status == JobStatus.DONE and award.paid == award.total == 2
    assert [xp_balance(character=c) for c in party] == [33, 33]
    assert XpEntry.objects.filter(source_key=f"arc:{arc.pk}").count() == 2
    note = Notification.objects.get(user=player, kind="award")
    assert "33 points d'expérience" in note.text and note.read_at is None
    assert {row["name"] for row in award.summary} == {"Aelis", "Brann"}
    assert Notification.objects.filter(user=storyteller, kind="award_done").count() == 1


def test_a_double_click_and_a_rerun_never_pay_twice(
    campaign, party, storyteller, django_capture_on_commit_callbacks
):
    arc = make_arc(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        first = awards.arc_award_confirm(arc=arc, checklist=checklist(party), by=storyteller)
    with django_capture_on_commit_callbacks(execute=True) as again:
        second = awards.arc_award_confirm(arc=arc, checklist=checklist(party), by=storyteller)
    assert first.pk == second.pk and again == []  # the second click queues (and tells) nothing
    arc_award_pay.delay(first.pk, 1)
    arc_award_pay.apply(args=(first.pk, 1))
    # Even a run that finds the job "running" again (a retry after a crash) pays nothing more.
    ArcAward.objects.filter(pk=first.pk).update(status=JobStatus.RUNNING)
    awards.arc_award_pay(award_id=first.pk, revision=1)
    assert XpEntry.objects.filter(source_key=f"arc:{arc.pk}").count() == 2
    assert Notification.objects.filter(kind="award").count() == 2
    assert [xp_balance(character=c) for c in party] == [33, 33]


def test_a_correction_writes_the_difference_and_keeps_history(
    campaign, party, storyteller, django_capture_on_commit_callbacks
):
    aelis, brann = party
    arc = make_arc(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        award = awards.arc_award_confirm(arc=arc, checklist=checklist(party), by=storyteller)
    corrected = checklist(party, per_character={aelis.pk: {"bounty": ["took_part", "roleplay"]}})
    with django_capture_on_commit_callbacks(execute=True):
        award = awards.arc_award_correct(award=award, checklist=corrected, by=storyteller)
    entries = XpEntry.objects.filter(character=aelis).order_by("pk")
    assert [(e.source_key, e.amount) for e in entries] == [
        (f"arc:{arc.pk}", 33),
        (f"arc:{arc.pk}:correction:2", 3),  # +1 bounty × weeks 3
    ]
    # Brann's award did not change: no correcting entry.
    assert XpEntry.objects.filter(character=brann).count() == 1
    # Correcting back (danger lowered for everyone) writes negative entries, nothing rewritten.
    lowered = checklist(party, group=EXAMPLE_GROUP | {"danger": 2})
    with django_capture_on_commit_callbacks(execute=True):
        awards.arc_award_correct(award=award, checklist=lowered, by=storyteller)
    assert xp_balance(character=aelis) == 30 and xp_balance(character=brann) == 30
    assert XpEntry.objects.filter(character=aelis).count() == 3
    # The job of an older revision (a late retry) does nothing.
    awards.arc_award_pay(award_id=award.pk, revision=2)
    assert xp_balance(character=aelis) == 30


def test_a_bad_checklist_is_refused_in_french_and_changes_nothing(campaign, party, storyteller):
    arc = make_arc(campaign)
    bad = checklist(party, group=EXAMPLE_GROUP | {"danger": 9})
    with pytest.raises(Exception, match="danger se choisit entre 1 et 5"):
        awards.arc_award_confirm(arc=arc, checklist=bad, by=storyteller)
    arc.refresh_from_db()
    assert arc.status == ArcStatus.OPEN and not ArcAward.objects.exists()


@pytest.mark.services
def test_two_concurrent_runs_pay_once(postgres, storyteller, player, other_player, campaign):
    party = [make_character(campaign, player, f"P{i}") for i in range(6)]
    arc = make_arc(campaign)
    with transaction.atomic():
        award = ArcAward.objects.create(
            arc=arc, checklist=checklist(party), total=len(party), created_by=storyteller
        )
    barrier = threading.Barrier(2)
    errors = []

    def run():
        try:
            barrier.wait()
            awards.arc_award_pay(award_id=award.pk, revision=1)
        except Exception as error:  # noqa: BLE001 — reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert XpEntry.objects.filter(source_key=f"arc:{arc.pk}").count() == 6
    assert Notification.objects.filter(kind="award").count() == 6


@pytest.mark.services
def test_two_real_workers_and_a_worker_killed_mid_task_pay_each_award_once(
    postgres, redis_broker, storyteller, player, campaign
):
    """Worker 1 pays the first character then pauses (test-only hook): it is killed with
    SIGKILL. The task, acknowledged late, is redelivered to worker 2, which finishes; the same
    task sent again to both workers pays nothing more."""
    party = [make_character(campaign, player, f"P{i}") for i in range(4)]
    arc = make_arc(campaign)
    celery_app.control.purge()
    celery_app.conf.task_always_eager = False
    first = second = None
    try:
        first = start_worker(redis_broker, **{awards.PAUSE_ENV: "60"})
        with transaction.atomic():
            award = awards.arc_award_confirm(arc=arc, checklist=checklist(party), by=storyteller)
        paid = XpEntry.objects.filter(source_key=f"arc:{arc.pk}")
        wait_for(lambda: paid.count() >= 1, message="worker 1 never paid the first character")
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        assert paid.count() < len(party)  # killed mid-task
        second = start_worker(redis_broker)
        wait_for(
            lambda: ArcAward.objects.get(pk=award.pk).status == JobStatus.DONE,
            timeout=60,
            message="the task was not retried after the worker was killed",
        )
        # Concurrent duplicates on a live worker change nothing.
        arc_award_pay.delay(award.pk, 1)
        arc_award_pay.delay(award.pk, 1)
        token = uuid.uuid4().hex
        ping.delay(token)  # the solo worker runs tasks in order: after the ping, both ran
        wait_for(lambda: Heartbeat.objects.filter(token=token).exists())
    finally:
        celery_app.conf.task_always_eager = True
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=15)
    assert sorted(paid.values_list("character_id", flat=True)) == sorted(c.pk for c in party)
    assert Notification.objects.filter(kind="award").count() == len(party)
