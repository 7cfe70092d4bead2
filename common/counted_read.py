"""Keys of the shared cache read, and throttle counters counted, in one round trip.

An API request reads its user (its token's entry, the view's keys) and then counts itself in its
throttle's counter: two round trips to Redis. When the user is known before the read (a token
this process has seen: altherion/auth_backends.py), both go in one script, which Redis runs
atomically: the keys read (MGET), then each counter opened for its period by its window's first
request (SET NX EX, as the throttle's own `add`) and counted (INCR), so a window that closes
meanwhile never leaves a counter without its expiry. One command rather than a MULTI/EXEC of
six: the web process packs and parses one (its CPU, not Redis', is what a roll is short of).
The throttle then finds its count (`common.throttles.keep_counts`). With a cache in each
process's memory, only the keys are read and the throttle counts itself.
"""

from __future__ import annotations

import hashlib
import logging

from django.core.cache import caches
from django_redis.cache import RedisCache
from redis.exceptions import NoScriptError, RedisError

log = logging.getLogger(__name__)

# KEYS: the keys read, then each counter's key and its `:since` key. ARGV: how many keys are
# read, then each counter's period (seconds) and the time now (encoded as the cache encodes it).
_READ_COUNTING = """
local read = tonumber(ARGV[1])
local values = redis.call('MGET', unpack(KEYS, 1, read))
local counts = {}
for i = read + 1, #KEYS, 2 do
  local n = #counts + 1
  local period = ARGV[2 * n]
  redis.call('SET', KEYS[i], 0, 'EX', period, 'NX')
  redis.call('SET', KEYS[i + 1], ARGV[2 * n + 1], 'EX', period, 'NX')
  counts[n] = redis.call('INCR', KEYS[i])
end
return {values, counts}
"""
_SHA1 = hashlib.sha1(_READ_COUNTING.encode()).hexdigest()  # what EVALSHA names it by


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
    names = [client.make_key(key) for key in keys]
    arguments: list = [len(keys)]
    for key, (period, now) in counters.items():
        names += [client.make_key(key), client.make_key(f"{key}:since")]
        arguments += [int(period), client.encode(now)]
    redis = client.get_client(write=True)
    try:
        try:
            read, counts = redis.evalsha(_SHA1, len(names), *names, *arguments)
        except NoScriptError:  # a Redis started since: it learns the script
            redis.script_load(_READ_COUNTING)
            read, counts = redis.evalsha(_SHA1, len(names), *names, *arguments)
    except (RedisError, OSError) as error:
        log.warning("shared cache unavailable, read as a miss: %s", error)
        return {}, {}
    found = zip(keys, read, strict=True)
    values = {key: client.decode(value) for key, value in found if value is not None}
    return values, dict(zip(counters, counts, strict=True))
