"""The ellipse routes of the progression API (§11), as a client lives them: the Conteur opens one
ellipse at a time, advances it once per key while a player's training runs, confirms a trainer
multiplier, and closes it — the training completes and the ellipse's XP is granted, once."""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from progression.models import (
    Advance,
    Ellipse,
    EllipseStatus,
    JobStatus,
    Training,
    TrainingStatus,
    XpEntry,
)
from tests.progression.helpers import make_arc, make_character, pay

pytestmark = pytest.mark.django_db


@pytest.fixture
def hero(campaign, player, storyteller, django_capture_on_commit_callbacks):
    """Aelis, paid 15 XP for an arc in which she used Strength."""
    hero = make_character(campaign, player, "Aelis")
    the_arc = make_arc(campaign)
    pay(django_capture_on_commit_callbacks, the_arc, [hero], storyteller, used=["strength"])
    return hero


@pytest.fixture
def training_ellipse(campaign, hero, clients):
    """A 60-day ellipse the Conteur opened, where Aelis trains Strength (30 days alone): the
    ellipse's URL kwargs and the in-game day it opened on."""
    opened = clients["storyteller"].post(
        reverse("progression_api:ellipse-list", kwargs={"campaign_id": campaign.pk}),
        {"length_days": 60},
        format="json",
    )
    assert opened.status_code == 201 and opened.json()["kind"] == "medium"
    queued = clients["player"].post(
        reverse(
            "progression_api:character-trainings",
            kwargs={"campaign_id": campaign.pk, "character_id": hero.pk},
        ),
        {"kind": "characteristic", "target": "strength"},
        format="json",
    )
    assert queued.status_code == 201
    day = Campaign.objects.get(pk=campaign.pk).in_game_day
    return {"campaign_id": campaign.pk, "ellipse_id": opened.json()["id"]}, day


def test_one_ellipse_at_a_time(campaign, training_ellipse, clients):
    second = clients["storyteller"].post(
        reverse("progression_api:ellipse-list", kwargs={"campaign_id": campaign.pk}),
        {"length_days": 10},
        format="json",
    )
    assert second.status_code == 400 and "déjà en cours" in second.json()["detail"]


def test_the_conteur_advances_an_ellipse_once_per_key(
    campaign, training_ellipse, clients, django_capture_on_commit_callbacks
):
    ellipse_kwargs, day = training_ellipse
    client = clients["storyteller"]
    advance = reverse("progression_api:ellipse-advance", kwargs=ellipse_kwargs)
    responses = []
    for _ in range(2):  # the same key twice: a retry, a double click
        with django_capture_on_commit_callbacks(execute=True):
            responses.append(client.post(advance, {"days": 10, "key": "tuesday"}, format="json"))
    assert [r.status_code for r in responses] == [202, 202]
    first, repeated = (r.json() for r in responses)
    assert first["id"] == repeated["id"] and first["status"] == JobStatus.PENDING
    assert repeated["status"] == JobStatus.DONE and repeated["summary"]["days"] == 10
    assert Advance.objects.count() == 1
    assert Campaign.objects.get(pk=campaign.pk).in_game_day == day + 10

    detail = client.get(reverse("progression_api:ellipse-detail", kwargs=ellipse_kwargs)).json()
    assert (detail["days_elapsed"], detail["days_left"], detail["in_game_day"]) == (
        10,
        50,
        day + 10,
    )
    (timer,) = detail["trainings"]
    assert (timer["days_done"], timer["days_needed"]) == (10, 30)
    assert timer["expected_day"] == day + 30 and timer["character_name"] == "Aelis"
    assert len(detail["advances"]) == 1


def test_closing_completes_the_trainings_and_grants_the_ellipse_xp_once(
    hero, training_ellipse, clients, django_capture_on_commit_callbacks
):
    ellipse_kwargs, day = training_ellipse
    client = clients["storyteller"]
    trainer = client.post(
        reverse("progression_api:ellipse-xp-trainer", kwargs=ellipse_kwargs),
        {"character": hero.pk, "trainer": "superior"},
        format="json",
    )
    assert trainer.json()["xp_trainers"] == {str(hero.pk): "superior"}

    close = reverse("progression_api:ellipse-close", kwargs=ellipse_kwargs)
    with django_capture_on_commit_callbacks(execute=True):
        closed = client.post(close, {}, format="json")
    assert closed.status_code == 202 and closed.json()["closes"]
    assert Ellipse.objects.get(pk=ellipse_kwargs["ellipse_id"]).status == EllipseStatus.CLOSED
    training = Training.objects.get(character=hero)
    assert training.status == TrainingStatus.DONE and training.finished_day == day + 30
    # 8 weeks × 2 (a superior trainer)
    assert XpEntry.objects.get(character=hero, kind="ellipse").amount == 16
    again = client.post(close, {}, format="json")
    assert again.status_code == 400 and again.json()["detail"] == "Cette ellipse est close."
