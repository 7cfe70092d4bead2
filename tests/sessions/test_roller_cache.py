"""An API roll keeps its roller's sheet in the cache (sessions/roller_cache.py): a roll with a
token after the first reads no sheet, and the next roll after any change to the sheet rolls with
what the sheet says now; the idempotency key, no longer read with the roller, is still kept."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from characters import services as sheets
from sessions.models import Roll
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key
from tests.sessions.test_lean_writes import API_ROLL_STATEMENTS, plain_roll, rolls_url, sql

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("empty_cache")]


def token_client(user) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


def rolled(client, campaign, character, **extra):
    body = plain_roll(character, idempotency_key=extra.pop("idempotency_key", key()), **extra)
    return client.post(rolls_url(campaign), body, format="json")


def sheet_reads(statements) -> list[str]:
    return [q for q in statements if 'FROM "characters_character"' in q]


def test_a_roll_after_the_first_reads_neither_membership_nor_sheet(player, campaign, aelis):
    client = token_client(player)
    assert rolled(client, campaign, aelis).status_code == 201
    with CaptureQueriesContext(connection) as queries:
        made = rolled(client, campaign, aelis)
    assert made.status_code == 201, made.json()
    statements = sql(queries)
    assert sheet_reads(statements) == []
    assert len(statements) == API_ROLL_STATEMENTS - 2, "\n".join(statements)
    assert made.json()["inputs"]["characteristic_value"] == 4  # Aelis' Force
    assert made.json()["inputs"]["skill_level"] == 3  # her Mêlée


def test_a_characteristic_changed_is_rolled_at_the_next_roll(player, campaign, aelis):
    client = token_client(player)
    assert rolled(client, campaign, aelis).json()["inputs"]["characteristic_value"] == 4
    sheets.character_update(character=aelis.pk, changes={"strength": 5}, version=None, by=player)
    assert rolled(client, campaign, aelis).json()["inputs"]["characteristic_value"] == 5


def test_a_skill_changed_is_rolled_at_the_next_roll(player, campaign, aelis):
    client = token_client(player)
    assert rolled(client, campaign, aelis).json()["inputs"]["skill_level"] == 3
    sheets.character_skill_set(character=aelis.pk, key="melee", level=4, version=None, by=player)
    assert rolled(client, campaign, aelis).json()["inputs"]["skill_level"] == 4


def test_a_sheet_handed_to_another_player_is_refused_to_its_former_owner(
    player, other_player, campaign, aelis
):
    client = token_client(player)
    assert rolled(client, campaign, aelis).status_code == 201
    aelis.owner = other_player
    aelis.save()
    assert rolled(client, campaign, aelis).status_code == 403
    assert Roll.objects.count() == 1


def test_a_deleted_sheet_is_refused_and_nothing_is_stored(player, campaign, aelis):
    client = token_client(player)
    assert rolled(client, campaign, aelis).status_code == 201
    aelis.delete()
    refused = rolled(client, campaign, aelis)
    assert refused.status_code == 400, refused.json()
    assert Roll.objects.count() == 1


def test_a_key_sent_again_answers_the_first_roll(player, campaign, aelis):
    client = token_client(player)
    assert rolled(client, campaign, aelis).status_code == 201  # the roller is now kept
    again = key()
    first = rolled(client, campaign, aelis, idempotency_key=again)
    replay = rolled(client, campaign, aelis, idempotency_key=again)
    assert (first.status_code, replay.status_code) == (201, 200)
    assert replay.json() == first.json()
    other = rolled(client, campaign, aelis, idempotency_key=again, difficulty=12)
    assert other.status_code == 422
    assert Roll.objects.count() == 2


def test_a_body_nested_too_deep_is_refused_as_before(player, campaign, aelis):
    client = token_client(player)
    assert rolled(client, campaign, aelis).status_code == 201  # the token is known: prefetch
    deep = '{"character": ' + "[" * 50_000 + "]" * 50_000 + "}"
    refused = client.post(rolls_url(campaign), deep, content_type="application/json")
    assert refused.status_code == 400
    assert Roll.objects.count() == 1
