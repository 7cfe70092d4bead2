"""The event stream through Redis (issue 40): a write published by another process's connection
reaches a stream held here, and a stream whose Redis subscription dropped catches up from the
database once it is back."""

import pytest
from asgiref.sync import sync_to_async

from common import push
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_stream import in_own_thread, live, open_stream, roll_seen_by_other_page
from tests.sessions.test_views import stored_roll

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


@pytest.fixture(autouse=True)
def _through_redis(settings, redis_broker):
    settings.PUSH_REDIS_URL = redis_broker
    settings.LIVE_HEARTBEAT_SECONDS = 0.2


def test_a_roll_published_on_redis_reaches_the_stream(player, other_player, aelis, campaign):
    event, text = roll_seen_by_other_page(player, other_player, aelis, campaign)
    assert f'data-event-id="{event}"' in text


def test_a_stream_that_lost_redis_catches_up_from_the_log(
    settings, player, other_player, aelis, campaign
):
    @in_own_thread
    async def run():
        stream = await open_stream(other_player, live(campaign))
        # What the hub does when its subscription drops: every stream hears of a gap. The row
        # committed meanwhile was published to nobody.
        reachable = settings.PUSH_REDIS_URL
        settings.PUSH_REDIS_URL = "redis://127.0.0.1:1/0"  # nowhere: the publish is lost
        roll = await sync_to_async(stored_roll)(campaign, player, aelis)
        settings.PUSH_REDIS_URL = reachable
        event = await sync_to_async(lambda: roll.events.get().pk)()
        await stream.quiet_for(0.3)
        assert f"id: {event}" not in stream.text
        push.hub().dispatch(push.campaign_channel(campaign.pk), '{"type": "gap"}')
        text = await stream.until(f"id: {event}")
        await stream.close()
        return text

    assert "event: morale" in run()
