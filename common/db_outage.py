"""The database is away: a mark in the shared cache, for the reads that the caches answer
without it (characters/probe_cache.py).

Every request that meets an unavailable database answers 503 (altherion/errors.py), which puts
the mark for MARK_SECONDS; a read served from the caches that finds it answers the same 503, so
that while the database is away the app says so everywhere, not only where a query fails. Once
the database answers again, no 503 renews the mark and it is gone within MARK_SECONDS.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import OperationalError

KEY = "database-unavailable"
MARK_SECONDS = 1


class Marked(OperationalError):
    """What a query would have raised, raised from the mark: it does not put the mark again (a
    mark renewed by the reads it fails would outlive the outage)."""


def seen(error: BaseException) -> None:
    if not isinstance(error, Marked):
        cache.set(KEY, 1, MARK_SECONDS)


def raise_if_marked(values: dict) -> None:
    """`values` holds KEY as read from the cache: raise what a query would have raised."""
    if values.get(KEY):
        raise Marked("La base de données est indisponible (marque en cache).")
