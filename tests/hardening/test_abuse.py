"""Abuse: login brute force is locked out, the API is throttled, oversized input is refused."""

import json

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from campaigns.models import Arc, Campaign

PASSWORD = "correct-horse-battery"
LOGIN = "/accounts/login/"


def _text(response) -> str:
    """The response's text with non-breaking spaces made plain (French typography)."""
    return response.content.decode().replace("\u202f", " ").replace("\xa0", " ")


def _login(client, username, password, ip="203.0.113.7"):
    return client.post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip, follow=False
    )


# --- login lockout --------------------------------------------------------------------------


@pytest.mark.django_db
def test_five_failures_lock_the_account_from_that_address_even_for_the_right_password(
    client, player
):
    for _ in range(4):
        response = _login(client, "aelis", "wrong")
        assert response.status_code == 200  # the form again, with its error
        assert "Saisissez un nom d" in response.content.decode()
    # The fifth failure reaches the limit: the lockout page instead of the form.
    response = _login(client, "aelis", "wrong")
    assert response.status_code == 429
    # Now even the right password is refused, with a French page and a wait.
    response = _login(client, "aelis", PASSWORD)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Connexion bloquée" in page
    assert "15 minutes" in page
    assert int(response["Retry-After"]) == 15 * 60
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_lockout_is_per_username_and_address(client, player, other_player):
    for _ in range(5):
        _login(client, "aelis", "wrong")
    assert _login(client, "aelis", PASSWORD).status_code == 429
    # Another account from the same address, and the same account from elsewhere, still log in.
    from django.test import Client

    assert _login(Client(), "brann", PASSWORD).status_code == 302
    assert _login(Client(), "aelis", PASSWORD, ip="198.51.100.9").status_code == 302


@pytest.mark.django_db
def test_a_successful_login_clears_the_failures(client, player):
    from django.test import Client

    for _ in range(4):
        _login(client, "aelis", "wrong")
    assert _login(Client(), "aelis", PASSWORD).status_code == 302
    # The count starts over: four more failures do not lock the account.
    for _ in range(4):
        assert _login(client, "aelis", "wrong").status_code == 200
    assert _login(Client(), "aelis", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_lockout_expires_after_the_cool_off(client, player, settings):
    from datetime import timedelta

    from axes.models import AccessAttempt
    from django.utils import timezone

    for _ in range(5):
        _login(client, "aelis", "wrong")
    assert _login(client, "aelis", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert _login(client, "aelis", PASSWORD).status_code == 302


# --- API throttling -------------------------------------------------------------------------


@pytest.fixture
def low_rates(monkeypatch):
    # DRF reads the rates once, at import; the real ones are checked below.
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min", "anon": "2/min"})
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"user": "3/min", "anon": "2/min"})


def test_configured_rates_are_generous_for_play():
    from rest_framework.settings import api_settings

    assert api_settings.DEFAULT_THROTTLE_RATES == {
        "user": "600/min",
        "anon": "60/min",
        "auth-token": "10/min",
    }
    assert UserRateThrottle().num_requests == 600
    assert AnonRateThrottle().num_requests == 60


@pytest.mark.django_db
def test_a_user_over_the_rate_gets_429_in_french_with_retry_after(low_rates, player):
    api = APIClient()
    api.force_login(player)
    for _ in range(3):
        assert api.get("/api/campaigns/").status_code == 200
    response = api.get("/api/campaigns/")
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Trop de requêtes : réessayez dans ")
    assert 1 <= int(response["Retry-After"]) <= 60


@pytest.mark.django_db
def test_a_token_and_the_session_of_one_user_share_one_budget_other_users_do_not(
    low_rates, player, other_player
):
    session = APIClient()
    session.force_login(player)
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player).key}")
    assert session.get("/api/campaigns/").status_code == 200
    assert token.get("/api/campaigns/").status_code == 200
    assert session.get("/api/campaigns/").status_code == 200
    assert token.get("/api/campaigns/").status_code == 429
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other_player).key}")
    assert other.get("/api/campaigns/").status_code == 200


@pytest.mark.django_db
def test_retry_after_counts_down_to_when_the_oldest_request_leaves_the_minute(
    low_rates, player, monkeypatch
):
    clock = [1_000_000.0]
    monkeypatch.setattr(UserRateThrottle, "timer", staticmethod(lambda: clock[0]))
    api = APIClient()
    api.force_login(player)
    for _ in range(3):
        assert api.get("/api/campaigns/").status_code == 200
        clock[0] += 15
    response = api.get("/api/campaigns/")  # 45 s after the first: 15 s left in its minute
    assert response.status_code == 429
    assert response["Retry-After"] == "15"
    clock[0] += 15
    assert api.get("/api/campaigns/").status_code == 200


@pytest.mark.django_db
def test_anonymous_clients_are_throttled_per_address(low_rates, monkeypatch):
    # Most of the API refuses anonymous clients before counting them (401); the schema is open.
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"anon": "1/min"})
    api = APIClient()
    assert api.get("/api/schema/", REMOTE_ADDR="203.0.113.1").status_code == 200
    response = api.get("/api/schema/", REMOTE_ADDR="203.0.113.1")
    assert response.status_code == 429
    assert "Trop de requêtes" in response.content.decode()
    assert int(response["Retry-After"]) >= 1
    assert api.get("/api/campaigns/", REMOTE_ADDR="203.0.113.2").status_code == 401


# --- sizes ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_too_long_names_are_refused_in_french_by_forms_and_api(client, storyteller, campaign):
    client.force_login(storyteller)
    response = client.post(reverse("campaigns:create"), {"name": "x" * 121, "description": ""})
    assert response.status_code == 200
    assert "au plus 120 caractères" in _text(response)
    assert not Campaign.objects.filter(name="x" * 121).exists()

    response = client.post(
        reverse("campaigns:arc_create", args=[campaign.pk]),
        {"title": "Arc", "summary": "y" * 20_001, "length_unit": "days"},
    )
    assert response.status_code == 200
    assert "au plus 20000 caractères" in _text(response)
    assert not Arc.objects.exists()

    api = APIClient()
    api.force_login(storyteller)
    response = api.post("/api/campaigns/", {"name": "x" * 121}, format="json")
    assert response.status_code == 400
    assert "au plus 120 caractères" in _text(response)


@pytest.mark.django_db
def test_a_body_over_the_limit_is_refused_with_413_not_a_500(client, storyteller, settings):
    client.force_login(storyteller)
    big = "z" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)

    api = APIClient()
    api.force_login(storyteller)
    response = api.post(
        "/api/campaigns/",
        json.dumps({"name": "A", "description": big}),
        content_type="application/json",
    )
    assert response.status_code == 413
    assert response.json()["detail"].startswith("Requête trop volumineuse")
    assert not Campaign.objects.exists()

    response = client.post(reverse("campaigns:create"), {"name": "A", "description": big})
    assert response.status_code == 413
    assert "Requête trop volumineuse" in response.content.decode()
    assert not Campaign.objects.exists()


@pytest.mark.django_db
def test_too_many_form_fields_are_refused_not_a_500(client, storyteller, settings):
    client.force_login(storyteller)
    fields = {f"f{i}": "1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    response = client.post(reverse("campaigns:create"), {"name": "A", **fields})
    assert response.status_code in (400, 413)
    assert not Campaign.objects.exists()
