"""Rendered entries kept in the process as well as in the shared cache (common.content_cache):
a hit needs no round trip to the shared cache, and the process keeps only so many, so long."""

import pytest
from django.core.cache import cache

from common import content_cache

pytestmark = pytest.mark.usefixtures("empty_cache")


def test_an_entry_read_once_is_served_by_the_process_without_the_shared_cache(monkeypatch):
    cache.set("sheet:1:v2", "<main>Aelis</main>")
    assert content_cache.get("sheet:1:v2") == "<main>Aelis</main>"
    monkeypatch.setattr(cache, "get", lambda *a, **k: pytest.fail("asked the shared cache"))
    assert content_cache.get("sheet:1:v2") == "<main>Aelis</main>"


def test_what_one_process_keeps_the_others_find_in_the_shared_cache():
    content_cache.set_many({"row:1": "<li>1</li>", "row:2": "<li>2</li>"}, 60)
    content_cache.clear_local()  # another process: nothing of its own yet
    assert content_cache.get_many(["row:2", "row:1", "row:3"]) == {
        "row:1": "<li>1</li>",
        "row:2": "<li>2</li>",
    }


def test_the_process_keeps_the_most_recent_entries_only(monkeypatch):
    monkeypatch.setattr(content_cache, "_recent", content_cache._Recent(2))
    for name in ("a", "b", "c"):
        content_cache.set(name, name.upper(), 60)
    cache.clear()
    assert content_cache.get("a") is None  # the oldest left the process
    assert content_cache.get("b") == "B" and content_cache.get("c") == "C"


def test_a_copy_is_kept_a_limited_time(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(content_cache.time, "monotonic", lambda: now[0])
    content_cache.set("page", "<html>", 60)
    cache.clear()
    assert content_cache.get("page") == "<html>"
    now[0] += content_cache.LOCAL_SECONDS + 1
    assert content_cache.get("page") is None
