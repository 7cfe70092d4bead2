"""Server push: what a write publishes after its commit, and each process's hub that hands it to
the event streams open in that process.

A message is a small JSON object published on a channel named for a campaign or a user. With a
Redis URL (`PUSH_REDIS_URL`) it goes through Redis pub/sub, so a write committed by any web
process or Celery worker reaches every process that holds a page's stream. Without one (the
embedded default) the hub of the same process gets it directly: one process, no extra service.

Publishing is best effort by design: a page that misses a message (a Redis blip, a restart)
catches up from the database with its cursor (`Last-Event-ID`), so nothing is lost for good.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import weakref
from collections import defaultdict
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings
from django.db import connection, transaction

logger = logging.getLogger(__name__)

# A page that reads slower than this many messages behind is closed; it reconnects and catches up.
QUEUE_SIZE = 500
GAP = {"type": "gap"}  # what a stream gets when its messages may have been lost
# The database reads the streams of one process make at once (their catch-ups after a restart).
READS = 8

_clients: dict[str, redis.Redis] = {}
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def campaign_channel(campaign_id: int) -> str:
    return f"{prefix()}:campaign:{campaign_id}"


def user_channel(user_id: int) -> str:
    return f"{prefix()}:user:{user_id}"


def prefix() -> str:
    """Channels are named for the database (as connected, so a test database's own): two
    deployments sharing a Redis never hear each other."""
    return settings.PUSH_PREFIX or "altherion:" + str(connection.settings_dict["NAME"])


def publish_on_commit(channel: str, message: dict[str, Any] | None = None, *, build=None) -> None:
    """Publish `message` (or what `build()` returns then) once the current transaction commits;
    nothing if it rolls back."""
    if listened():
        transaction.on_commit(lambda: publish(channel, message if build is None else build()))


def listened() -> bool:
    """Whether a message could reach a stream: through Redis, or to a hub of this process."""
    with _hubs_lock:
        loops = list(_hubs)
    return bool(settings.PUSH_REDIS_URL) or any(not loop.is_closed() for loop in loops)


def publish(channel: str, message: dict[str, Any] | None) -> None:
    if message is None:
        return
    data = json.dumps(message, separators=(",", ":"))
    url = settings.PUSH_REDIS_URL
    if not url:
        _deliver_locally(channel, data)
        return
    try:
        _client(url).publish(channel, data)
    except redis.RedisError:
        # The write stands; the pages catch up from the database when the stream comes back.
        logger.warning("push: Redis unreachable, %s not published", channel, exc_info=True)


def _client(url: str) -> redis.Redis:
    client = _clients.get(url)
    if client is None:
        client = _clients.setdefault(url, redis.Redis.from_url(url))
    return client


def _deliver_locally(channel: str, data: str) -> None:
    with _hubs_lock:
        hubs = list(_hubs.items())
    for loop, hub in hubs:
        if not loop.is_closed():
            loop.call_soon_threadsafe(hub.dispatch, channel, data)


def hub() -> Hub:
    """This event loop's hub, started on first use (must be called from the loop)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        found = _hubs.get(loop)
        if found is None:
            found = _hubs[loop] = Hub(settings.PUSH_REDIS_URL)
    found.start()
    return found


class Subscription:
    """One open stream's inbox: the messages of its channels, in order."""

    def __init__(self, channels: tuple[str, ...]):
        self.channels = channels
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)

    async def get(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None after `timeout` seconds without one."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None

    def offer(self, message: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            # Too far behind: drop what waits and say so; the stream catches up from its cursor.
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(GAP)


class Hub:
    """The streams of one process by channel, fed by one Redis subscription (or by `publish`
    in the same process)."""

    def __init__(self, url: str):
        self.url = url
        self.subscriptions: dict[str, set[Subscription]] = defaultdict(set)
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()
        self.reads = asyncio.Semaphore(READS)

    def start(self) -> None:
        if not self.url:
            self.ready.set()
        elif self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._listen())

    def subscribe(self, *channels: str) -> Subscription:
        subscription = Subscription(channels)
        for channel in channels:
            self.subscriptions[channel].add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        for channel in subscription.channels:
            subscribers = self.subscriptions.get(channel)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self.subscriptions[channel]

    def dispatch(self, channel: str, data: str | bytes) -> None:
        subscribers = self.subscriptions.get(channel)
        if not subscribers:
            return
        message = json.loads(data)
        for subscription in list(subscribers):
            subscription.offer(message)

    def _gap(self) -> None:
        for subscribers in self.subscriptions.values():
            for subscription in subscribers:
                subscription.offer(GAP)

    async def _listen(self) -> None:
        """Follow every channel of this deployment on Redis; after a lost connection, tell each
        stream it may have missed something, and subscribe again."""
        delay = 0.5
        while True:
            client = aioredis.Redis.from_url(self.url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(f"{prefix()}:*")
                    self.ready.set()
                    delay = 0.5
                    async for item in pubsub.listen():
                        if item["type"] == "pmessage":
                            self.dispatch(item["channel"].decode(), item["data"])
            except (redis.RedisError, OSError):
                logger.warning("push: Redis subscription lost, retrying", exc_info=True)
            finally:
                await client.aclose()
            self.ready.clear()
            self._gap()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10)
