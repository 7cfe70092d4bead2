"""An API request whose token this process has seen reads its user and counts itself in its
throttle in one round trip to Redis (common/counted_read.py, issue 15), and the throttle still
refuses what it refused: the rate, its window, the Retry-After."""

import pytest
import redis
from django.core.cache import cache
from django.test import override_settings
from redis.client import Pipeline
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from altherion.auth_backends import token_cache_key
from common.counted_read import read_counting
from tests.conftest import redis_caches

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_rate(monkeypatch):
    # DRF reads the rates once, at import (as tests/hardening/test_abuse.py).
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min", "anon": "2/min"})
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"user": "3/min", "anon": "2/min"})


@pytest.fixture
def round_trips(monkeypatch):
    """What each round trip to Redis sent: one command, or a pipeline's commands."""
    sent: list[list[tuple]] = []
    command, execute = redis.Redis.execute_command, Pipeline.execute

    def one_command(self, *args, **options):
        sent.append([args])
        return command(self, *args, **options)

    def pipeline(self, *args, **kwargs):
        sent.append([queued[0] for queued in self.command_stack])
        return execute(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "execute_command", one_command)
    monkeypatch.setattr(Pipeline, "execute", pipeline)
    return sent


def naming(trip: list[tuple], fragment: str) -> bool:
    return any(fragment in str(part) for args in trip for part in args)


def token_client(user) -> tuple[APIClient, str]:
    key = Token.objects.create(user=user).key
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api, key


def test_a_token_seen_before_counts_its_request_in_the_round_trip_that_reads_it(
    redis_cache, round_trips, player
):
    api, key = token_client(player)
    assert api.get("/api/campaigns/").status_code == 200  # this process learns whose it is
    assert api.get("/api/campaigns/").status_code == 200  # Redis learns the script (its first)
    round_trips.clear()
    assert api.get("/api/campaigns/").status_code == 200
    counter = f"throttle-count_user_{player.pk}"
    with_counter = [trip for trip in round_trips if naming(trip, counter)]
    assert len(with_counter) == 1
    assert naming(with_counter[0], token_cache_key(key)) and naming(with_counter[0], "auth-user:")
    assert cache.get(counter) == 3


def test_the_rate_still_holds_when_counted_with_the_read(redis_cache, low_rate, player):
    api, _ = token_client(player)
    assert [api.get("/api/campaigns/").status_code for _ in range(3)] == [200] * 3
    refused = api.get("/api/campaigns/")
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Trop de requêtes : réessayez dans ")
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert cache.get(f"throttle-count_user_{player.pk}") == 4


def test_a_window_opened_with_the_read_closes_at_the_end_of_its_period(
    redis_cache, low_rate, player
):
    api, _ = token_client(player)
    assert api.get("/api/campaigns/").status_code == 200
    counter = f"throttle-count_user_{player.pk}"
    cache.delete_many([counter, f"{counter}:since"])  # the window closed: the next one opens
    assert api.get("/api/campaigns/").status_code == 200
    assert cache.get(counter) == 1
    assert 0 < cache.ttl(counter) <= 60 and 0 < cache.ttl(f"{counter}:since") <= 60


def test_a_cache_that_does_not_answer_reads_as_a_miss_and_counts_nothing():
    with override_settings(CACHES=redis_caches("redis://127.0.0.1:9/0")):
        assert read_counting(["auth-user:1"], {"throttle-count_user_1": (60, 0.0)}) == ({}, {})


def test_the_local_memory_cache_leaves_the_count_to_the_throttle():
    cache.set("auth-user:1", "kept")
    assert read_counting(["auth-user:1"], {"throttle-count_user_1": (60, 0.0)}) == (
        {"auth-user:1": "kept"},
        {},
    )


def test_a_redis_that_forgot_the_script_is_taught_it_again(redis_cache):
    redis_cache.script_flush()  # as after Redis restarts
    counter = "throttle-count_user_7"
    cache.set("auth-user:7", "kept")
    assert read_counting(["auth-user:7", "absent"], {counter: (60, 0.0)}) == (
        {"auth-user:7": "kept"},
        {counter: 1},
    )
    assert read_counting(["auth-user:7"], {counter: (60, 0.0)})[1] == {counter: 2}
