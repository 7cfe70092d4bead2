"""The roll's API answer is built as a plain dict (`sessions.serializers.roll_out`): it must be,
key for key, what the documented `RollOut` serializer gives, for every kind of roll."""

import json

import pytest
from rest_framework.renderers import JSONRenderer

from sessions import serializers as s
from sessions.models import Roll, Visibility
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_views import stored_roll

pytestmark = pytest.mark.django_db


def as_stored(roll) -> Roll:
    return Roll.objects.select_related("character", "rolled_by").get(pk=roll.pk)


def assert_same_answer(roll) -> None:
    plain, documented = s.roll_out(roll), s.RollOut(roll).data
    assert plain == documented
    assert json.loads(JSONRenderer().render(plain)) == json.loads(JSONRenderer().render(documented))


def test_a_players_roll_answers_as_the_documented_serializer(campaign, player, aelis):
    roll = stored_roll(campaign, player, aelis)
    assert_same_answer(roll)  # as roll_create returns it
    assert_same_answer(as_stored(roll))  # as the detail reads it
    assert s.roll_out(roll)["character_name"] == "Aelis"
    assert s.roll_out(roll)["rolled_by"] == "aelis"


def test_a_secret_npc_roll_with_consequences_and_a_closed_account(campaign, storyteller):
    roll = stored_roll(campaign, storyteller, None, visibility=Visibility.HIDDEN)
    Roll.objects.filter(pk=roll.pk).update(consequences=["critical"], rolled_by=None)
    stored = as_stored(roll)
    assert_same_answer(stored)
    answer = s.roll_out(stored)
    assert answer["character"] is None and answer["character_name"] is None
    assert answer["rolled_by"] is None and answer["consequences"] == ["critical"]
    assert answer["label"] == "Garde" and answer["visibility"] == "hidden"
