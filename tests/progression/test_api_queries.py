"""The progression API's reads cost the same number of queries for one row as for many; its
routes alone generate a schema without a warning."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import include, reverse
from django.urls import path as route
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from campaigns.models import Ability, Notification
from progression.models import (
    Advance,
    ArcAward,
    Ellipse,
    EllipseStatus,
    Training,
    TrainingStatus,
    XpEntry,
)
from tests.progression.helpers import make_arc, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting(campaign, storyteller, player):
    hero = make_character(campaign, player, "Aelis")
    arc = make_arc(campaign)
    ellipse = Ellipse.objects.create(campaign=campaign, length_days=200, kind="major")
    return {"campaign": campaign, "hero": hero, "arc": arc, "ellipse": ellipse, "user": player}


def _trainings(s, start, count):
    for i in range(start, start + count):
        character = make_character(s["campaign"], s["user"], f"Héros {i}")
        for position in (1, 2):
            Training.objects.create(
                character=character,
                ellipse=s["ellipse"],
                kind="skill",
                target="melee",
                label="Mêlée",
                days_needed=30,
                days_done=position,
                position=position,
                status=TrainingStatus.RUNNING if position == 1 else TrainingStatus.QUEUED,
            )
    Advance.objects.create(ellipse=s["ellipse"], key=f"k{start}", days=1)


def _entries(s, start, count):
    XpEntry.objects.bulk_create(
        XpEntry(
            character=s["hero"],
            source_key=f"gift:{i}",
            kind="award",
            amount=1,
            label="Cadeau",
            breakdown=[{"label": "Un", "points": 1}],
        )
        for i in range(start, start + count)
    )


def _own_trainings(s, start, count):
    Training.objects.bulk_create(
        Training(
            character=s["hero"],
            ellipse=s["ellipse"],
            kind="skill",
            target="melee",
            label="Mêlée",
            days_needed=30,
            position=i,
            xp_reserved=1,
            status=TrainingStatus.QUEUED,
        )
        for i in range(start, start + count)
    )


def _abilities(s, start, count):
    Ability.objects.bulk_create(
        Ability(campaign=s["campaign"], name=f"Aptitude {i}") for i in range(start, start + count)
    )


def _characters(s, start, count):
    for i in range(start, start + count):
        make_character(s["campaign"], s["user"], f"Héros {i}")


def _awarded_characters(s, start, count):
    _characters(s, start, count)
    ids = list(s["campaign"].characters.values_list("pk", flat=True))
    checklist = {
        "group": {"danger": 3, "ending": "none", "length": "weeks"},
        "characters": {str(pk): {"bounty": ["took_part"]} for pk in ids},
    }
    summary = [{"character": pk, "name": "x", "total": 15, "paid": 15} for pk in ids]
    ArcAward.objects.update_or_create(
        arc=s["arc"],
        defaults={"checklist": checklist, "total": len(ids), "summary": summary},
    )


def _ellipses(s, start, count):
    Ellipse.objects.bulk_create(
        Ellipse(campaign=s["campaign"], length_days=7, kind="minor", status=EllipseStatus.CLOSED)
        for _ in range(count)
    )


def _notifications(s, start, count):
    Notification.objects.bulk_create(
        Notification(user=s["user"], campaign=s["campaign"], kind="x", key=f"n{i}", text="Salut")
        for i in range(start, start + count)
    )


def _campaign(s):
    return {"campaign_id": s["campaign"].pk}


def _hero(s):
    return {"campaign_id": s["campaign"].pk, "character_id": s["hero"].pk}


READS = {
    "arc-experience": (
        lambda s: {"campaign_id": s["campaign"].pk, "arc_id": s["arc"].pk},
        _characters,
    ),
    "arc-experience (awarded)": (
        lambda s: {"campaign_id": s["campaign"].pk, "arc_id": s["arc"].pk},
        _awarded_characters,
    ),
    "character-ledger": (_hero, _entries),
    "character-improvements": (_hero, _abilities),
    "character-trainings": (_hero, _own_trainings),
    "ellipse-list": (_campaign, _ellipses),
    "ellipse-detail": (
        lambda s: {"campaign_id": s["campaign"].pk, "ellipse_id": s["ellipse"].pk},
        _trainings,
    ),
    "notification-list": (lambda s: {}, _notifications),
}


@pytest.mark.parametrize("name", list(READS))
def test_more_rows_same_number_of_queries(
    name, setting, storyteller, django_assert_max_num_queries
):
    kwargs, add = READS[name]
    client = APIClient()
    client.force_login(setting["user"] if name == "notification-list" else storyteller)
    url = reverse(f"progression_api:{name.split(' ')[0]}", kwargs=kwargs(setting))

    add(setting, 0, 1)
    with CaptureQueriesContext(connection) as one_row:
        response = client.get(url)
    assert response.status_code == 200, response.content

    add(setting, 1, 20)
    with django_assert_max_num_queries(len(one_row)):
        response = client.get(url)
    assert response.status_code == 200
    body = response.json()
    rows = (
        body.get("results")
        or body.get("trainings")
        or body.get("preview")
        or body.get("award", {}).get("summary")
    )
    assert len(rows) >= 20


def test_the_progression_api_alone_generates_without_a_warning():
    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[route("api/", include("progression.api_urls"))])
    schema = generator.get_schema(request=None, public=True)
    assert not GENERATOR_STATS._warn_cache, dict(GENERATOR_STATS._warn_cache)
    assert not GENERATOR_STATS._error_cache, dict(GENERATOR_STATS._error_cache)
    paths = schema["paths"]
    experience = paths["/api/campaigns/{campaign_id}/arcs/{arc_id}/experience/"]
    assert "202" in experience["post"]["responses"]
    correct = paths["/api/campaigns/{campaign_id}/arcs/{arc_id}/experience/correct/"]["post"]
    assert {"202", "400", "403", "404", "409"} <= set(correct["responses"])
    improvements = paths["/api/campaigns/{campaign_id}/characters/{character_id}/improvements/"]
    assert "403" in improvements["get"]["responses"]
    ledger = paths["/api/campaigns/{campaign_id}/characters/{character_id}/ledger/"]["get"]
    page = ledger["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    properties = schema["components"]["schemas"][page.rsplit("/", 1)[1]]["properties"]
    assert {"count", "results", "balance", "reserved", "available"} <= set(properties)
    notifications = paths["/api/notifications/"]["get"]
    assert {"page", "unread"} <= {p["name"] for p in notifications["parameters"]}
