"""A read that the caches answer still says 503 while PostgreSQL is away (common/db_outage.py),
as every other request does (issue 12): the worker's idle connection is polled before what was
kept is served, and a session the server ended is opened again or the read fails."""

import socket
import time

import psycopg
import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from common import db_outage
from tests.character_fixtures import *  # noqa: F403 (fixtures: the sheet factories)

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
    while not db_outage._ended(connection.connection) and time.monotonic() < deadline:
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


def test_an_open_session_is_kept_without_a_query(postgres, django_assert_num_queries):
    pid = backend_pid()
    with django_assert_num_queries(0):
        db_outage.confirm_reachable()
    assert backend_pid() == pid


def test_a_session_the_server_ended_is_opened_again(postgres):
    pid = end_session()
    db_outage.confirm_reachable()
    assert backend_pid() != pid


def test_with_the_server_away_it_fails_as_a_query_would(server_away):
    with pytest.raises(OperationalError):
        db_outage.confirm_reachable()


def test_a_sheet_read_from_the_caches_is_a_503_while_the_server_is_away(
    postgres, player, character, request
):
    client = Client(raise_request_exception=False)
    client.force_login(player)
    url = reverse("characters:sheet", args=[character.pk])
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # now from the caches
    request.getfixturevalue("server_away")
    refused = client.get(url)
    assert refused.status_code == 503 and refused["Retry-After"].isdigit()
    assert "indisponible" in refused.content.decode()


def test_the_first_request_after_the_server_ended_the_session_is_answered(postgres, player):
    """No `SELECT 1` per request (CONN_HEALTH_CHECKS): the ended connection is noticed on its
    socket when the request starts, and the request opens another."""
    client = Client(raise_request_exception=False)
    client.force_login(player)
    pid = end_session()
    assert client.get(reverse("campaigns:list")).status_code == 200
    assert backend_pid() != pid


def test_a_request_polls_its_connection_once_however_many_kept_reads_it_serves(
    postgres, player, character, monkeypatch
):
    """A read from the caches right after the request's start, on a connection seen open
    then, is not polled again (a roll serves two kept entries)."""
    client = Client(raise_request_exception=False)
    client.force_login(player)
    url = reverse("characters:sheet", args=[character.pk])
    assert client.get(url).status_code == 200
    polls = []
    ended = db_outage._ended
    monkeypatch.setattr(db_outage, "_ended", lambda raw: polls.append(raw) or ended(raw))
    assert client.get(url).status_code == 200  # from the caches
    assert len(polls) == 1
    db_outage.confirm_reachable()  # outside a request: polled again
    assert len(polls) == 2
