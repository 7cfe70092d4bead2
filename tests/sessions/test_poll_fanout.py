"""The table's poll when many pages are open (issue 15): after a roll, every page of a kind gets
the same row from the shared cache in as few queries as an idle poll, and still only what its
viewer may see — secret and hidden rows, the Conteur's controls and token, a player's filter,
the panels' triggers and the cursor."""

import json
import re

import pytest
from django.test import Client

from sessions import row_cache
from sessions.models import Roll, Visibility
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_views import HX, stored_roll, url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


@pytest.fixture
def page():
    """A table page open for `user`: its own browser session."""

    def open_for(user) -> Client:
        browser = Client()
        browser.force_login(user)
        return browser

    return open_for


def poll(browser, campaign, after, **query):
    return browser.get(url("poll", campaign), {"after": after, **query}, **HX)


def test_every_page_after_the_first_gets_the_new_row_in_one_query(
    player, other_player, aelis, brann, campaign, page, renders, django_assert_max_num_queries
):
    cursor = stored_roll(campaign, player, aelis).events.get().pk
    new = stored_roll(campaign, player, aelis, seed=2).events.get().pk
    first = poll(page(player), campaign, cursor)
    pages = [page(other_player), page(player)]
    for browser in pages:  # sessions and users in the cache, as on a warm server
        poll(browser, campaign, new)
    answers = []
    for browser in pages:
        # "A member, and what is new?": the user and the row itself come from the cache.
        with django_assert_max_num_queries(1):
            answers.append(poll(browser, campaign, cursor))
    assert renders["rows"] == 1
    assert [a.content for a in answers] == [first.content, first.content]
    assert all(a["X-Table-Cursor"] == str(new) for a in answers)
    assert f'data-event-id="{new}"' in first.content.decode()


def test_a_secret_roll_is_an_idle_poll_for_the_other_players(
    player, other_player, storyteller, aelis, campaign, page, django_assert_max_num_queries
):
    cursor = stored_roll(campaign, player, aelis).events.get().pk
    secret = stored_roll(campaign, player, aelis, seed=2, visibility=Visibility.STORYTELLER)
    hidden = stored_roll(campaign, storyteller, None, seed=3, visibility=Visibility.HIDDEN)
    storyteller_rows = poll(page(storyteller), campaign, cursor).content.decode()
    roller_rows = poll(page(player), campaign, cursor).content.decode()
    other = page(other_player)
    poll(other, campaign, cursor)
    with django_assert_max_num_queries(1):
        answer = poll(other, campaign, cursor)
    assert answer.status_code == 204 and answer["X-Table-Cursor"] == str(cursor)
    secret_id, hidden_id = secret.events.get().pk, hidden.events.get().pk
    assert f'id="event-{secret_id}"' in storyteller_rows
    assert f'id="event-{hidden_id}"' in storyteller_rows
    assert f'id="event-{secret_id}"' in roller_rows
    assert f'id="event-{hidden_id}"' not in roller_rows


def test_the_storytellers_pages_share_the_rows_with_controls_but_not_the_token(
    player, storyteller, aelis, brann, campaign, page, renders, django_assert_max_num_queries
):
    cursor = stored_roll(campaign, player, aelis).events.get().pk
    done = stored_roll(campaign, player, aelis, seed=2)
    Roll.objects.filter(pk=done.pk).update(outcome="critical_success")
    tokens = []
    for _ in range(2):
        browser = page(storyteller)
        poll(browser, campaign, 0)
        # The statement and the group the controls name (the user comes from the cache).
        with django_assert_max_num_queries(2):
            rows = poll(browser, campaign, cursor).content.decode()
        assert "+1 Fortune" in rows and "Brann" in rows and row_cache.CSRF_PLACEHOLDER not in rows
        tokens.append(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', rows).group(1))
    assert renders["rows"] == 2  # the first poll's two rows, once for the Conteur's view
    applied = browser.post(
        url("consequence", campaign, done.pk),
        {"kind": "fortune", "csrfmiddlewaretoken": tokens[1]},
        **HX,
    )
    assert applied.status_code == 200
    rows = poll(page(storyteller), campaign, cursor).content.decode()
    assert "+1 Fortune" not in rows  # applied: the controls are gone, not served stale


def test_a_players_filter_keeps_to_its_character(
    player, other_player, aelis, brann, campaign, page
):
    cursor = stored_roll(campaign, player, aelis).events.get().pk
    theirs = stored_roll(campaign, other_player, brann, seed=2).events.get().pk
    mine = stored_roll(campaign, player, aelis, seed=3).events.get().pk
    poll(page(other_player), campaign, cursor)  # both rows in the cache
    answer = poll(page(player), campaign, cursor, filter=aelis.pk)
    body = answer.content.decode()
    assert f'data-event-id="{mine}"' in body and f'data-event-id="{theirs}"' not in body
    assert answer["X-Table-Cursor"] == str(mine)


def test_the_moral_trigger_fires_on_every_page(storyteller, player, other_player, campaign, page):
    moved = page(storyteller).post(url("morale_act", campaign), {"action": "gain_hope"}, **HX)
    assert moved.status_code == 200
    for user in (player, other_player):
        answer = poll(page(user), campaign, 0)
        assert "morale-changed" in json.loads(answer["HX-Trigger"])
