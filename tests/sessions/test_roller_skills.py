"""The roller's skills come with its lock (sessions/rolls.py, one prefetch): the levels and
expertises a roll reads are the sheet's — a skill's expertise is allowed, an expertise the sheet
lacks refused, and a skill it lacks rolled at level 0."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import CharacterSkill
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key
from tests.sessions.test_lean_writes import api, plain_roll, rolls_url, sql

pytestmark = pytest.mark.django_db(transaction=True)


def roll(client, campaign, character, **extra):
    body = plain_roll(character, idempotency_key=key(), **extra)
    return client.post(rolls_url(campaign), body, format="json")


def test_a_roll_reads_the_levels_and_expertises_with_the_lock(player, campaign, aelis):
    CharacterSkill.objects.filter(character=aelis, key="sport").update(level=2)  # no expertise
    client = api(player)
    with CaptureQueriesContext(connection) as queries:
        made = roll(client, campaign, aelis, expertise=True)
    assert made.status_code == 201, made.json()
    assert made.json()["inputs"]["skill_level"] == 3  # Mêlée 3, with its expertise « Haches »
    assert made.json()["breakdown"]["expertise_die"] is not None
    skill_reads = [
        q for q in sql(queries) if 'FROM "characters_characterskill"' in q.split("WHERE")[0]
    ]
    assert len(skill_reads) == 1  # one prefetch with the roller's lock
    refused = roll(client, campaign, aelis, skills=["sport"], expertise=True)
    assert refused.status_code == 400 and "expertise" in refused.json()["errors"]
    lacking = roll(client, campaign, aelis, skills=["furtivite"])
    assert lacking.status_code == 201 and lacking.json()["inputs"]["skill_level"] == 0
