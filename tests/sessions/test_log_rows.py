"""The log's rows, rendered once for every page that shows them (the template fragment cache keyed
on the row, the sheet's version and the roll's consequences) and never stale: the Conteur's
controls and tokens, a consequence applied, a renamed character."""

import re

import pytest
from django.test import Client

from characters import services as character_services
from sessions.models import Roll, Visibility
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_views import HX, stored_roll, url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def log(client, campaign) -> str:
    body = client.get(url("table", campaign)).content.decode()
    return body[body.index('id="roll-log"') :]


def test_every_player_polling_gets_the_same_new_row(
    client, player, other_player, aelis, brann, campaign
):
    cursor = stored_roll(campaign, player, aelis).events.get().pk
    stored_roll(campaign, player, aelis)
    pages = []
    for user in (player, other_player, player):
        page = Client()
        page.force_login(user)
        response = page.get(url("poll", campaign), {"after": cursor}, **HX)
        assert response.status_code == 200
        pages.append(response.content.decode())
    assert pages[0] == pages[1] == pages[2] and "Aelis" in pages[0]


def test_the_storytellers_rows_keep_their_controls_and_their_own_token(
    player, storyteller, aelis, campaign
):
    done = stored_roll(campaign, player, aelis)
    Roll.objects.filter(pk=done.pk).update(outcome="critical_success")
    tokens = []
    for _ in range(2):
        page = Client(enforce_csrf_checks=True)
        page.force_login(storyteller)
        rows = log(page, campaign)
        assert "+1 Fortune" in rows
        tokens.append(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', rows).group(1))
    applied = page.post(
        url("consequence", campaign, done.pk),
        {"kind": "fortune", "csrfmiddlewaretoken": tokens[1]},
        **HX,
    )
    assert applied.status_code == 200
    aelis.refresh_from_db()
    assert aelis.fortune == 1
    assert "+1 Fortune" not in log(page, campaign)  # the row is a new one: no stale button


def test_players_never_get_the_storytellers_row_from_the_cache(
    client, player, storyteller, aelis, campaign
):
    done = stored_roll(campaign, player, aelis)
    secret = stored_roll(campaign, storyteller, None, visibility=Visibility.STORYTELLER)
    Roll.objects.filter(pk=done.pk).update(outcome="critical_success")
    client.force_login(storyteller)
    rows = log(client, campaign)
    assert "+1 Fortune" in rows and f'id="event-{secret.events.get().pk}"' in rows
    client.force_login(player)
    rows = log(client, campaign)
    assert "+1 Fortune" not in rows and "csrfmiddlewaretoken" not in rows
    assert f'id="event-{secret.events.get().pk}"' not in rows


def test_a_renamed_character_shows_in_the_rows_on_the_next_read(client, player, aelis, campaign):
    stored_roll(campaign, player, aelis)
    client.force_login(player)
    assert "Aelis" in log(client, campaign)
    character_services.character_update_field(
        character=aelis.pk, field="name", value="Aelis la Brave", version=aelis.version, by=player
    )
    assert "Aelis la Brave" in log(client, campaign)
    poll = client.get(url("poll", campaign), {"after": 0}, **HX).content.decode()
    assert "Aelis la Brave" in poll and ">Aelis<" not in poll
