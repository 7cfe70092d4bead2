"""The table's event stream (issue 40): a page learns of a roll, a Moral move, a sheet's new
version and a notification without asking; it never gets what its viewer may not see; it catches
up after a drop from its cursor; a removed member's stream closes. In one process (the embedded
hub); `test_stream_redis.py` goes through Redis across processes."""

import asyncio
import contextlib

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from campaigns.models import Membership
from sessions.models import Visibility
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_views import stored_roll

pytestmark = pytest.mark.django_db(transaction=True)


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


def test_a_roll_reaches_the_other_players_page_at_once(player, other_player, aelis, campaign):
    @async_to_sync
    async def run():
        stream = await open_stream(other_player, live(campaign))
        roll = await sync_to_async(stored_roll)(campaign, player, aelis)
        event = await sync_to_async(lambda: roll.events.get().pk)()
        text = await stream.until(f"id: {event}")
        await stream.close()
        return event, text

    event, text = run()
    assert "event: row" in text
    assert f'data-event-id="{event}"' in text
    assert "Aelis" in text


def test_a_secret_roll_goes_to_its_roller_and_the_conteur_only(
    player, other_player, storyteller, aelis, campaign
):
    @async_to_sync
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

    @async_to_sync
    async def run():
        stream = await open_stream(other_player, live(campaign), **{"Last-Event-ID": str(first)})
        text = await stream.until(f"id: {missed}")
        await stream.close()
        return text

    text = run()
    assert f"id: {first}\n" not in text
    assert "event: morale" in text  # the panels read themselves again after a drop


def test_a_removed_member_stream_closes(player, other_player, campaign):
    @async_to_sync
    async def run():
        stream = await open_stream(other_player, live(campaign))
        await Membership.objects.filter(campaign=campaign, user=other_player).adelete()
        text = await stream.until("event: closed")
        return text

    assert "event: closed" in run()


def test_a_non_member_gets_404(outsider, campaign):
    @async_to_sync
    async def run():
        client = AsyncClient()
        await sync_to_async(client.force_login)(outsider)
        return await client.get(live(campaign))

    assert run().status_code == 404
