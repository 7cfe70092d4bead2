"""A roller's sheet kept in the shared cache for the API's rolls that pay nothing
(`services._roll_unpaid`), so that such a roll reads no sheet from the database.

Each entry holds the character row with its skill rows, as a roll reads them, per (campaign,
character), under the sheet's counter (characters/probe_cache.py): moved by every save or
deletion of the row, so by every change of its skills too (each moves the sheet's version). The
roll POST asks for its roller's entry and that counter with its user's read (`keys`, the
character named in its body, through common/user_prefetch.py); the entry serves while the
counter has not moved (TIMEOUT at most). A roll that did not ask reads the database as before.

A roller read this way is read without its idempotency key: a key already used fails on its
unique constraint, and `services.roll_create` then answers the first roll, as for a double
submit.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.conf import settings

from campaigns.policy import ROW_ID_MAX
from characters import probe_cache
from characters.models import Character
from common import generations, user_prefetch

TIMEOUT = 10  # seconds: as the sheet's probe (characters/probe_cache.py)


def entry_key(campaign_id: int, pk: int) -> str:
    return f"roller:{campaign_id}:{pk}"


def keys(campaign_id: int, body: bytes) -> list[str]:
    """The entry and the counter of the roller a roll's JSON `body` names (none if it names
    no row id: the roll is refused or read from the database; none if the counters are not
    shared by every process: `settings.CACHE_SHARED`)."""
    if not settings.CACHE_SHARED:
        return []
    try:
        pk = json.loads(body).get("character")
    except (ValueError, AttributeError, RecursionError):  # refused by the API's parser
        return []
    if type(pk) is not int or not 0 < pk <= ROW_ID_MAX:
        return []
    return [entry_key(campaign_id, pk), probe_cache.sheet_key(pk)]


def fetched(campaign_id: int, pk: int) -> bool:
    """Whether the view fetched this roller's entry with its user."""
    return entry_key(campaign_id, pk) in user_prefetch.found()


def roller(campaign_id: int, pk: int, read: Callable[[], Character | None]) -> Character | None:
    """`read()`'s roller (with its `skill_rows`), from the cache while still exact."""
    return generations.kept_or_read(
        values=user_prefetch.found(),
        entry=entry_key(campaign_id, pk),
        counters=[probe_cache.sheet_key(pk)],
        read=read,
        timeout=TIMEOUT,
    )
