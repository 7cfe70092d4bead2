"""A REST client gets its token through the API (issue 12 §9): username and password in, token
out; it works on every route, revokes itself, and the login lockout and a throttle guard it."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

URL = "/api/auth/token/"
GOOD = {"username": "aelis", "password": "correct-horse-battery"}


@pytest.fixture
def aelis(make_user):
    return make_user("aelis")


def test_a_client_gets_a_token_and_uses_it(aelis):
    response = APIClient().post(URL, GOOD, format="json")
    assert response.status_code == 200, response.content
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/campaigns/").status_code == 200
    # Asked again, the same token (a second tool does not revoke the first one's).
    assert APIClient().post(URL, GOOD, format="json").json()["token"] == token


def test_a_wrong_password_is_a_french_400_and_no_token(aelis):
    response = APIClient().post(URL, {**GOOD, "password": "faux"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "Nom d'utilisateur ou mot de passe incorrect."
    assert not Token.objects.exists()


def test_the_token_revokes_itself(aelis):
    token = APIClient().post(URL, GOOD, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.delete(URL).status_code == 204
    response = client.get("/api/campaigns/")
    assert response.status_code == 401


def test_repeated_failures_lock_the_pair_out_with_json_and_retry_after(aelis, settings):
    client = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(URL, {**GOOD, "password": "faux"}, format="json")
    response = client.post(URL, GOOD, format="json")  # even the right password, now
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    assert "Trop d'échecs" in response.json()["detail"]
    assert int(response["Retry-After"]) > 0


def test_the_address_is_throttled_whatever_the_usernames(aelis):
    client = APIClient()
    statuses = [
        client.post(URL, {"username": f"u{i}", "password": "x"}, format="json").status_code
        for i in range(12)
    ]
    assert statuses[:10] == [400] * 10 and statuses[-1] == 429
