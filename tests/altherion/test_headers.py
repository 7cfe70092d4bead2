"""Always French whatever the browser asks (issue 16 §15), private answers for signed-in pages and
the API, and a Permissions-Policy on every response (§18)."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db

ENGLISH_BROWSER = {"Accept-Language": "en-US,en;q=0.9"}


def test_an_english_browser_still_gets_french_pages_and_messages(client):
    page = client.get(reverse("signup"), headers=ENGLISH_BROWSER)
    body = page.content.decode()
    assert '<html lang="fr">' in body
    assert "Votre mot de passe" in body and "Your password" not in body
    refused = client.post(
        reverse("signup"),
        {"username": "morgane", "password1": "court", "password2": "court"},
        headers=ENGLISH_BROWSER,
    ).content.decode()
    assert "Ce mot de passe est trop court" in refused and "too short" not in refused
    assert page["Content-Language"] == "fr"


def test_signed_in_pages_are_private_and_never_stored(client, player):
    client.force_login(player)
    for name in ("home", "profile", "progression:notifications"):
        cache_control = client.get(reverse(name))["Cache-Control"]
        assert "private" in cache_control and "no-store" in cache_control, name


def test_the_api_is_private_and_never_stored_with_a_token_too(client, player):
    token = Token.objects.create(user=player)
    response = client.get("/api/campaigns/", headers={"Authorization": f"Token {token.key}"})
    assert response.status_code == 200
    assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
    anonymous = client.get("/api/campaigns/")
    assert "no-store" in anonymous["Cache-Control"]


def test_an_anonymous_page_may_be_cached_but_every_answer_has_a_permissions_policy(client):
    response = client.get(reverse("home"))
    assert "no-store" not in response.get("Cache-Control", "")
    policy = response["Permissions-Policy"]
    assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy
