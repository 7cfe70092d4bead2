"""The table page's log read (`selectors.log_entries`, raw SQL) shows each member exactly what
`events_for_user` (the ORM, `visible_q`) shows them: same rows, same order, same pages back, same
character filter — and names each row's character version and roll as the poll does."""

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


def test_every_member_sees_what_visible_q_lets_them_see(
    log, campaign, storyteller, player, other_player, aelis, brann
):
    middle = log[len(log) // 2]
    for user in (storyteller, player, other_player):
        member = campaign_get_for_member(user=user, pk=campaign.pk)
        for before in (None, middle):
            for character in (None, aelis.pk, brann.pk):
                asked = {"before": before, "character_id": character}
                expected = selectors.events_for_user(campaign=member, user=user, **asked)
                read = selectors.log_entries(campaign=member, user=user, **asked)
                assert [e.id for e in read] == [e.pk for e in expected], (user, asked)
                assert [e.actor_id for e in read] == [e.actor_id for e in expected]


def test_the_counts_a_player_would_notice(log, campaign, storyteller, player, other_player):
    def seen(user):
        member = campaign_get_for_member(user=user, pk=campaign.pk)
        return len(selectors.log_entries(campaign=member, user=user))

    # Six rolls: everyone sees the 3 public ones; a player also their own secret one.
    assert (seen(storyteller), seen(player), seen(other_player)) == (6, 4, 4)


def test_an_entry_names_its_character_version_and_roll(log, campaign, player, aelis):
    member = campaign_get_for_member(user=player, pk=campaign.pk)
    newest_of_aelis = selectors.log_entries(campaign=member, user=player, character_id=aelis.pk)[0]
    event = TableEvent.objects.select_related("roll", "character").get(pk=newest_of_aelis.id)
    assert newest_of_aelis.character_version == event.character.version
    assert newest_of_aelis.roll.outcome == event.roll.outcome
    assert newest_of_aelis.roll.consequences == event.roll.consequences


def test_the_page_reads_one_page_of_the_log(campaign, storyteller, player, aelis):
    for seed in range(selectors.LOG_PAGE + 3):
        stored_roll(campaign, player, aelis, seed=seed)
    member = campaign_get_for_member(user=player, pk=campaign.pk)
    first = selectors.log_entries(campaign=member, user=player)
    assert len(first) == selectors.LOG_PAGE
    older = selectors.log_entries(campaign=member, user=player, before=first[-1].id)
    assert len(older) == 3 and older[0].id < first[-1].id
