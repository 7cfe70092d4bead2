"""bin/web, the production web tier: gunicorn's master and its uvicorn workers, started from the
environment, healthy, and gone — master and workers — soon after a SIGTERM."""

import json
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests import web_tier
from tests.altherion.test_deploy import free_port, http_get, server_environment
from tests.conftest import database_url_for_tests

STOP_WITHIN = 15  # seconds: the graceful timeout (10) and some room


def _embedded_environment(tmp_path, port: int, **variables: str) -> dict[str, str]:
    """The embedded mode with DEBUG off: SQLite and the secret key in a folder of the test's own
    (/healthz needs no table, so nothing is migrated)."""
    return server_environment(
        HOST="127.0.0.1",
        PORT=str(port),
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        VAR_DIR=str(tmp_path / "var"),
        **variables,
    )


def _workers(master: int, expected: int) -> set[int]:
    """The master's children, once `expected` of them have booted (or what there is after 20 s)."""
    deadline = time.monotonic() + 20
    while len(workers := web_tier.children(master)) < expected and time.monotonic() < deadline:
        time.sleep(0.1)
    return workers


def _assert_stops_on_sigterm(process, log) -> None:
    pids = web_tier.group(process.pid)
    started = time.monotonic()
    process.terminate()
    process.wait(timeout=STOP_WITHIN)
    while web_tier.living(pids) and time.monotonic() - started < STOP_WITHIN:
        time.sleep(0.1)
    assert not web_tier.living(pids), log.read_text()
    assert not web_tier.living(web_tier.group(process.pid)), log.read_text()


@pytest.mark.parametrize(
    ("variables", "workers"),
    [
        # Without Redis the push hub lives in one process: one worker.
        ({}, 1),
        ({"WEB_CONCURRENCY": "2"}, 2),
    ],
    ids=["embedded-default", "web-concurrency-2"],
)
def test_bin_web_serves_the_embedded_mode_and_stops_whole_on_sigterm(tmp_path, variables, workers):
    port = free_port()
    log = tmp_path / "web.log"
    process = web_tier.start(_embedded_environment(tmp_path, port, **variables), log)
    try:
        web_tier.wait_until_healthy(process, port, log)
        health = http_get(port, "/healthz")
        booted = _workers(process.pid, workers)
        _assert_stops_on_sigterm(process, log)
    finally:
        web_tier.stop(process)

    assert json.loads(health.body) == {"status": "ok", "database": "ok", "broker": "embedded"}
    # uvicorn answers: the ASGI application, not gunicorn's WSGI workers.
    assert health.getheader("Server") == "uvicorn"
    assert len(booted) == workers, log.read_text()
    output = log.read_text()
    assert "uvicorn_worker.UvicornWorker" in output
    assert f"Listening at: http://127.0.0.1:{port}" in output
    # No access log unless ACCESS_LOG=1.
    assert "GET /healthz" not in output


@pytest.mark.services
def test_bin_web_runs_two_workers_by_default_with_redis_and_logs_access_when_asked(
    tmp_path, redis_broker
):
    port = free_port()
    log = tmp_path / "web.log"
    push = urlsplit(redis_broker)._replace(path="/13").geturl()
    env = _embedded_environment(tmp_path, port, REDIS_URL=push, ACCESS_LOG="1")
    process = web_tier.start(env, log)
    try:
        web_tier.wait_until_healthy(process, port, log)
        booted = _workers(process.pid, 2)
        _assert_stops_on_sigterm(process, log)
    finally:
        web_tier.stop(process)

    assert len(booted) == 2, log.read_text()
    assert "GET /healthz HTTP/1.1" in log.read_text()


def _connections(postgres, application: str) -> int:
    """Connections to the test database made under libpq's application name `application`."""
    with postgres.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [application],
        )
        return cursor.fetchone()[0]


@pytest.mark.services
def test_bin_web_keeps_no_postgresql_connection_after_its_requests(postgres, tmp_path):
    """Under ASGI each request runs in a thread of its own: a connection kept for CONN_MAX_AGE
    would stay open behind it, one per request, until the garbage collector finds it. bin/web
    closes each at the end of its request (CONN_MAX_AGE=0 unless set)."""
    port = free_port()
    log = tmp_path / "web.log"
    application = f"bin-web-{port}"
    env = server_environment(
        HOST="127.0.0.1",
        PORT=str(port),
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url_for_tests(),
        SECRET_KEY=settings.SECRET_KEY,
        WEB_CONCURRENCY="1",
        # libpq names the server's connections: other processes' (a live server's) are not counted.
        PGAPPNAME=application,
    )
    process = web_tier.start(env, log)
    try:
        web_tier.wait_until_healthy(process, port, log)
        with ThreadPoolExecutor(max_workers=10) as pool:
            answers = list(pool.map(lambda _: http_get(port, "/healthz").status, range(40)))
        deadline = time.monotonic() + 5
        while (left := _connections(postgres, application)) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        web_tier.stop(process)

    assert answers == [200] * 40, log.read_text()
    assert left == 0
