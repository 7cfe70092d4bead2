"""Throttles count across processes (issue 12 §12): with REDIS_CACHE_URL set, N processes give a
client the configured rate, not N times it; with the cache down, requests still go through."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
ONE_PROCESS = """
import os, django
django.setup()
from django.test.utils import setup_test_environment
setup_test_environment()
from django.test import Client
client = Client()
print(sum(client.get("/api/nope/").status_code == 404 for _ in range(40)))
"""


def _run(code: str, **env) -> str:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "altherion.settings",
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "0",
        "HTTPS": "0",  # plain HTTP, as the test client speaks
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.fixture
def redis_cache_url(redis_broker):
    import redis

    url = redis_broker.rsplit("/", 1)[0] + "/14"
    redis.Redis.from_url(url).flushdb()
    yield url
    redis.Redis.from_url(url).flushdb()


def test_two_processes_share_one_anonymous_rate(redis_cache_url):
    """60 anonymous requests a minute per address (API_THROTTLE_ANON), two processes: 60 in all."""
    first = int(_run(ONE_PROCESS, REDIS_CACHE_URL=redis_cache_url))
    second = int(_run(ONE_PROCESS, REDIS_CACHE_URL=redis_cache_url))
    assert (first, first + second) == (40, 60)


def test_without_a_cache_url_each_process_counts_alone():
    """The embedded default: each process's memory (nothing shared, nothing to run)."""
    code = "import django; django.setup(); from django.conf import settings; "
    code += "print(settings.CACHES['default']['BACKEND'])"
    assert _run(code, REDIS_CACHE_URL="").endswith("LocMemCache")


def test_an_unreachable_cache_lets_requests_through():
    """Nothing listens on port 9: the throttles cannot count, and the API still answers."""
    assert int(_run(ONE_PROCESS, REDIS_CACHE_URL="redis://127.0.0.1:9/0")) == 40
