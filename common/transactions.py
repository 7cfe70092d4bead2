"""A service's body without its own `@transaction.atomic`, for a caller's transaction that rolls
back whole on any error the service raises (issue 15).

Inside a transaction, a service's atomic is a savepoint: SAVEPOINT and RELEASE, two statements a
write. It matters to a caller that catches the service's error and goes on in the same
transaction — the savepoint undoes the service's half-done work — so the services keep it. A
caller that never goes on after an error (the sheet API's `_write`: the error leaves its atomic
block, which rolls everything back) may call the body alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.transaction import Atomic


def without_atomic(service: Callable[..., Any]) -> Callable[..., Any]:
    """What `@transaction.atomic` wrapped around `service`; TypeError if it wraps nothing else
    (another decorator on top, or none), rather than silently dropping the wrong layer."""
    closure = getattr(service, "__closure__", None) or ()
    wrapped = getattr(service, "__wrapped__", None)
    if wrapped is None or not any(isinstance(c.cell_contents, Atomic) for c in closure):
        raise TypeError(f"{service!r} is not a function decorated with @transaction.atomic")
    return wrapped
