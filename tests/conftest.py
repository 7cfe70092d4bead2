"""Shared fixtures: personas, and the real services (PostgreSQL, Redis, a Celery worker, Chromium).

A test that needs a service asks for its fixture. Where the service is missing the test skips with
the reason, unless REQUIRE_SERVICES=1 (set by .ci/run), where it fails instead.
"""

import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.db import connection

from altherion.celery import app as celery_app

BASE_DIR = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_configure(config: pytest.Config) -> None:
    # Tests speak plain HTTP to localhost and never run collectstatic.
    settings.SECURE_SSL_REDIRECT = False
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # Tasks run in-process unless a test asks for a real worker.
    celery_app.conf.task_always_eager = True


def services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES") == "1"


def service_missing(reason: str) -> None:
    """Skip (visibly) outside CI; fail in CI, where every service must be there."""
    if services_required():
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The API's throttles count requests in the cache, and fragments are kept there under keys
    naming row ids: each test starts with an empty cache (another test's database reused ids)."""
    from django.core.cache import cache

    cache.clear()


# --- personas -------------------------------------------------------------------------------


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, password: str = "correct-horse-battery"):
        return django_user_model.objects.create_user(username=username, password=password)

    return make


@pytest.fixture
def storyteller(make_user):
    return make_user("conteur")


@pytest.fixture
def player(make_user):
    return make_user("aelis")


@pytest.fixture
def other_player(make_user):
    return make_user("brann")


@pytest.fixture
def outsider(make_user):
    return make_user("intrus")


# --- real services --------------------------------------------------------------------------


@pytest.fixture
def postgres(transactional_db):
    """The test database, which must be PostgreSQL (committed rows, visible to other processes)."""
    if connection.vendor != "postgresql":
        service_missing("PostgreSQL is not configured (set DATABASE_URL=postgres://…)")
    return connection


@pytest.fixture
def redis_broker():
    if not settings.CELERY_BROKER_URL:
        service_missing("no Celery broker is configured (set CELERY_BROKER_URL=redis://…)")
    from common.health import broker_answers

    if not broker_answers():
        service_missing(f"the broker at {settings.CELERY_BROKER_URL} does not answer")
    return settings.CELERY_BROKER_URL


def database_url_for_tests() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}"
    )


@pytest.fixture
def celery_worker(postgres, redis_broker):
    """A real `celery worker` process on the test database and broker; tasks go through Redis."""
    celery_app.control.purge()
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for_tests(),
        "CELERY_BROKER_URL": redis_broker,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "0",
        "CONN_MAX_AGE": "0",
    }
    name = f"test-{uuid.uuid4().hex[:8]}@%h"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "altherion",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "-n",
            name,
        ],
        cwd=BASE_DIR,
        env=env,
    )
    celery_app.conf.task_always_eager = False
    try:
        deadline = time.monotonic() + 30
        while not celery_app.control.ping(timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the Celery worker did not start")
        yield process
    finally:
        celery_app.conf.task_always_eager = True
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        service_missing(f"Chromium is not installed at {CHROMIUM}")
    # Playwright's sync API runs an event loop in this thread; the ORM calls made by tests and the
    # live server stay synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@dataclass(frozen=True)
class WebServer:
    """A running bin/web: `url` like pytest-django's live_server's, its output in `log`."""

    url: str
    log: Path

    def __str__(self) -> str:
        return self.url


@pytest.fixture(scope="session")
def web_server(django_db_setup, tmp_path_factory):
    """bin/web, the production web tier (two uvicorn workers, DEBUG off), on the test database
    and Redis, for the whole session. Its tests also ask for `transactional_db`: it sees only
    committed rows."""
    from common.health import broker_answers
    from tests import web_tier
    from tests.altherion.test_deploy import free_port, server_environment

    if connection.vendor != "postgresql":
        service_missing("PostgreSQL is not configured (set DATABASE_URL=postgres://…)")
    broker = settings.CELERY_BROKER_URL
    if not broker.startswith("redis://"):
        service_missing("no Redis is configured (set CELERY_BROKER_URL=redis://…)")
    if not broker_answers():
        service_missing(f"Redis at {broker} does not answer")

    folder = tmp_path_factory.mktemp("web_server")
    port = free_port()
    env = server_environment(
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="2",
        DATABASE_URL=database_url_for_tests(),
        # The push channel; Redis' pub/sub ignores the database number, so any one will do.
        REDIS_URL=urlsplit(broker)._replace(path="/12").geturl(),
        SECRET_KEY=settings.SECRET_KEY,
        DEBUG="0",
        HTTPS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # A connection per request, as celery_worker's: none stays open on the test database.
        CONN_MAX_AGE="0",
        # DEBUG off serves the manifest's hashed names: collectstatic's, into the test's folder.
        STATIC_ROOT=str(folder / "static"),
    )
    web_tier.collect_static(env)
    log = folder / "web.log"
    process = web_tier.start({**env, "PY": sys.executable}, log)
    try:
        web_tier.wait_until_healthy(process, port, log)
        yield WebServer(url=f"http://127.0.0.1:{port}", log=log)
    finally:
        web_tier.stop(process)


@pytest.fixture
def new_page(browser, live_server):
    """Open pages in fresh browser contexts (separate cookies), all closed after the test."""
    contexts = []

    def open_page():
        context = browser.new_context(base_url=live_server.url, locale="fr-FR")
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def campaign(storyteller, player, other_player):
    """A campaign run by `storyteller`, with `player` and `other_player` as its players."""
    from campaigns.models import Membership, Role
    from campaigns.services import campaign_create

    campaign = campaign_create(creator=storyteller, name="Les Brumes d'Emeshar")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign, user=other_player, role=Role.PLAYER)
    return campaign


@pytest.fixture
def empty_cache():
    """The shared cache emptied before and after the test (the render caches' tests)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def redis_caches(url: str) -> dict:
    """CACHES naming one django-redis cache at `url`, with the project's options."""
    options = {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1, "IGNORE_EXCEPTIONS": True}
    return {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "OPTIONS": options,
        }
    }


@pytest.fixture
def redis_cache(redis_broker):
    """The default cache on Redis (db 14 of the broker's server), emptied before and after; the
    test gets a raw client of that database."""
    import redis
    from django.core.cache import cache
    from django.test import override_settings

    url = redis_broker.rsplit("/", 1)[0] + "/14"
    with override_settings(CACHES=redis_caches(url)):
        cache.clear()
        yield redis.Redis.from_url(url)
        cache.clear()
