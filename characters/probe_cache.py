"""The sheet's probe (`selectors.sheet_probe`: the version, names and rights that key the page
cache) kept in the shared cache, so that a sheet read from the page cache runs no query.

Each (sheet, viewer) entry holds the probe's row with the two counters read before the query
that made it (common/generations.py): the sheet's own, moved by every save or deletion of the
character row (signals, and `characters.services`' bulk update by hand), and the campaigns'
(campaigns/structure.py), moved by any change to a campaign, a membership or a user. The entry
serves while neither counter has moved. The sheet page asks for the entry and both counters
with its user's read (common/user_prefetch.py): a read served from the caches costs that one
round trip and no query. A non-member's 404 is never kept: it is asked of the database again.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

from campaigns import structure
from characters import selectors
from common import generations, user_prefetch

# A kept probe serves this long at most: the bound on a counter's move the cache missed (down at
# that moment; a commit the app never saw is moved again by `generations.settle`); otherwise the
# counters decide.
TIMEOUT = 10


def sheet_key(pk: int) -> str:
    return f"sheet-gen:{pk}"


def entry_key(pk: int, user_id: int) -> str:
    return f"sheet-probe:{pk}:{user_id}"


def counter_keys(pk: int) -> list[str]:
    return [sheet_key(pk), structure.KEY]


def keys(user_id: int, pk: int, **_view_kwargs) -> list[str]:
    """The entry and both counters."""
    return [entry_key(pk, user_id), *counter_keys(pk)]


def sheet_probe(*, user, pk: int) -> dict:
    """`selectors.sheet_probe(user=user, pk=pk)`, from the cache while still exact."""
    if not user.is_authenticated:
        return selectors.sheet_probe(user=user, pk=pk)
    row = generations.kept_or_read(
        values=user_prefetch.found() or cache.get_many(keys(user.pk, pk)),
        entry=entry_key(pk, user.pk),
        counters=counter_keys(pk),
        read=lambda: selectors.sheet_probe(user=user, pk=pk),
        timeout=TIMEOUT,
    )
    return dict(row)  # the caller's own copy


def sheet_moved(pk: int) -> None:
    generations.move(sheet_key(pk))


def _on_change(sender, instance, **kwargs) -> None:
    sheet_moved(instance.pk)


def register() -> None:
    """Connected in CharactersConfig.ready: a character saved or deleted."""
    from characters.models import Character

    post_save.connect(_on_change, sender=Character, dispatch_uid="sheet-probe-save")
    post_delete.connect(_on_change, sender=Character, dispatch_uid="sheet-probe-delete")
