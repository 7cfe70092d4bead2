"""The profile page: create a personal API token, see it once, regenerate or revoke it."""

import re

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


def shown_key(response) -> str:
    match = re.search(r'id="new-api-token"[^>]*value="([0-9a-f]{40})"', response.content.decode())
    return match.group(1) if match else ""


def api_status(key: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get(reverse("campaigns_api:campaign-list")).status_code


def test_the_profile_needs_a_signed_in_user(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_nav_links_to_the_profile(signed_in):
    body = signed_in.get(reverse("home")).content.decode()
    assert f'href="{reverse("profile")}"' in body


def test_without_a_token_the_page_says_so_and_offers_one(signed_in):
    body = signed_in.get(reverse("profile")).content.decode()
    assert "Vous n'avez pas de jeton d'API" in body
    assert f'action="{reverse("profile_token_create")}"' in body


def test_creating_a_token_shows_it_once_and_it_works(signed_in, player):
    response = signed_in.post(reverse("profile_token_create"))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    key = shown_key(response)
    assert key == Token.objects.get(user=player).key
    assert api_status(key) == 200

    later = signed_in.get(reverse("profile")).content.decode()
    assert key not in later
    assert f"<code>{key[:6]}…</code>" in later
    assert "Régénérer…" in later and "Révoquer…" in later


def test_creating_twice_keeps_the_first_token(signed_in, player):
    first = shown_key(signed_in.post(reverse("profile_token_create")))
    response = signed_in.post(reverse("profile_token_create"), follow=True)
    assert "Vous avez déjà un jeton" in response.content.decode()
    assert shown_key(response) == ""
    assert Token.objects.get(user=player).key == first


def test_regenerating_asks_first_then_replaces_the_key(signed_in, player):
    old = Token.objects.create(user=player).key
    confirm = signed_in.get(reverse("profile_token_regenerate"))
    assert "Régénérer votre jeton ?" in confirm.content.decode()
    assert Token.objects.get(user=player).key == old  # asking changes nothing

    response = signed_in.post(reverse("profile_token_regenerate"))
    new = shown_key(response)
    assert new and new != old
    assert api_status(old) == 401
    assert api_status(new) == 200


def test_revoking_asks_first_then_the_key_stops_working(signed_in, player):
    key = Token.objects.create(user=player).key
    confirm = signed_in.get(reverse("profile_token_revoke")).content.decode()
    assert "Révoquer votre jeton ?" in confirm
    assert api_status(key) == 200

    response = signed_in.post(reverse("profile_token_revoke"), follow=True)
    assert "Jeton révoqué" in response.content.decode()
    assert not Token.objects.filter(user=player).exists()
    assert api_status(key) == 401


def test_token_actions_refuse_get_where_they_change_things(signed_in):
    assert signed_in.get(reverse("profile_token_create")).status_code == 405


def test_one_users_token_is_not_anothers(client, player, other_player):
    theirs = Token.objects.create(user=other_player)
    client.force_login(player)
    body = client.get(reverse("profile")).content.decode()
    assert theirs.key[:6] not in body
    client.post(reverse("profile_token_revoke"))
    assert Token.objects.filter(pk=theirs.pk).exists()
