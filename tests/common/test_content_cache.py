"""Rendered entries kept in the process as well as in the shared cache (common.content_cache):
a hit needs no round trip to the shared cache, and the process keeps only so many, so long."""

import threading
import time

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


def test_a_missing_entry_is_rendered_and_kept():
    assert content_cache.get_or_render("sheet:1:v3", lambda: "<main>v3</main>", 60) == (
        "<main>v3</main>"
    )
    content_cache.clear_local()
    assert cache.get("sheet:1:v3") == "<main>v3</main>"


def test_a_process_waits_for_the_rendering_another_has_begun(monkeypatch):
    """After a write, every open page asks for the same new key at once: the process that did
    not take the rendering gets the other's result, without drawing the page itself."""
    cache.add("sheet:1:v4:rendering", 1, 10)  # another process took the rendering
    threading.Timer(0.05, lambda: cache.set("sheet:1:v4", "<main>v4</main>", 60)).start()
    drawn = []
    page = content_cache.get_or_render("sheet:1:v4", lambda: drawn.append(1) or "mine", 60)
    assert page == "<main>v4</main>" and drawn == []


def test_a_rendering_that_never_comes_is_waited_for_a_bounded_while(monkeypatch):
    monkeypatch.setattr(content_cache, "RENDER_WAIT_SECONDS", 0.05)
    cache.add("sheet:1:v5:rendering", 1, 10)  # its renderer died
    started = time.monotonic()
    assert content_cache.get_or_render("sheet:1:v5", lambda: "<main>v5</main>", 60) == (
        "<main>v5</main>"
    )
    assert time.monotonic() - started < 0.5


def test_a_shared_cache_that_does_not_answer_is_no_reason_to_wait(monkeypatch):
    monkeypatch.setattr(cache, "add", lambda *args, **kwargs: None)  # IGNORE_EXCEPTIONS' answer
    monkeypatch.setattr(content_cache, "_wait_for", lambda key: pytest.fail("waited"))
    assert content_cache.get_or_render("sheet:1:v6", lambda: "<main>v6</main>", 60) == (
        "<main>v6</main>"
    )


def test_a_rendering_that_fails_lets_the_next_reader_render(monkeypatch):
    def broken():
        raise RuntimeError("template error")

    with pytest.raises(RuntimeError):
        content_cache.get_or_render("sheet:1:v7", broken, 60)
    monkeypatch.setattr(content_cache, "_wait_for", lambda key: pytest.fail("waited"))
    assert content_cache.get_or_render("sheet:1:v7", lambda: "<main>v7</main>", 60) == (
        "<main>v7</main>"
    )
