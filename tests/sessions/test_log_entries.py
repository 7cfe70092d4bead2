"""The log as each member may see it (`selectors.events_for_user`, the page's and the poll's one
read): same rows for the page and the poll, pages back, the character filter, and a long absence
caught up oldest first, `limit` at a time."""

import pytest

from campaigns.policy import campaign_get_for_member
from sessions import selectors
from sessions.models import TableEvent, Visibility
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_views import stored_roll

pytestmark = pytest.mark.django_db


@pytest.fixture
def log(campaign, storyteller, player, other_player, aelis, brann):
    stored_roll(campaign, player, aelis)
    stored_roll(campaign, player, aelis, visibility=Visibility.STORYTELLER, seed=2)
    stored_roll(campaign, other_player, brann, seed=3)
    stored_roll(campaign, other_player, brann, visibility=Visibility.STORYTELLER, seed=4)
    stored_roll(campaign, storyteller, None, visibility=Visibility.HIDDEN, seed=5)
    stored_roll(campaign, storyteller, aelis, seed=6)
    return list(TableEvent.objects.order_by("id").values_list("id", flat=True))


def read(campaign, user, **asked) -> list[int]:
    member = campaign_get_for_member(user=user, pk=campaign.pk)
    return [e.pk for e in selectors.events_for_user(campaign=member, user=user, **asked)]


def test_the_counts_a_player_would_notice(log, campaign, storyteller, player, other_player):
    # Six rolls: everyone sees the 3 public ones; a player also their own secret one.
    seen = [len(read(campaign, user)) for user in (storyteller, player, other_player)]
    assert seen == [6, 4, 4]


def test_the_poll_reads_what_the_page_shows(
    log, campaign, storyteller, player, other_player, aelis, brann
):
    for user in (storyteller, player, other_player):
        for character in (None, aelis.pk, brann.pk):
            page = read(campaign, user, character_id=character)
            assert read(campaign, user, after=0, character_id=character) == page
            assert read(campaign, user, after=log[2], character_id=character) == [
                pk for pk in page if pk > log[2]
            ]
            assert read(campaign, user, before=log[3], character_id=character) == [
                pk for pk in page if pk < log[3]
            ]


def test_a_long_absence_is_caught_up_oldest_first(log, campaign, storyteller):
    first = read(campaign, storyteller, after=0, limit=4)
    assert first == list(reversed(log[:4]))  # newest first, the oldest four new ones
    assert read(campaign, storyteller, after=first[0], limit=4) == list(reversed(log[4:]))


def test_the_page_reads_one_page_of_the_log(campaign, player, aelis):
    for seed in range(selectors.LOG_PAGE + 3):
        stored_roll(campaign, player, aelis, seed=seed)
    first = read(campaign, player)
    assert len(first) == selectors.LOG_PAGE
    older = read(campaign, player, before=first[-1])
    assert len(older) == 3 and older[0] < first[-1]
