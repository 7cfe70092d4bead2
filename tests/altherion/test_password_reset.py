"""A forgotten password (issue 16 §19): a French mail with a link that works once, the same page
for an unknown address, the login's lockout untouched; and the login's fields marked invalid when
it fails (§16)."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.altherion.test_french_pages import choice_keys, offending_words, walk

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "une-autre-phrase-longue-31"


@pytest.fixture
def player_with_email(player):
    player.email = "aelis@example.org"
    player.save(update_fields=["email"])
    return player


def without_csrf(page: bytes) -> str:
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", page.decode())


def reset_link(message) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_the_login_page_offers_a_reset(client):
    body = client.get(reverse("login")).content.decode()
    assert f'<a href="{reverse("password_reset")}">Mot de passe oublié ?</a>' in body


def test_a_reset_mail_in_french_carries_a_link_and_the_new_password_logs_in(
    client, player_with_email
):
    response = client.post(reverse("password_reset"), {"email": "Aelis@Example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["aelis@example.org"]
    assert message.subject == "Altherion : choisir un nouveau mot de passe"
    assert "Bonjour aelis," in message.body and "expire dans 3 jours" in message.body

    page = client.get(reset_link(message), follow=True)
    assert "Choisissez le nouveau mot de passe du compte" in page.content.decode()
    form_url = page.redirect_chain[-1][0]
    done = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done["Location"] == reverse("password_reset_complete")

    fresh = Client()
    login = fresh.post(reverse("login"), {"username": "aelis", "password": NEW_PASSWORD})
    assert login.status_code == 302
    assert "Bonjour, aelis" in fresh.get(reverse("home")).content.decode()


def test_a_reset_link_works_once(client, player_with_email):
    client.post(reverse("password_reset"), {"email": "aelis@example.org"})
    link = reset_link(mail.outbox[0])
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    again = Client().get(link, follow=True).content.decode()
    assert "Ce lien n&#x27;est plus valable" in again or "Ce lien n'est plus valable" in again


def test_an_unknown_address_sends_nothing_but_shows_the_same_page(client, player_with_email):
    known = client.post(reverse("password_reset"), {"email": "aelis@example.org"}, follow=True)
    mail.outbox.clear()
    unknown = client.post(reverse("password_reset"), {"email": "personne@example.org"}, follow=True)
    assert mail.outbox == []
    assert unknown.redirect_chain == known.redirect_chain
    assert without_csrf(unknown.content) == without_csrf(known.content)
    assert "Si un compte utilise cette adresse" in unknown.content.decode()


def test_a_reset_leaves_the_login_lockout_in_place(client, player_with_email, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "aelis", "password": "faux"})
    client.post(reverse("password_reset"), {"email": "aelis@example.org"})
    form_url = client.get(reset_link(mail.outbox[0]), follow=True).redirect_chain[-1][0]
    client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    locked = client.post(reverse("login"), {"username": "aelis", "password": NEW_PASSWORD})
    assert locked.status_code == 429
    assert "Mot de passe oublié ?" in locked.content.decode()


def test_a_failed_login_marks_both_fields_invalid(client, player):
    first = client.get(reverse("login")).content.decode()
    assert "aria-invalid" not in first
    refused = client.post(reverse("login"), {"username": "aelis", "password": "faux"})
    body = refused.content.decode()
    assert re.search(r'<input[^>]*name="username"[^>]*aria-invalid="true"', body)
    assert re.search(r'<input[^>]*name="password"[^>]*aria-invalid="true"', body)


def test_the_reset_pages_speak_french(client, player_with_email):
    assert walk(client, reverse("password_reset")) == {}
    client.post(reverse("password_reset"), {"email": "aelis@example.org"})
    keys = choice_keys()
    confirm = client.get(reset_link(mail.outbox[0]), follow=True).content.decode()
    assert offending_words(re.sub(r"<[^>]+>", " ", confirm), keys) == set()
    refused = client.post(
        client.get(reset_link(mail.outbox[0]), follow=True).redirect_chain[-1][0],
        {"new_password1": "court", "new_password2": "court"},
    )
    assert "Ce mot de passe est trop court" in refused.content.decode()
    assert offending_words(re.sub(r"https?://\S+", "", mail.outbox[0].body), keys) == set()


# --- the same mail path sends invitations -----------------------------------------------------


def test_an_invitation_can_be_mailed_with_its_link(client, storyteller, campaign):
    client.force_login(storyteller)
    url = reverse("campaigns:invitation_create", args=[campaign.pk])
    response = client.post(url, {"days": 7, "max_uses": 1, "email": "morgane@example.org"})
    assert response["Location"] == reverse("campaigns:invitations", args=[campaign.pk])
    [message] = mail.outbox
    assert message.to == ["morgane@example.org"]
    assert message.subject == "Altherion : invitation à la campagne « Les Brumes d'Emeshar »"
    invitation = campaign.invitations.get()
    assert f"http://testserver/join/{invitation.token}/" in message.body
    page = client.get(response["Location"]).content.decode()
    assert "Lien d&#x27;invitation créé et envoyé à morgane@example.org." in page


def test_an_htmx_invitation_with_an_address_reloads_the_page_to_say_it_left(
    client, storyteller, campaign
):
    client.force_login(storyteller)
    url = reverse("campaigns:invitation_create", args=[campaign.pk])
    response = client.post(
        url,
        {"days": 7, "max_uses": 1, "email": "morgane@example.org"},
        headers={"HX-Request": "true"},
    )
    assert response["HX-Redirect"] == reverse("campaigns:invitations", args=[campaign.pk])
    assert len(mail.outbox) == 1


def test_an_invitation_without_an_address_sends_nothing(client, storyteller, campaign):
    client.force_login(storyteller)
    url = reverse("campaigns:invitation_create", args=[campaign.pk])
    response = client.post(
        url, {"days": 7, "max_uses": 1, "email": ""}, headers={"HX-Request": "true"}
    )
    assert (
        response.status_code == 200
        and 'class="entry invitation active"' in response.content.decode()
    )
    assert mail.outbox == []


def test_a_relay_that_fails_still_leaves_the_link_and_says_so(
    client, storyteller, campaign, monkeypatch
):
    def refuse(*args, **kwargs):
        raise ConnectionRefusedError

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    client.force_login(storyteller)
    url = reverse("campaigns:invitation_create", args=[campaign.pk])
    page = client.post(url, {"days": 7, "max_uses": 1, "email": "x@example.org"}, follow=True)
    assert campaign.invitations.count() == 1
    assert "n&#x27;a pas pu partir" in page.content.decode()


def test_a_mailbox_is_not_flooded_with_reset_mails(client, player_with_email):
    from altherion.account_forms import RESET_MAILS_PER_HOUR

    pages = [
        client.post(reverse("password_reset"), {"email": "aelis@example.org"}, follow=True)
        for _ in range(RESET_MAILS_PER_HOUR + 2)
    ]
    assert len(mail.outbox) == RESET_MAILS_PER_HOUR
    assert "Si un compte utilise cette adresse" in pages[-1].content.decode()


def test_a_failing_relay_shows_the_same_page(client, player_with_email, monkeypatch):
    def refuse(*args, **kwargs):
        raise ConnectionRefusedError

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    page = client.post(reverse("password_reset"), {"email": "aelis@example.org"}, follow=True)
    assert page.status_code == 200
    assert "Si un compte utilise cette adresse" in page.content.decode()
