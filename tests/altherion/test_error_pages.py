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
