"""The counters' moves (common/generations.py, retired by issue 38 and no longer wired to the
requests' end): at once and at commit, so that what a reader kept in between is not served."""

import pytest
from django.core.cache import cache
from django.db import transaction

from common import generations

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("empty_cache")]

KEY = "test-gen"


@pytest.fixture(autouse=True)
def _shared(settings):
    settings.CACHE_SHARED = True  # one process: its memory is every request's


def test_a_committed_write_moves_its_counter_now_and_at_commit_only():
    start = generations.read_or_start(KEY)
    with transaction.atomic():
        generations.move(KEY)
        assert cache.get(KEY) == start + 1
    assert cache.get(KEY) == start + 2


def test_without_a_cache_every_process_shares_no_counter_is_started(settings):
    settings.CACHE_SHARED = False
    assert generations.read_or_start(KEY) is None
    assert cache.get(KEY) is None


def test_on_redis_a_move_counts_a_kept_counter_and_leaves_a_missing_one_missing(redis_cache):
    start = generations.read_or_start(KEY)
    ttl = cache.ttl(KEY)
    generations.bump(KEY)
    assert cache.get(KEY) == start + 1
    assert 0 < cache.ttl(KEY) <= ttl  # the counter's expiry is kept: it still ends
    generations.bump("test-gen-never-started")
    assert cache.get("test-gen-never-started") is None


def test_a_move_the_cache_cannot_take_is_not_an_error(settings):
    from tests.conftest import redis_caches

    settings.CACHES = redis_caches("redis://127.0.0.1:9/0")
    generations.bump(KEY)  # missed: what was kept stays stale for TTL at most


def test_on_redis_the_move_at_commit_is_run_before_any_later_read(redis_cache):
    start = generations.read_or_start(KEY)
    with transaction.atomic():
        generations.move(KEY)
        generations.move("test-gen-never-started")
    # Sent without waiting for its answer, yet counted before what follows, on another
    # connection (another process) as on this one, whose next answers are their own.
    assert int(redis_cache.get(cache.make_key(KEY))) == start + 2
    assert cache.get(KEY) == start + 2
    cache.set("test-after", "kept")
    assert cache.get("test-after") == "kept" and cache.get("test-gen-never-started") is None


def test_a_move_at_commit_the_cache_cannot_take_is_not_an_error(settings):
    from tests.conftest import redis_caches

    settings.CACHES = redis_caches("redis://127.0.0.1:9/0")
    with transaction.atomic():
        generations.move(KEY)  # missed twice: what was kept stays stale for TTL at most


def test_on_redis_a_move_after_redis_dropped_its_connection_still_lands(redis_cache):
    start = generations.read_or_start(KEY)
    with transaction.atomic():
        generations.move(KEY, now=False)
    # Redis closes every connection that the moves go out on (a restart, an idle timeout).
    for client in redis_cache.client_list():
        if client["cmd"] in ("eval", "client|reply"):
            redis_cache.client_kill_filter(_id=client["id"])
    with transaction.atomic():
        generations.move(KEY, now=False)
    assert cache.get(KEY) == start + 2


def test_on_redis_the_moves_connection_is_never_answered(redis_cache):
    start = generations.read_or_start(KEY)
    for _ in range(3):
        with transaction.atomic():
            generations.move(KEY, now=False)
    assert cache.get(KEY) == start + 3
    quiet = generations._unanswered.connection
    # Nothing waits on its socket: Redis has answered neither the moves nor CLIENT REPLY OFF.
    assert generations._open(quiet._sock)
