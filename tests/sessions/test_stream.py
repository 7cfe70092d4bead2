"""The table's event stream (issue 40): a page learns of a roll, a Moral move, a sheet's new
version and a notification without asking; it never gets what its viewer may not see; it catches
up after a drop from its cursor; a removed member's stream closes. In one process (the embedded
hub); `test_stream_redis.py` goes through Redis across processes."""

import asyncio
import contextlib
import json
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connections
from django.test import AsyncClient
from rest_framework.authtoken.models import Token

from campaigns.live import notify
from campaigns.models import Membership, Notification
from campaigns.policy import campaign_get_for_member
from characters.services import character_update
from sessions.models import Visibility
from sessions.selectors import events_for_user, players_who_see
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import make_hero
from tests.sessions.test_combat_turn_notice import fight, next_turn  # noqa: F401 (fixture)
from tests.sessions.test_views import stored_roll

pytestmark = pytest.mark.django_db(transaction=True)


def in_own_thread(coroutine_function):
    """The test's async part, run as `async_to_sync` runs it but from a thread of its own: the
    browser tests' Playwright keeps an event loop in the main thread for the whole session."""

    def run():
        outcome = {}

        def target():
            try:
                outcome["value"] = async_to_sync(coroutine_function)()
            except BaseException as error:  # re-raised in the test's thread
                outcome["error"] = error
            finally:
                connections.close_all()

        thread = threading.Thread(target=target)
        thread.start()
        thread.join(60)
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    return run


@pytest.fixture(autouse=True)
def _embedded_hub(settings):
    settings.PUSH_REDIS_URL = ""
    settings.LIVE_HEARTBEAT_SECONDS = 0.2


class Stream:
    """A page's open stream, read as the browser reads it: all along, in the background."""

    def __init__(self, response):
        self.response = response
        self.text = ""
        self.reader = asyncio.ensure_future(self._read(response.streaming_content))

    async def _read(self, chunks):
        async for chunk in chunks:
            self.text += chunk.decode()

    async def until(self, needle: str, timeout: float = 5) -> str:
        async def seen():
            while needle not in self.text:
                if self.reader.done():
                    raise AssertionError(f"the stream ended without {needle!r}: {self.text}")
                await asyncio.sleep(0.01)

        await asyncio.wait_for(seen(), timeout)
        return self.text

    async def quiet_for(self, seconds: float) -> str:
        """What arrived after `seconds` more (heartbeats included)."""
        await asyncio.sleep(seconds)
        return self.text

    async def close(self):
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


async def open_stream(user, path: str, **headers) -> Stream:
    client = AsyncClient()
    await sync_to_async(client.force_login)(user)
    response = await client.get(path, headers=headers)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/event-stream"
    stream = Stream(response)
    await stream.until("retry:")
    await stream.quiet_for(0.05)  # the stream subscribes before the test writes
    return stream


def live(campaign, after=0, **query):
    extra = "".join(f"&{k}={v}" for k, v in query.items())
    return f"/campaigns/{campaign.pk}/live/?after={after}{extra}"


def roll_seen_by_other_page(player, other_player, aelis, campaign) -> tuple[int, str]:
    """A roll of `player`'s, and what `other_player`'s open table page received of it."""

    @in_own_thread
    async def run():
        stream = await open_stream(other_player, live(campaign))
        roll = await sync_to_async(stored_roll)(campaign, player, aelis)
        event = await sync_to_async(lambda: roll.events.get().pk)()
        text = await stream.until(f"id: {event}")
        await stream.close()
        return event, text

    return run()


def test_a_roll_reaches_the_other_players_page_at_once(player, other_player, aelis, campaign):
    event, text = roll_seen_by_other_page(player, other_player, aelis, campaign)
    assert "event: row" in text
    assert f'data-event-id="{event}"' in text
    assert "Aelis" in text


def test_a_secret_roll_goes_to_its_roller_and_the_conteur_only(
    player, other_player, storyteller, aelis, campaign
):
    @in_own_thread
    async def run():
        users = {"player": player, "other_player": other_player, "storyteller": storyteller}
        streams = {name: await open_stream(user, live(campaign)) for name, user in users.items()}
        roll = await sync_to_async(stored_roll)(
            campaign, player, aelis, visibility=Visibility.STORYTELLER
        )
        event = await sync_to_async(lambda: roll.events.get().pk)()
        seen = {}
        for name, stream in streams.items():
            seen[name] = await stream.quiet_for(0.5)
            await stream.close()
        return event, seen

    event, seen = run()
    assert f'data-event-id="{event}"' in seen["player"]
    assert f'data-event-id="{event}"' in seen["storyteller"]
    assert f"event-{event}" not in seen["other_player"]
    assert "Aelis" not in seen["other_player"]


def test_a_page_back_after_a_drop_gets_what_it_missed(player, other_player, aelis, campaign):
    first = stored_roll(campaign, player, aelis).events.get().pk
    missed = stored_roll(campaign, player, aelis, seed=2).events.get().pk

    @in_own_thread
    async def run():
        stream = await open_stream(other_player, live(campaign), **{"Last-Event-ID": str(first)})
        text = await stream.until(f"id: {missed}")
        await stream.close()
        return text

    text = run()
    assert f"id: {first}\n" not in text
    assert "event: morale" in text  # the panels read themselves again after a drop


def test_a_removed_member_stream_closes(player, other_player, campaign):
    @in_own_thread
    async def run():
        stream = await open_stream(other_player, live(campaign))
        await Membership.objects.filter(campaign=campaign, user=other_player).adelete()
        text = await stream.until("event: closed")
        return text

    assert "event: closed" in run()


