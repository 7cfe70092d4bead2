"""The table's poll when many pages are open (issue 15): after a roll, every page of a kind gets
the same row in a few constant queries, and still only what its viewer may see — secret and
hidden rows, the Conteur's controls and token, a player's filter, the panels' triggers and the
cursor."""

import json
import re

import pytest
from django.test import Client

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


def test_every_page_gets_the_same_new_row_in_four_queries(
    player, other_player, aelis, brann, campaign, page, django_assert_max_num_queries
):
    cursor = stored_roll(campaign, player, aelis).events.get().pk
    new = stored_roll(campaign, player, aelis, seed=2).events.get().pk
    first = poll(page(player), campaign, cursor)
    answers = []
    for browser in [page(other_player), page(player)]:  # each page signed in beforehand
        # The user, whether the log moved, the membership, the new entries and what they show.
        with django_assert_max_num_queries(4):
            answers.append(poll(browser, campaign, cursor))
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
    with django_assert_max_num_queries(4):
        answer = poll(other, campaign, cursor)
    assert answer.status_code == 204 and answer["X-Table-Cursor"] == str(cursor)
    secret_id, hidden_id = secret.events.get().pk, hidden.events.get().pk
    assert f'id="event-{secret_id}"' in storyteller_rows
    assert f'id="event-{hidden_id}"' in storyteller_rows
    assert f'id="event-{secret_id}"' in roller_rows
    assert f'id="event-{hidden_id}"' not in roller_rows


def test_the_storytellers_pages_share_the_rows_with_controls_but_not_the_token(
    player, storyteller, aelis, brann, campaign, page, django_assert_max_num_queries
):
    cursor = stored_roll(campaign, player, aelis).events.get().pk
    done = stored_roll(campaign, player, aelis, seed=2)
    Roll.objects.filter(pk=done.pk).update(outcome="critical_success")
    tokens = []
    for _ in range(2):
        browser = page(storyteller)  # signed in before the count
        # The user, whether the log moved, the membership, the entries, the controls' group.
        with django_assert_max_num_queries(5):
            rows = poll(browser, campaign, cursor).content.decode()
        assert "+1 Fortune" in rows and "Brann" in rows
        tokens.append(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', rows).group(1))
    assert tokens[0] != tokens[1]  # each page its own token, not one kept with the row
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


def test_a_member_taken_away_is_refused_at_the_next_poll(player, campaign, page):
    from campaigns.models import Membership

    browser = page(player)
    assert poll(browser, campaign, 0).status_code == 204
    Membership.objects.filter(campaign=campaign, user=player).delete()
    assert poll(browser, campaign, 0).status_code == 404


def test_a_password_changed_elsewhere_sends_the_page_to_the_login_form(player, campaign, page):
    from django.urls import reverse

    browser = page(player)
    assert poll(browser, campaign, 0).status_code == 204
    player.set_password("un-tout-autre-mot-de-passe-77")
    player.save()
    answer = poll(browser, campaign, 0)
    assert answer.status_code == 204 and answer["HX-Redirect"].startswith(reverse("login"))
