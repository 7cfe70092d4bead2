"""Ellipses and training timers (§11): durations by trainer, queue order, reserved XP, the
ellipse kind's limits, and advances that run exactly once (repeated, concurrent, by deadline,
and on a real worker)."""

import threading
from datetime import timedelta
from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Arc, Campaign
from characters.models import Character, CharacterSkill
from progression import advances, awards, ellipses, experience, trainings
from progression.models import (
    Advance,
    Ellipse,
    EllipseStatus,
    JobStatus,
    Training,
    TrainingStatus,
    XpEntry,
)
from tests.character_fixtures import *  # noqa: F403 (fixtures: the sheet factories)

GROUP = {"danger": 3, "ending": "none", "length": "weeks"}  # (3 + 2) × 3 = 15 XP each


@pytest.fixture
def hero(campaign, player):
    character = Character.objects.create(campaign=campaign, owner=player, name="Aelis")
    CharacterSkill.objects.create(character=character, key="melee", level=2)
    return character


@pytest.fixture
def awarded(campaign, hero, storyteller, django_capture_on_commit_callbacks):
    """An arc closed and paid: 15 XP, strength and melee used, an opposition of level 5."""
    arc = Arc.objects.create(campaign=campaign, title="Arc", length_unit="weeks")
    ticks = {
        "bounty": ["took_part"],
        "used": ["strength", "melee"],
        "opposition_level": 5,
    }
    with django_capture_on_commit_callbacks(execute=True):
        awards.arc_award_confirm(
            arc=arc,
            checklist={"group": GROUP, "characters": {str(hero.pk): ticks}},
            by=storyteller,
        )
    return arc


def open_ellipse(campaign, days):
    return ellipses.ellipse_open(campaign=campaign, length_days=days)


def advance(ellipse, key, capture, **kw):
    with capture(execute=True):
        return ellipses.advance_request(ellipse=ellipse, key=key, **kw)


def test_durations_follow_the_confirmed_trainer(campaign, hero, awarded, player):
    ellipse = open_ellipse(campaign, 60)
    alone = trainings.training_queue(
        character=hero, ellipse=ellipse, kind="characteristic", target="strength", by=player
    )
    assert alone.days_needed == 30
    coached = trainings.training_queue(
        character=hero,
        ellipse=ellipse,
        kind="skill",
        target="melee",
        trainer="educational",
        by=player,
    )
    # The player picked an educational trainer; until the Conteur confirms, it is "alone".
    assert coached.days_needed == 120 and not coached.trainer_confirmed
    assert trainings.training_confirm_trainer(training=coached).days_needed == 60


WAITING = "Entraîneur à confirmer par le Conteur : compte comme seul en attendant."
COUNTED_ALONE = "Entraîneur non confirmé : compté comme seul."


def test_an_unconfirmed_trainer_counts_as_alone_and_the_pages_say_so(
    client, campaign, hero, awarded, player, storyteller, django_capture_on_commit_callbacks
):
    """Source: « Afin d'entrainer une caractéristique, le personnage doit passer 1 mois à
    s'entrainer. Si vous avez un entraineur, le temps d'entrainement passe à 3 semaines ».
    RULES.md §11: "characteristic 30 / 21 / 14" (alone / with a trainer / educational). The
    trainer is the Conteur's to confirm (Reading, `rules.ellipse.counted_trainer`): until then
    the training runs at the alone duration."""
    ellipse = open_ellipse(campaign, 60)
    training = trainings.training_queue(
        character=hero,
        ellipse=ellipse,
        kind="characteristic",
        target="strength",
        trainer="trainer",
        by=player,
    )
    experience_url = reverse("progression:character_experience", args=[campaign.pk, hero.pk])
    ellipse_url = reverse("progression:ellipse_detail", args=[campaign.pk, ellipse.pk])
    day = Campaign.objects.get(pk=campaign.pk).in_game_day

    advance(ellipse, "three-weeks", django_capture_on_commit_callbacks, days=21)
    training.refresh_from_db()
    assert (training.status, training.days_done, training.days_needed) == ("running", 21, 30)
    client.force_login(player)
    page = client.get(experience_url).content.decode()
    assert WAITING in page and "21 / 30 jours" in page
    client.force_login(storyteller)
    assert WAITING in client.get(ellipse_url).content.decode()

    advance(ellipse, "close", django_capture_on_commit_callbacks, closes=True)
    training.refresh_from_db()
    hero.refresh_from_db()
    assert training.status == "done" and training.finished_day == day + 30  # the alone month
    assert hero.strength == 3
    client.force_login(player)
    page = client.get(experience_url).content.decode()
    assert COUNTED_ALONE in page and "à confirmer" not in page