def test_a_non_member_gets_404(outsider, campaign):
    @in_own_thread
    async def run():
        client = AsyncClient()
        await sync_to_async(client.force_login)(outsider)
        return await client.get(live(campaign))

    assert run().status_code == 404


def test_a_filtered_log_gets_only_its_character_rows_but_every_panel_signal(
    player, other_player, aelis, brann, campaign
):
    @in_own_thread
    async def run():
        stream = await open_stream(player, live(campaign, filter=brann.pk))
        mine = await sync_to_async(stored_roll)(campaign, player, aelis)
        theirs = await sync_to_async(stored_roll)(campaign, other_player, brann, seed=2)
        ids = await sync_to_async(lambda: [r.events.get().pk for r in (mine, theirs)])()
        text = await stream.until(f"id: {ids[1]}")
        await stream.close()
        return ids, text

    (mine, theirs), text = run()
    assert f"event-{mine}" not in text
    assert f"event-{theirs}" in text


def test_the_other_tab_of_a_sheet_learns_its_new_version(player, aelis, campaign):
    @in_own_thread
    async def run():
        sheet = await open_stream(player, f"/campaigns/{campaign.pk}/live/?sheet={aelis.pk}")
        saved = await sync_to_async(character_update)(
            character=aelis.pk,
            changes={"notes": "Une cicatrice."},
            version=aelis.version,
            by=player,
        )
        text = await sheet.until("event: sheet")
        await sheet.close()
        return saved.version, text

    version, text = run()
    assert f"event: sheet\ndata: {version}\n" in text


def test_a_stream_for_another_campaign_sheet_is_404(player, outsider, campaign, other_campaign):
    stranger = make_hero(other_campaign, outsider, "Ombre")

    @in_own_thread
    async def run():
        client = AsyncClient()
        await sync_to_async(client.force_login)(player)
        return await client.get(f"/campaigns/{campaign.pk}/live/?sheet={stranger.pk}")

    assert run().status_code == 404


def test_a_new_notification_lights_the_badge_on_any_page(player, campaign):
    @in_own_thread
    async def run():
        page = await open_stream(player, "/live/")
        await sync_to_async(notify)(
            [Notification(user=player, campaign=campaign, kind="test", key="k1", text="Bravo")]
        )
        text = await page.until("event: notifications")
        await page.close()
        return text

    assert "event: notifications" in run()


def test_an_api_client_follows_the_log_as_json_with_its_token(
    player, other_player, aelis, campaign
):
    token = Token.objects.create(user=other_player).key

    @in_own_thread
    async def run():
        response = await AsyncClient().get(
            f"/api/campaigns/{campaign.pk}/stream/", headers={"Authorization": f"Token {token}"}
        )
        assert response.status_code == 200
        stream = Stream(response)
        await stream.until("retry:")
        await stream.quiet_for(0.05)
        roll = await sync_to_async(stored_roll)(campaign, player, aelis)
        secret = await sync_to_async(stored_roll)(
            campaign, player, aelis, seed=2, visibility=Visibility.STORYTELLER
        )
        ids = await sync_to_async(lambda: [r.events.get().pk for r in (roll, secret)])()
        text = await stream.until(f"id: {ids[0]}")
        text = await stream.quiet_for(0.4)
        await stream.close()
        return ids, text

    (public, secret), text = run()
    line = next(line for line in text.splitlines() if line.startswith("data: {") and '"id"' in line)
    entry = json.loads(line.removeprefix("data: "))
    assert entry["id"] == public and entry["kind"] == "roll"
    assert f"id: {secret}" not in text


def test_an_api_stream_refuses_a_wrong_token_401_and_a_non_member_404(outsider, campaign):
    token = Token.objects.create(user=outsider).key

    @in_own_thread
    async def run():
        path = f"/api/campaigns/{campaign.pk}/stream/"
        wrong = await AsyncClient().get(path, headers={"Authorization": "Token nope"})
        stranger = await AsyncClient().get(path, headers={"Authorization": f"Token {token}"})
        return wrong, stranger

    wrong, stranger = run()
    assert (wrong.status_code, stranger.status_code) == (401, 404)
    assert wrong.json()["detail"] and stranger.json()["errors"] == {}


@pytest.mark.parametrize("visibility", list(Visibility))
def test_who_a_row_is_pushed_to_is_who_the_log_shows_it_to(
    visibility, player, other_player, storyteller, aelis, campaign
):
    hidden = visibility == Visibility.HIDDEN  # an NPC's roll, by the Conteur
    roll = stored_roll(
        campaign, storyteller if hidden else player, None if hidden else aelis, visibility
    )
    event = roll.events.get()
    pushed_to = players_who_see(event)
    for user in (player, other_player):
        shown = bool(events_for_user(campaign=member_campaign(campaign, user), user=user))
        assert shown == (pushed_to == "all" or user.pk in pushed_to), (visibility, user)


def member_campaign(campaign, user):
    return campaign_get_for_member(user=user, pk=campaign.pk)


def test_a_new_turn_refreshes_the_fight_and_tells_the_player_whose_turn_it_is(
    fight,  # noqa: F811 (the fixture imported above)
    storyteller,
    other_player,
    campaign,
):
    conteur, encounter = fight

    @in_own_thread
    async def run():
        page = await open_stream(other_player, f"/campaigns/{campaign.pk}/live/")
        await sync_to_async(next_turn)(conteur, storyteller, encounter)  # Brigand → Brann
        text = await page.until("event: notifications")
        text = await page.until("event: combat")
        await page.close()
        return text

    text = run()
    assert "event: row" not in text  # a page without the log gets the signals only
