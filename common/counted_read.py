"""Keys of the shared cache read, and throttle counters counted, in one round trip.

An API request reads its user (its token's entry, the view's keys) and then counts itself in its
throttle's counter: two round trips to Redis. When the user is known before the read (a token
this process has seen: altherion/auth_backends.py), both go in one MULTI/EXEC: each counter is
opened for its period by its window's first request (SET NX EX, as the throttle's own `add`)
and counted (INCR), atomically, so a window that closes meanwhile never leaves a counter without
its expiry. The throttle then finds its count (`common.throttles.keep_counts`). With a cache in
each process's memory, only the keys are read and the throttle counts itself.
"""

from __future__ import annotations

import logging

from django.core.cache import caches
from django_redis.cache import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


def read_counting(
    keys: list[str], counters: dict[str, tuple[int, float]]
) -> tuple[dict, dict[str, int]]:
    """`cache.get_many(keys)`, and each of `counters` (its key → its period in seconds and the
    time now) counted: the counts after this request ({} where the throttle counts itself). A
    cache that does not answer is a miss, as `get_many`'s, and counts nothing."""
    backend = caches["default"]
    if not counters or not isinstance(backend, RedisCache):
        return backend.get_many(keys), {}
    client = backend.client
    try:
        pipe = client.get_client(write=True).pipeline(transaction=True)
        pipe.mget([client.make_key(key) for key in keys])
        for key, (period, now) in counters.items():
            pipe.set(client.make_key(key), 0, ex=period, nx=True)
            pipe.set(client.make_key(f"{key}:since"), client.encode(now), ex=period, nx=True)
            pipe.incr(client.make_key(key))
        replies = pipe.execute()
    except (RedisError, OSError) as error:
        log.warning("shared cache unavailable, read as a miss: %s", error)
        return {}, {}
    found = zip(keys, replies[0], strict=True)
    values = {key: client.decode(value) for key, value in found if value is not None}
    return values, dict(zip(counters, replies[3::3], strict=True))
