"""Counters in the shared cache that say "something changed since I read it".

A reader keeps what it read from the database together with the counters it read *before*
reading the database; what it kept is good for as long as those counters have not moved. A
writer moves its counters at once and again at commit: a reader that read the rows between the
two kept the old rows under a value the commit move leaves behind, and a reader after the commit
move reads the new rows. A counter missing from the cache (never made, evicted, expired every
TTL, the cache down) starts again at a random value, which nothing kept can carry; a move the
cache missed (down at that moment) leaves what was kept stale for TTL at most.

The move at commit is sent without waiting for Redis' answer (`_bump_unanswered`): the commit's
writer answers its client after the command is in Redis' socket, and a read that follows that
answer (any read that must see the write) reaches Redis after it, so Redis runs the move first.

Counters only say something if every process that serves the app moves and reads the same ones:
`settings.CACHE_SHARED` (Redis, or a single process). Otherwise none is ever started, and every
reader reads the database.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
import threading

from django.conf import settings
from django.core.cache import cache, caches
from django.db import connection, transaction
from django_redis.cache import RedisCache
from redis.exceptions import RedisError

from common import db_outage

log = logging.getLogger(__name__)

TTL = 60  # seconds: the longest a counter that missed a move stays wrong

_local = threading.local()


def read_or_start(key: str) -> int | None:
    """The counter now, started (at a random value) when the cache has none; None if the cache
    cannot be read, or is not shared by every process."""
    if not settings.CACHE_SHARED:
        return None
    value = cache.get(key)
    if value is None:
        cache.add(key, secrets.randbits(52), TTL)
        value = cache.get(key)
    return value


def move(key: str, *, now: bool = True) -> None:
    """Move the counter now (unless `now` is False) and again when the current transaction
    commits; if the app never sees that commit, `settle` moves it at the end of the request."""
    if now:
        bump(key)
    _unsettled().add(key)
    transaction.on_commit(lambda: _committed(key), robust=True)


def _committed(key: str) -> None:
    _bump_unanswered(key)
    _unsettled().discard(key)


def settle(**_signal) -> None:
    """Move again the counters of transactions that ended without the app seeing them commit.

    Rolled back, nothing changed and the move costs one read of the database; but when the
    database goes away during COMMIT the app cannot know whether the server committed, and a
    reader may have kept the old rows under the counter moved before: this move is what makes
    them stale at once, not after a TTL. Called at the end of each request and each job, and by
    the server-error handler before it answers (a client that lost its answer reads again)."""
    if connection.in_atomic_block:
        return  # still inside a transaction (a test's): its commit is still to come
    keys = _unsettled()
    while keys:
        bump(keys.pop())


def _unsettled() -> set[str]:
    """The counters moved by this thread's transactions whose commit was not seen yet."""
    if not hasattr(_local, "keys"):
        _local.keys = set()
    return _local.keys


def bump(key: str) -> None:
    """Move the counter now (a writer that moves it at commit alone calls this then)."""
    with contextlib.suppress(ValueError):  # no counter: nothing kept can carry the next one
        cache.incr(key)


# The move is `incr`'s for a counter that exists (django-redis' own script): a missing counter
# stays missing.
_MOVE_IF_STARTED = b"if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('INCR', KEYS[1]) end"
_MOVE_HEAD = b"*4\r\n$4\r\nEVAL\r\n$%d\r\n%s\r\n$1\r\n1\r\n" % (
    len(_MOVE_IF_STARTED),
    _MOVE_IF_STARTED,
)


class _Unanswered(threading.local):
    """This thread's connection to the cache's Redis that Redis never answers (CLIENT REPLY
    OFF), for the moves at commit, and the process that opened it."""

    connection = None
    pid = 0
    backend = None


_unanswered = _Unanswered()


def _bump_unanswered(key: str) -> None:
    """`bump(key)`, on Redis sent without waiting for the answer, on a connection Redis never
    answers: one write to a socket for every commit, no round trip, no connection taken from
    the pool and checked (a roll's web process spends more CPU waking for an answer than
    sending)."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        bump(key)
        return
    name = backend.client.make_key(key).encode()
    command = b"%s$%d\r\n%s\r\n" % (_MOVE_HEAD, len(name), name)
    try:
        _quiet_connection(backend).send_packed_command([command], check_health=False)
    except (RedisError, OSError) as error:  # missed: what was kept is stale for TTL at most
        _forget_quiet_connection()
        log.warning("shared cache unavailable, counter not moved: %s", error)


def _quiet_connection(backend: RedisCache):
    """This thread's unanswered connection to `backend`'s Redis, opened again when Redis closed
    it (a restart, an idle timeout: its socket then reads as ended), in a forked process, and
    for another cache (settings changed)."""
    connection, pid = _unanswered.connection, os.getpid()
    kept = connection is not None and (_unanswered.pid, _unanswered.backend) == (pid, backend)
    if kept and _open(connection._sock):
        return connection
    _forget_quiet_connection()
    pool = backend.client.get_client(write=True).connection_pool
    connection = pool.connection_class(**pool.connection_kwargs)
    connection.connect()
    connection.send_command("CLIENT", "REPLY", "OFF")
    # Non-blocking: the check below waits for nothing, and a write Redis cannot take at once
    # (never under a working Redis: a move is a few dozen bytes) is a missed move.
    connection._sock.settimeout(0.0)
    _unanswered.connection, _unanswered.pid, _unanswered.backend = connection, pid, backend
    return connection


def _forget_quiet_connection() -> None:
    if _unanswered.connection is not None:
        _unanswered.connection.disconnect()  # a move half written must not be finished later
        _unanswered.connection = None


def _open(sock) -> bool:
    """Whether Redis still holds this socket open: it never answers on it, so anything to read
    (the end of the stream, an error) means it closed it."""
    if sock is None:
        return False
    try:
        sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def kept_or_read(*, values: dict, entry: str, counters: list[str], read, timeout: int):
    """What `entry` keeps, if the `counters` it was kept under are those in `values` (the cache's
    answer for the entry and the counters); else `read()`'s, kept under the counters read before
    it. None (a row that does not exist) is never kept. What is kept is served only while the
    database answers (common/db_outage.py): while it is away the read fails as a query would."""
    now = [values.get(key) for key in counters]
    kept = values.get(entry)
    if kept is not None and None not in now and kept[0] == now:
        db_outage.confirm_reachable()
        return kept[1]
    if None in now:
        now = [read_or_start(key) for key in counters]
    found = read()
    if found is not None and None not in now:
        cache.set(entry, (now, found), timeout)
    return found
