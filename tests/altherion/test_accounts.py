import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_signup_creates_the_account_and_signs_in(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {
            "username": "morgane",
            "password1": "une-phrase-longue-42",
            "password2": "une-phrase-longue-42",
        },
    )
    assert response.status_code == 302
    assert django_user_model.objects.filter(username="morgane").exists()
    home = client.get(reverse("home"))
    assert "Bonjour, morgane" in home.content.decode()


def test_signup_takes_an_optional_email_for_a_forgotten_password(client, django_user_model):
    """Issue 16 §19: the address a password reset needs can be given at sign-up."""
    page = client.get(reverse("signup")).content.decode()
    assert "Adresse e-mail (facultative)" in page
    passwords = {"password1": "une-phrase-longue-42", "password2": "une-phrase-longue-42"}
    client.post(reverse("signup"), {"username": "morgane", "email": "m@example.org", **passwords})
    assert django_user_model.objects.get(username="morgane").email == "m@example.org"
    client.logout()
    response = client.post(
        reverse("signup"), {"username": "ysolde", "email": "pas-une-adresse", **passwords}
    )
    assert "Saisissez une adresse e-mail valide." in response.content.decode()
    assert not django_user_model.objects.filter(username="ysolde").exists()


def test_signup_refuses_mismatched_passwords_in_french(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "morgane", "password1": "une-phrase-longue-42", "password2": "autre-chose-99"},
    )
    assert response.status_code == 200
    assert "Les deux mots de passe ne correspondent pas" in response.content.decode()
    assert not django_user_model.objects.filter(username="morgane").exists()


def test_login_page_is_in_french(client):
    response = client.get(reverse("login"))
    body = response.content.decode()
    assert '<html lang="fr">' in body
    assert "Nom d’utilisateur" in body or "Nom d'utilisateur" in body


def test_login_then_logout(client, player):
    response = client.post(
        reverse("login"), {"username": "aelis", "password": "correct-horse-battery"}
    )
    assert response.status_code == 302
    assert "Bonjour, aelis" in client.get(reverse("home")).content.decode()
    client.post(reverse("logout"))
    assert "Bonjour" not in client.get(reverse("home")).content.decode()


def test_wrong_password_is_refused(client, player):
    response = client.post(reverse("login"), {"username": "aelis", "password": "faux"})
    assert response.status_code == 200
    assert "Saisissez un nom d’utilisateur et un mot de passe valides" in response.content.decode()


def test_password_change_needs_login_and_works(client, player):
    assert client.get(reverse("password_change")).status_code == 302
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "correct-horse-battery",
            "new_password1": "nouvelle-phrase-secrete-7",
            "new_password2": "nouvelle-phrase-secrete-7",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("nouvelle-phrase-secrete-7")


def test_pages_carry_the_csrf_header_for_htmx_and_the_local_htmx_script(client, player):
    client.force_login(player)
    body = client.get(reverse("home")).content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in body
    assert "/static/django_htmx/htmx-2.min.js" in body
    assert "https://" not in body.split("<body")[0]  # nothing loaded from a CDN


def test_signup_returns_to_the_page_that_asked_for_it(client):
    response = client.post(
        reverse("signup") + "?next=/join/abc/",
        {
            "username": "morgane",
            "password1": "une-phrase-longue-42",
            "password2": "une-phrase-longue-42",
            "next": "/join/abc/",
        },
    )
    assert response["Location"] == "/join/abc/"


def test_signup_never_sends_to_another_site(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "morgane",
            "password1": "une-phrase-longue-42",
            "password2": "une-phrase-longue-42",
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == reverse("home")


def test_login_page_keeps_next_on_its_signup_link(client):
    body = client.get(reverse("login") + "?next=/join/abc/").content.decode()
    assert 'href="/accounts/signup/?next=/join/abc/"' in body