def test_a_class_without_a_confirmed_trainer_is_not_gained_at_the_ellipse_end(
    campaign, hero, awarded, player, django_capture_on_commit_callbacks
):
    """Source: « Les personnages peuvent obtenir une classe dont ils remplissent les prérequis
    si ils ont un entraîneur ». RULES.md §10: "A class is gained only in a major ellipse with a
    trainer". A trainer the Conteur never confirmed counts as none: the class is not gained."""
    from campaigns.models import CharacterClass

    cls = CharacterClass.objects.create(campaign=campaign, name="Lame")
    ellipse = open_ellipse(campaign, 90)
    training = trainings.training_queue(
        character=hero,
        ellipse=ellipse,
        kind="class",
        target=str(cls.pk),
        trainer="trainer",
        by=player,
    )
    advance(ellipse, "close", django_capture_on_commit_callbacks, closes=True)
    training.refresh_from_db()
    assert training.status == TrainingStatus.CANCELLED
    assert not hero.classes.filter(pk=cls.pk).exists()
    note = hero.owner.notifications.get(key=f"training:{training.pk}:refused")
    assert "Il faut un entraîneur ou un enseignant." in note.text
    assert "Le Conteur n'a pas confirmé l'entraîneur choisi." in note.text


def test_a_class_with_a_confirmed_trainer_is_gained_at_the_ellipse_end(
    campaign, hero, awarded, player, django_capture_on_commit_callbacks
):
    from campaigns.models import CharacterClass

    cls = CharacterClass.objects.create(campaign=campaign, name="Lame")
    ellipse = open_ellipse(campaign, 90)
    training = trainings.training_queue(
        character=hero,
        ellipse=ellipse,
        kind="class",
        target=str(cls.pk),
        trainer="trainer",
        by=player,
    )
    trainings.training_confirm_trainer(training=training)
    advance(ellipse, "close", django_capture_on_commit_callbacks, closes=True)
    training.refresh_from_db()
    assert training.status == TrainingStatus.DONE
    assert hero.classes.filter(pk=cls.pk).exists()


def test_queued_trainings_run_in_order_and_complete_once(
    campaign, hero, awarded, player, django_capture_on_commit_callbacks
):
    ellipse = open_ellipse(campaign, 180)
    assert ellipse.kind == "major"
    first = trainings.training_queue(
        character=hero, ellipse=ellipse, kind="characteristic", target="strength", by=player
    )
    second = trainings.training_queue(
        character=hero, ellipse=ellipse, kind="skill", target="melee", by=player
    )
    assert (first.status, second.status) == (TrainingStatus.RUNNING, TrainingStatus.QUEUED)
    assert experience.xp_available(character=hero) == 15 - 5 - 10
    day = Campaign.objects.get(pk=campaign.pk).in_game_day

    advance(ellipse, "a", django_capture_on_commit_callbacks, days=40)
    first.refresh_from_db()
    second.refresh_from_db()
    hero.refresh_from_db()
    assert first.status == TrainingStatus.DONE and first.finished_day == day + 30
    assert (second.status, second.days_done) == (TrainingStatus.RUNNING, 10)
    assert hero.strength == 3 and hero.version == 2
    assert hero.changes.filter(field="strength", new_value=3).exists()
    assert experience.xp_balance(character=hero) == 15 - 5  # charged when finished
    assert Campaign.objects.get(pk=campaign.pk).in_game_day == day + 40
    assert hero.owner.notifications.filter(kind="training").count() == 1

    # The same advance again (a double click, a retry) changes nothing more.
    advance(ellipse, "a", django_capture_on_commit_callbacks, days=40)
    advances.advance_run(advance_id=Advance.objects.get(key="a").pk)
    assert Campaign.objects.get(pk=campaign.pk).in_game_day == day + 40

    advance(ellipse, "close", django_capture_on_commit_callbacks, closes=True)
    second.refresh_from_db()
    ellipse.refresh_from_db()
    assert second.status == TrainingStatus.DONE and second.finished_day == day + 40 + 110
    assert hero.skills.get(key="melee").level == 3
    assert ellipse.status == EllipseStatus.CLOSED and ellipse.days_elapsed == 180
    # Ellipse XP: 25 weeks × 1 (free training).
    assert XpEntry.objects.get(character=hero, source_key=f"ellipse:{ellipse.pk}:xp").amount == 25
    assert experience.xp_balance(character=hero) == 15 - 5 - 10 + 25
    assert Campaign.objects.get(pk=campaign.pk).in_game_day == day + 180


def test_cancelling_a_training_frees_its_reserved_xp(campaign, hero, awarded, player):
    ellipse = open_ellipse(campaign, 30)
    training = trainings.training_queue(
        character=hero, ellipse=ellipse, kind="skill", target="melee", by=player
    )
    assert experience.xp_available(character=hero) == 5
    trainings.training_cancel(training=training)
    trainings.training_cancel(training=training)
    assert experience.xp_available(character=hero) == 15
    assert not XpEntry.objects.filter(kind="training").exists()


def test_a_class_needs_a_major_ellipse_and_a_trainer(campaign, hero, awarded, player):
    from campaigns.models import CharacterClass

    cls = CharacterClass.objects.create(campaign=campaign, name="Lame")
    ellipse = open_ellipse(campaign, 20)
    assert ellipse.kind == "medium"
    with pytest.raises(ValidationError, match="n'est pas possible pendant cette ellipse"):
        trainings.training_queue(
            character=hero,
            ellipse=ellipse,
            kind="class",
            target=str(cls.pk),
            trainer="trainer",
            by=player,
        )
    assert not Training.objects.exists()


