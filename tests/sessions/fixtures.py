"""Fixtures of the table tests: the group's characters (imported by each test_table_* module)."""

import uuid

import pytest

from campaigns.models import Campaign
from campaigns.policy import campaign_get_for_member
from characters.models import Character, CharacterSkill
from sessions.models import MoralePool


def make_hero(campaign, owner, name, **fields) -> Character:
    fields.setdefault("exaltation", 3)  # personal cap 2 (§6)
    fields.setdefault("impact_points", 2)
    fields.setdefault("resilience_points", 2)
    character = Character.objects.create(campaign=campaign, owner=owner, name=name, **fields)
    CharacterSkill.objects.create(character=character, key="melee", level=3, expertises=["Haches"])
    CharacterSkill.objects.create(character=character, key="sport", level=1)
    return character


@pytest.fixture
def aelis(campaign, player):
    return make_hero(campaign, player, "Aelis", strength=4)


@pytest.fixture
def brann(campaign, other_player):
    return make_hero(campaign, other_player, "Brann", vigor=5)


@pytest.fixture
def as_member():
    """The campaign as `user` sees it (with `.membership`), as the views get it from the policy."""

    def get(campaign: Campaign, user) -> Campaign:
        return campaign_get_for_member(user=user, pk=campaign.pk)

    return get


def set_pool(campaign, **values) -> MoralePool:
    pool, _ = MoralePool.objects.get_or_create(campaign=campaign)
    for name, value in values.items():
        setattr(pool, name, value)
    pool.save()
    return pool


def key() -> str:
    return uuid.uuid4().hex
