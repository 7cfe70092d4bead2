"""The poll's stamp (sessions/poll_stamp.py): a page that got "nothing new" asks again with its
stamp and is answered without the database — until anything moves at its table: a roll, a Moral
move, a member given or taken away. Then the poll reads the database again, and shows it."""

import pytest

from campaigns.models import Membership
from sessions import poll_stamp, selectors
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_poll_fanout import poll
from tests.sessions.test_views import stored_roll

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


@pytest.fixture
def page(client_for):
    """A table page open for a user: its own browser session."""
    return client_for


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a write and its commit's callbacks (the counter moves at commit)."""

    def run(write):
        with django_capture_on_commit_callbacks(execute=True):
            return write()

    return run


def _idle(browser, campaign, after):
    answer = poll(browser, campaign, after)
    assert answer.status_code == 204 and answer["X-Table-Stamp"]
    return answer["X-Table-Stamp"]


def test_a_stamped_poll_with_nothing_new_reads_no_database(
    player, aelis, campaign, page, committed, django_assert_num_queries
):
    cursor = committed(lambda: stored_roll(campaign, player, aelis)).events.get().pk
    browser = page(player)
    stamp = _idle(browser, campaign, cursor)
    with django_assert_num_queries(0):  # session, user and counter: all from the cache
        again = poll(browser, campaign, cursor, stamp=stamp)
    assert again.status_code == 204 and again["X-Table-Cursor"] == str(cursor)
    assert again["X-Table-Stamp"] == stamp


def test_a_roll_at_the_table_spends_every_stamp(
    player, other_player, aelis, brann, campaign, page, committed
):
    browser = page(other_player)
    stamp = _idle(browser, campaign, 0)
    roll = committed(lambda: stored_roll(campaign, player, aelis))
    answer = poll(browser, campaign, 0, stamp=stamp)
    assert answer.status_code == 200
    assert f'data-event-id="{roll.events.get().pk}"' in answer.content.decode()
    assert answer["X-Table-Stamp"] != stamp


def test_a_member_taken_away_is_refused_despite_a_stamp(player, campaign, page, committed):
    browser = page(player)
    stamp = _idle(browser, campaign, 0)
    committed(lambda: Membership.objects.filter(campaign=campaign, user=player).delete())
    assert poll(browser, campaign, 0, stamp=stamp).status_code == 404


def test_a_stamp_answers_only_for_its_page(
    player, other_player, storyteller, aelis, campaign, page, committed, django_assert_num_queries
):
    older = committed(lambda: stored_roll(campaign, player, aelis)).events.get().pk
    newer = committed(lambda: stored_roll(campaign, player, aelis, seed=2)).events.get().pk
    stamp = _idle(page(player), campaign, newer)
    # Another member, an older cursor, another filter, a forged stamp: the database answers.
    assert poll(page(other_player), campaign, newer, stamp=stamp)["X-Table-Stamp"] != stamp
    behind = poll(page(player), campaign, older, stamp=stamp)
    assert behind.status_code == 200 and f'data-event-id="{newer}"' in behind.content.decode()
    browser = page(player)
    poll(browser, campaign, newer)  # its session and user in the cache, as on a warm server
    for query in ({"stamp": stamp, "filter": aelis.pk}, {"stamp": "0" * 32}):
        with django_assert_num_queries(1):
            poll(browser, campaign, newer, **query)


def test_an_answer_cut_short_carries_no_stamp(player, aelis, campaign, page, committed):
    for seed in range(selectors.POLL_LIMIT + 1):
        committed(lambda seed=seed: stored_roll(campaign, player, aelis, seed=seed))
    first = poll(page(player), campaign, 0)
    assert first.status_code == 200 and "X-Table-Stamp" not in first


def test_a_counter_lost_from_the_cache_is_a_database_poll(
    player, campaign, page, django_assert_num_queries
):
    from django.core.cache import cache

    browser = page(player)
    stamp = _idle(browser, campaign, 0)
    cache.delete(f"table-gen:{campaign.pk}")
    with django_assert_num_queries(1):
        assert poll(browser, campaign, 0, stamp=stamp).status_code == 204
    assert poll_stamp.generation(campaign.pk) is not None
