"""A connection PostgreSQL ended (a restart) is replaced at the next request (CONN_HEALTH_CHECKS),
and a page says 503 with Retry-After while PostgreSQL is away (issue 12)."""

import socket
import time

import psycopg
import pytest
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.usefixtures("empty_cache")


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def end_session() -> int:
    """What `pg_ctl stop` does to each session: the worker's, ended from the server's side."""
    pid = backend_pid()
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            ended = other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
            if ended.fetchone() is None:
                break
            time.sleep(0.01)
    return pid


@pytest.fixture
def server_away(postgres, monkeypatch):
    """The worker's session ended and the database's address one where nothing answers, as while
    the server is stopped."""
    end_session()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setitem(connection.settings_dict, "HOST", "127.0.0.1")
    monkeypatch.setitem(connection.settings_dict, "PORT", str(port))
    yield
    monkeypatch.undo()
    connection.close()


def test_the_first_request_after_the_server_ended_the_session_is_answered(postgres, player):
    client = Client(raise_request_exception=False)
    client.force_login(player)
    pid = end_session()
    close_old_connections()  # what a server runs as each request starts (the test client skips it)
    assert client.get(reverse("campaigns:list")).status_code == 200
    assert backend_pid() != pid


def test_a_page_is_a_503_that_says_to_retry_while_the_server_is_away(postgres, player, request):
    client = Client(raise_request_exception=False)
    client.force_login(player)
    assert client.get(reverse("campaigns:list")).status_code == 200
    request.getfixturevalue("server_away")
    refused = client.get(reverse("campaigns:list"))
    assert refused.status_code == 503 and refused["Retry-After"].isdigit()
    assert "indisponible" in refused.content.decode()
