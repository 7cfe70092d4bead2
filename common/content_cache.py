"""The shared cache's rendered entries, kept in each process's memory too.

The sheet pages, the API's sheet bodies and the table's log rows are cached under keys that name
everything they show (a version, a revision, the viewer's rights, the language, the release): a
key's value never changes, a write makes a new key. Such an entry can be kept in the process as
well, and a hit then costs no round trip to Redis and no unpickling (a sheet page is ~70 kB). The
process keeps the LOCAL_ENTRIES most recently used, each at most LOCAL_SECONDS; only rendered
text (str or bytes, or bytes cut in pieces: `local_put`) goes through here, never a value a later
write could change under its key.

A missing entry is rendered once, not once per process that asks for it at the same moment
(`get_or_render`): after a write, every open page's next read asks for the same new key, and the
processes that did not take the rendering wait for its result instead of drawing it too.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from django.core.cache import cache

LOCAL_ENTRIES = 256
LOCAL_SECONDS = 300
# A rendering is given this long before another process stops waiting and renders the entry
# itself (a renderer that died holds nothing for longer than RENDER_LOCK_SECONDS).
RENDER_WAIT_SECONDS = 1.0
RENDER_LOCK_SECONDS = 10
# A waiter looks for the result after 1 ms, then twice as long each time, up to 8 ms: most
# renderings take a few milliseconds, and a worker that sleeps past one's end serves nobody.
RENDER_POLL_SECONDS = (0.001, 0.008)


class _Recent:
    """A bounded map of the most recently used entries, each with its deadline."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[str, tuple[float, str | bytes]] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: str):
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            if found[0] < time.monotonic():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return found[1]

    def put(self, key: str, value) -> None:
        with self._lock:
            self._items[key] = (time.monotonic() + LOCAL_SECONDS, value)
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_recent = _Recent(LOCAL_ENTRIES)


def get(key: str):
    value = _recent.get(key)
    if value is None:
        value = cache.get(key)
        if value is not None:
            _recent.put(key, value)
    return value


def local_get(key: str):
    """This process's own copy alone (None if it has none): for what is derived from entries
    in the process, and never shared."""
    return _recent.get(key)


def local_put(key: str, value) -> None:
    _recent.put(key, value)


def get_many(keys: list[str]) -> dict:
    found = {key: value for key in keys if (value := _recent.get(key)) is not None}
    missing = [key for key in keys if key not in found]
    if missing:
        for key, value in cache.get_many(missing).items():
            _recent.put(key, value)
            found[key] = value
    return found


def set(key: str, value: str | bytes, timeout: int) -> None:  # noqa: A001 (the cache's own name)
    cache.set(key, value, timeout)
    _recent.put(key, value)


def set_many(values: dict, timeout: int) -> None:
    cache.set_many(values, timeout)
    for key, value in values.items():
        _recent.put(key, value)


def get_or_render(key: str, render: Callable[[], str | bytes], timeout: int):
    """The entry under `key`, or `render()`'s, kept. Only one process renders a missing key:
    the others wait (at most RENDER_WAIT_SECONDS) for its result. A shared cache that does not
    answer (`add` gives None) is no reason to wait: the entry is rendered here."""
    value = get(key)
    if value is not None:
        return value
    lock = f"{key}:rendering"
    rendering_here = cache.add(lock, 1, RENDER_LOCK_SECONDS)
    if rendering_here is False:
        value = _wait_for(key)
        if value is not None:
            return value
    try:
        value = render()
        set(key, value, timeout)
    finally:
        if rendering_here:
            cache.delete(lock)
    return value


def _wait_for(key: str):
    deadline = time.monotonic() + RENDER_WAIT_SECONDS
    delay, longest = RENDER_POLL_SECONDS
    while time.monotonic() < deadline:
        time.sleep(delay)
        delay = min(2 * delay, longest)
        value = cache.get(key)
        if value is not None:
            _recent.put(key, value)
            return value
    return None


def clear_local() -> None:
    """Forget this process's copies (the tests, whose databases reuse the ids keys name)."""
    _recent.clear()
