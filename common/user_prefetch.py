"""Keys of the shared cache read in the same round trip as the signed-in user.

A signed-in request reads its user from the cache (altherion/auth_backends.py). A view that
also needs a few keys named by that user (what it may see of a row, say) asks for them with
`@fetching(keys_for)` above `@login_required`: when the user is read, `keys_for(user_id,
request=request, **view_kwargs)` names the keys, they come back in the same `get_many`, and
`found()` gives them to the view. A request whose user was read before the view, or not from
the cache, finds nothing there and reads what it needs itself: `found()` is only a shortcut.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar

_keys_for: ContextVar[Callable[[int], list[str]] | None] = ContextVar("keys_for", default=None)
_found: ContextVar[dict | None] = ContextVar("found", default=None)


def fetching(keys_for: Callable[..., list[str]]):
    """View decorator: the user's read also fetches `keys_for(user_id, request=…, **view_kwargs)`."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            keys_token = _keys_for.set(functools.partial(keys_for, request=request, **kwargs))
            found_token = _found.set({})
            try:
                return view(request, *args, **kwargs)
            finally:
                _keys_for.reset(keys_token)
                _found.reset(found_token)

        return wrapper

    return decorator


def keys_for(user_id: int) -> list[str]:
    """The keys the current view asks for with this user's read (none outside `fetching`)."""
    named = _keys_for.get()
    return named(user_id) if named is not None else []


def keep(values: dict) -> None:
    """What the user's read found of those keys, for the view."""
    found = _found.get()
    if found is not None:
        found.update(values)


def found() -> dict:
    """The keys fetched with the user's read (empty if none were)."""
    return _found.get() or {}
