"""Counters in the shared cache that say "something changed since I read it".

A reader keeps what it read from the database together with the counters it read *before*
reading the database; what it kept is good for as long as those counters have not moved. A
writer moves its counters at once and again at commit: a reader that read the rows between the
two kept the old rows under a value the commit move leaves behind, and a reader after the commit
move reads the new rows. A counter missing from the cache (never made, evicted, expired every
TTL, the cache down) starts again at a random value, which nothing kept can carry; a move the
cache missed (down at that moment) leaves what was kept stale for TTL at most.
"""

from __future__ import annotations

import contextlib
import secrets

from django.core.cache import cache
from django.db import transaction

from common import db_outage

TTL = 60  # seconds: the longest a counter that missed a move stays wrong


def read_or_start(key: str) -> int | None:
    """The counter now, started (at a random value) when the cache has none; None if the cache
    cannot be read."""
    value = cache.get(key)
    if value is None:
        cache.add(key, secrets.randbits(52), TTL)
        value = cache.get(key)
    return value


def move(key: str) -> None:
    """Move the counter now and again when the current transaction commits."""
    bump(key)
    transaction.on_commit(lambda: bump(key), robust=True)


def bump(key: str) -> None:
    """Move the counter now (a writer that moves it at commit alone calls this then)."""
    with contextlib.suppress(ValueError):  # no counter: nothing kept can carry the next one
        cache.incr(key)


def kept_or_read(*, values: dict, entry: str, counters: list[str], read, timeout: int):
    """What `entry` keeps, if the `counters` it was kept under are those in `values` (the cache's
    answer for the entry, the counters and the outage mark: common/db_outage.py); else `read()`'s,
    kept under the counters read before it. None (a row that does not exist) is never kept."""
    now = [values.get(key) for key in counters]
    kept = values.get(entry)
    if kept is not None and None not in now and kept[0] == now:
        db_outage.raise_if_marked(values)  # a 503, as every request's while the database is away
        return kept[1]
    if None in now:
        now = [read_or_start(key) for key in counters]
    found = read()
    if found is not None and None not in now:
        cache.set(entry, (now, found), timeout)
    return found
