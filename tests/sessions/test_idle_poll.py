"""The stamped idle poll answered before the middleware stack (altherion/idle_poll.py): one read
of the shared cache, and only for a session that still signs its user in — a page signed out,
a password changed elsewhere, an account closed: the view answers, and signs the page out."""

import pytest
from django.core.cache import cache
from django.urls import clear_script_prefix, reverse, set_script_prefix

from altherion.auth_backends import user_cache_key
from sessions import poll_stamp
from tests.sessions import test_poll_stamp
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_poll_fanout import HX, poll
from tests.sessions.test_poll_stamp import _idle
from tests.sessions.test_views import stored_roll

page, committed = test_poll_stamp.page, test_poll_stamp.committed  # its fixtures

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def view_not_reached(monkeypatch) -> None:
    """Fails the test if the poll view runs (it reads the counter; the fast path does not)."""

    def reached(request, campaign_id):
        raise AssertionError("the poll view answered")

    monkeypatch.setattr(poll_stamp, "generation_for", reached)


def _signed_out(answer) -> bool:
    """The view's answer to a signed-out page: the whole page goes to the login form."""
    return answer.status_code == 204 and answer["HX-Redirect"].startswith(reverse("login"))


def test_an_idle_stamped_poll_never_reaches_the_view(
    player, aelis, campaign, page, committed, monkeypatch, django_assert_num_queries
):
    cursor = committed(lambda: stored_roll(campaign, player, aelis)).events.get().pk
    browser = page(player)
    stamp = _idle(browser, campaign, cursor)
    view_not_reached(monkeypatch)
    with django_assert_num_queries(0):
        again = poll(browser, campaign, cursor, stamp=stamp)
    assert again.status_code == 204
    assert (again["X-Table-Cursor"], again["X-Table-Stamp"]) == (str(cursor), stamp)
    assert again["Cache-Control"] == "private, no-store"


def test_a_poll_with_news_reads_the_session_user_and_counter_once(
    player, aelis, campaign, page, committed, cache_reads, django_assert_num_queries
):
    """The counter moved (a roll): the view answers with the new row, from what the idle poll
    read of the session, the user and the counter — none of them read from the cache again."""
    browser = page(player)
    stamp = _idle(browser, campaign, 0)
    roll = committed(lambda: stored_roll(campaign, player, aelis))
    assert poll(page(player), campaign, 0).status_code == 200  # another page drew the row
    trips = cache_reads()
    with django_assert_num_queries(1):  # "a member, and what is new?"
        answer = poll(browser, campaign, 0, stamp=stamp)
    assert answer.status_code == 200 and answer["X-Table-Cursor"] == str(roll.events.get().pk)
    assert answer["X-Table-Stamp"] != stamp
    reads = [key for trip in trips for key in trip]
    counter, user = poll_stamp.generation_key(campaign.pk), user_cache_key(player.pk)
    assert reads.count(counter) == reads.count(user) == 1
    assert sum("sessions.cache" in key for key in reads) == 1


def test_a_page_signed_out_is_sent_to_the_login_form_despite_its_stamp(player, campaign, page):
    browser = page(player)
    stamp = _idle(browser, campaign, 0)
    cookie = browser.cookies["sessionid"].value
    browser.post(reverse("logout"))
    browser.cookies["sessionid"] = cookie  # the old cookie, sent again
    assert _signed_out(poll(browser, campaign, 0, stamp=stamp))


def test_a_password_changed_elsewhere_signs_the_page_out(player, campaign, page):
    browser = page(player)
    stamp = _idle(browser, campaign, 0)
    player.set_password("un-tout-autre-mot-de-passe-77")
    player.save()
    # The user's new row back in the cache (their new session polled): the old session's hash
    # no longer matches it.
    _idle(page(player), campaign, 0)
    assert cache.get(user_cache_key(player.pk)) is not None
    assert _signed_out(poll(browser, campaign, 0, stamp=stamp))


def test_a_closed_account_is_signed_out_even_with_its_row_in_the_cache(player, campaign, page):
    browser = page(player)
    stamp = _idle(browser, campaign, 0)
    player.is_active = False
    player.save()
    cache.set(user_cache_key(player.pk), player)  # as a request of the closed account keeps it
    assert _signed_out(poll(browser, campaign, 0, stamp=stamp))


def test_a_stamp_sent_with_another_session_is_the_views_to_answer(
    player, other_player, campaign, page
):
    stamp = _idle(page(player), campaign, 0)
    other = page(other_player)
    _idle(other, campaign, 0)  # its session and user in the cache
    answer = poll(other, campaign, 0, stamp=stamp)
    assert answer.status_code == 204 and answer["X-Table-Stamp"] != stamp


@pytest.mark.parametrize(
    "query",
    [{"after": "0x0"}, {"after": "-0"}, {"filter": "abc"}, {"filter": "1"}, {"after": "٣"}],
)
def test_a_query_the_stamp_was_not_given_for_is_the_views_to_answer(
    player, campaign, page, query, monkeypatch
):
    browser = page(player)
    stamp = _idle(browser, campaign, 0)
    view_not_reached(monkeypatch)
    arguments = {"after": 0, "stamp": stamp, **query}
    with pytest.raises(AssertionError, match="the poll view answered"):
        browser.get(reverse("sessions:poll", args=[campaign.pk]), arguments)


def test_a_stamp_of_the_wrong_shape_is_not_read_as_a_user():
    assert poll_stamp.stamp_user("12." + "a" * 32) == 12
    for given in ("", "12", "12." + "a" * 31, "x." + "a" * 32, "²." + "a" * 32, "-1." + "a" * 32):
        assert poll_stamp.stamp_user(given) is None


def test_a_site_under_a_sub_path_answers_the_idle_poll_before_the_view(
    player, campaign, page, monkeypatch
):
    """Served under a script prefix (SCRIPT_NAME), the poll's path carries the prefix: the idle
    poll is still answered from the cache alone."""
    stamp = _idle(page(player), campaign, 0)
    set_script_prefix("/altherion/")
    try:
        browser = page(player)  # a new client: its middleware learns the prefix on first use
        path = reverse("sessions:poll", args=[campaign.pk]).removeprefix("/altherion")
        # signing in saved last_login, so the user is cached again by a first, unstamped poll
        browser.get(path, {"after": 0}, SCRIPT_NAME="/altherion", **HX)
        view_not_reached(monkeypatch)
        query = {"after": 0, "stamp": stamp}
        answer = browser.get(path, query, SCRIPT_NAME="/altherion", **HX)
    finally:
        clear_script_prefix()
    assert answer.status_code == 204 and answer["X-Table-Stamp"] == stamp
