"""A member's campaign kept in the shared cache for the table's API (`sessions/api.py`): the
membership row with its campaign, as `policy.membership_get` reads it, per (campaign, user).

The same scheme as the sheet's probe (characters/probe_cache.py): each entry holds the row with
the campaigns' counter (campaigns/structure.py) read before the query that made it, moved by any
change to a campaign, a membership or a user, and serves while the counter has not moved (and
TIMEOUT at most). A view asks for its entry with its user's read (`keys`, through
common/user_prefetch.py); a view that did not ask reads the database as before. A non-member is
never kept: the database is asked again, and says 404.
"""

from __future__ import annotations

from collections.abc import Callable

from campaigns import structure
from campaigns.models import Membership
from common import generations, user_prefetch

TIMEOUT = 10  # seconds: as the sheet's probe (characters/probe_cache.py)


def entry_key(campaign_id: int, user_id: int) -> str:
    return f"member:{campaign_id}:{user_id}"


def keys(user_id: int, campaign_id: int, **_view_kwargs) -> list[str]:
    return [entry_key(campaign_id, user_id), structure.KEY]


def membership(
    *, user_id: int, campaign_id: int, read: Callable[[], Membership | None]
) -> Membership | None:
    """`read()`'s membership, from the cache while still exact when the view asked for it."""
    values = user_prefetch.found()
    entry = entry_key(campaign_id, user_id)
    if entry not in values:
        return read()
    return generations.kept_or_read(
        values=values, entry=entry, counters=[structure.KEY], read=read, timeout=TIMEOUT
    )
