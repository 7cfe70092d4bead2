"""Is the database still there? Asked by a read that the caches answer without it
(common/generations.kept_or_read), so that while the database is away such a read is a 503 like
every other request's (issue 12), not a 200 from the cache.

No query is sent: the worker's idle connection is polled. A PostgreSQL that stops ends every
session with a message and a closed socket, so an idle connection with something to read has
been ended; it is then closed and opened again, which raises what a query would while the
database is away (a 503 from altherion/errors.py). A worker with no open connection opens one,
as its next query would.
"""

from __future__ import annotations

import select

from django.db import connection


def confirm_reachable() -> None:
    """Raise `OperationalError` if the database is away; otherwise leave an open connection."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return  # SQLite is a file; inside a transaction the connection is in use, not idle
    if connection.connection is not None and not _ended(connection.connection):
        return
    connection.close()
    connection.ensure_connection()


def _ended(raw) -> bool:
    """An idle connection the server has spoken on, unasked: the session's end."""
    try:
        readable, _, _ = select.select([raw.fileno()], [], [], 0)
    except (OSError, ValueError):  # closed already
        return True
    return bool(readable)
