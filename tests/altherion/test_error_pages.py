import pytest
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_unknown_page_is_a_french_404(client):
    response = client.get("/nulle-part/")
    assert response.status_code == 404
    assert "Page introuvable" in response.content.decode()


def test_a_database_failure_shows_a_friendly_page_not_a_trace(monkeypatch, settings):
    settings.DEBUG = False

    def broken(*args, **kwargs):
        raise DatabaseError("connection lost")

    monkeypatch.setattr("altherion.views.render", broken)
    response = Client(raise_request_exception=False).get(reverse("home"))
    body = response.content.decode()
    assert response.status_code == 500
    assert "Un incident est survenu" in body
    assert "connection lost" not in body and "Traceback" not in body


def _database_gone(*args, **kwargs):
    from django.db import OperationalError

    raise OperationalError("server closed the connection unexpectedly")


def test_a_database_outage_is_a_503_page_that_says_to_retry(monkeypatch, settings, make_user):
    """Issue 12 §6: an outage is not a 500 — 503 with Retry-After, the French page for browsers."""
    settings.DEBUG = False
    monkeypatch.setattr("campaigns.selectors.memberships_for_user", _database_gone)
    client = Client(raise_request_exception=False)
    client.force_login(make_user("aelis"))
    response = client.get(reverse("campaigns:list"), HTTP_ACCEPT="text/html")
    body = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    assert "Service momentanément indisponible" in body and "server closed" not in body


def test_a_database_outage_on_the_api_is_a_json_503(monkeypatch, settings, make_user):
    settings.DEBUG = False
    monkeypatch.setattr("campaigns.selectors.memberships_for_user", _database_gone)
    client = Client(raise_request_exception=False)
    client.force_login(make_user("aelis"))
    response = client.get("/api/campaigns/", HTTP_ACCEPT="application/json")
    assert (response.status_code, response["Content-Type"]) == (503, "application/json")
    assert response["Retry-After"] == "10"
    assert "indisponible" in response.json()["detail"]


def test_another_api_failure_is_a_json_500(monkeypatch, settings, make_user):
    settings.DEBUG = False

    def broken(*args, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr("campaigns.selectors.memberships_for_user", broken)
    client = Client(raise_request_exception=False)
    client.force_login(make_user("aelis"))
    response = client.get("/api/campaigns/")
    assert (response.status_code, response["Content-Type"]) == (500, "application/json")
    assert "bug" not in response.json()["detail"]
