"""Is the database still there? Answered without a query: the worker's idle connection is polled.

A PostgreSQL that stops or restarts ends every session with a message and a closed socket, so an
idle connection with something to read has been ended. Two callers ask:

- the start of every request and job (`drop_ended`): an ended connection is closed and the next
  query opens another. Django's `CONN_HEALTH_CHECKS` does the same with a `SELECT 1` per
  request, a round trip to PostgreSQL; this is a system call.
- a read that the caches answer without the database (`confirm_reachable`, from
  common/generations.kept_or_read): while the database is away it fails as a query would, a 503
  like every other request's (issue 12), not a 200 from the cache. A request whose connection
  was seen open when it started (`request_began`) is not asked again: its reads follow within
  the same moment, and a roll reads two kept entries.
"""

from __future__ import annotations

import select
import threading

from django.db import connection

_request = threading.local()  # `seen_open`: this request's connection was open when it began


def drop_ended(**_signal) -> None:
    """Close the connection if the server has ended it."""
    raw = connection.connection
    if (
        raw is not None
        and connection.vendor == "postgresql"
        and not connection.in_atomic_block
        and _ended(raw)
    ):
        connection.close()


def request_began(**_signal) -> None:
    """`drop_ended` at the start of a request, remembering whether the connection was open."""
    drop_ended()
    _request.seen_open = connection.connection is not None and connection.vendor == "postgresql"


def request_ended(**_signal) -> None:
    _request.seen_open = False


def confirm_reachable() -> None:
    """Raise `OperationalError` if the database is away; otherwise leave an open connection."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return  # SQLite is a file; inside a transaction the connection is in use, not idle
    if getattr(_request, "seen_open", False) and connection.connection is not None:
        return
    drop_ended()
    connection.ensure_connection()


def _ended(raw) -> bool:
    """An idle connection the server has spoken on, unasked: the session's end."""
    try:
        readable, _, _ = select.select([raw.fileno()], [], [], 0)
    except (OSError, ValueError):  # closed already
        return True
    return bool(readable)