def test_spending_is_refused_with_the_rules_reasons(campaign, hero, awarded, player):
    ellipse = open_ellipse(campaign, 30)
    with pytest.raises(ValidationError, match="utilisé pendant l'arc"):
        trainings.training_queue(
            character=hero, ellipse=ellipse, kind="characteristic", target="wisdom", by=player
        )
    trainings.training_queue(
        character=hero, ellipse=ellipse, kind="characteristic", target="strength", by=player
    )
    with pytest.raises(ValidationError, match="déjà à l'entraînement pendant cet acte"):
        trainings.training_queue(
            character=hero, ellipse=ellipse, kind="characteristic", target="strength", by=player
        )


def test_an_improvement_in_training_is_not_said_to_be_made(
    client, campaign, hero, awarded, player, django_capture_on_commit_callbacks
):
    """While its training runs, the strength the character trains is « à l'entraînement », not
    « déjà faite »; once the training is done, it is made for this act."""
    ellipse = open_ellipse(campaign, 60)
    trainings.training_queue(
        character=hero, ellipse=ellipse, kind="characteristic", target="strength", by=player
    )
    advance(ellipse, "ten-days", django_capture_on_commit_callbacks, days=10)
    client.force_login(player)
    experience_url = reverse("progression:character_experience", args=[campaign.pk, hero.pk])
    page = unescape(client.get(experience_url).content.decode())
    assert "Cette amélioration est déjà à l'entraînement pendant cet acte" in page
    assert "déjà été faite" not in page
    advance(ellipse, "close", django_capture_on_commit_callbacks, closes=True)
    page = unescape(client.get(experience_url).content.decode())
    assert "Cette amélioration a déjà été faite une fois pendant cet acte." in page
    assert "déjà à l'entraînement" not in page


def test_spending_now_with_a_hope_point_is_paid_once(campaign, hero, awarded, player):
    Character.objects.filter(pk=hero.pk).update(personal_hope=1)
    entry = experience.xp_spend(
        character=hero, kind="skill", target="melee", mode="hope", key="k1", by=player
    )
    again = experience.xp_spend(
        character=hero, kind="skill", target="melee", mode="hope", key="k1", by=player
    )
    assert entry.pk == again.pk and entry.amount == -10
    hero.refresh_from_db()
    assert hero.personal_hope == 0 and hero.skills.get(key="melee").level == 3
    assert experience.xp_balance(character=hero) == 5


def test_the_deadline_sweep_closes_due_ellipses_once(
    campaign, hero, django_capture_on_commit_callbacks
):
    ellipse = open_ellipse(campaign, 14)
    Ellipse.objects.filter(pk=ellipse.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        ellipses.ellipse_deadlines_sweep()
    with django_capture_on_commit_callbacks(execute=True):
        ellipses.ellipse_deadlines_sweep()
    ellipse.refresh_from_db()
    assert ellipse.status == EllipseStatus.CLOSED
    assert Advance.objects.filter(ellipse=ellipse).count() == 1
    assert XpEntry.objects.filter(character=hero, kind="ellipse").get().amount == 2


@pytest.mark.services
def test_concurrent_runs_of_one_advance_move_the_date_once(postgres, campaign, hero):
    ellipse = open_ellipse(campaign, 30)
    with transaction.atomic():
        pending = Advance.objects.create(ellipse=ellipse, key="same", days=10)
    barrier = threading.Barrier(2)

    def run():
        try:
            barrier.wait()
            advances.advance_run(advance_id=pending.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ellipse.refresh_from_db()
    assert ellipse.days_elapsed == 10
    assert Campaign.objects.get(pk=campaign.pk).in_game_day == 11


@pytest.mark.services
def test_a_real_worker_closes_an_arc_and_advances_an_ellipse(
    celery_worker, campaign, hero, storyteller, player
):
    import time

    arc = Arc.objects.create(campaign=campaign, title="Arc", length_unit="weeks")
    ticks = {"bounty": ["took_part"], "used": ["strength"]}
    with transaction.atomic():
        award = awards.arc_award_confirm(
            arc=arc, checklist={"group": GROUP, "characters": {str(hero.pk): ticks}}, by=storyteller
        )

    def wait(predicate):
        deadline = time.monotonic() + 30
        while not predicate():
            assert time.monotonic() < deadline, "the worker did not finish the job"
            time.sleep(0.1)

    wait(lambda: type(award).objects.get(pk=award.pk).status == JobStatus.DONE)
    assert experience.xp_balance(character=hero) == 15
    ellipse = open_ellipse(campaign, 30)
    trainings.training_queue(
        character=hero, ellipse=ellipse, kind="characteristic", target="strength", by=player
    )
    with transaction.atomic():
        ellipses.advance_request(ellipse=ellipse, key="close", closes=True, by=storyteller)
    wait(lambda: Ellipse.objects.get(pk=ellipse.pk).status == EllipseStatus.CLOSED)
    hero.refresh_from_db()
    assert hero.strength == 3
    assert experience.xp_balance(character=hero) == 15 - 5 + 4  # 4 weeks of ellipse XP
