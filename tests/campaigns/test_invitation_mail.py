"""An invitation's link mailed to a player, from the invitations page and through the API, by
one service (`campaigns.services.invitation_mail`); a relay that refuses it loses nothing: the
link exists and the Conteur is told to send it by hand."""

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.models import Invitation

pytestmark = pytest.mark.django_db


@pytest.fixture
def relay_down(monkeypatch):
    def refuse(**kwargs):
        raise ConnectionRefusedError("relay down")

    monkeypatch.setattr("campaigns.services.mail_send", refuse)


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_page_mails_the_link_and_says_so(storyteller_client, campaign):
    url = reverse("campaigns:invitation_create", args=[campaign.pk])
    body = {"days": 7, "max_uses": 1, "email": "brann@example.org"}
    page = storyteller_client.post(url, body, follow=True).content.decode()
    invitation = Invitation.objects.get()
    assert "Lien d&#x27;invitation créé et envoyé à brann@example.org." in page
    assert [m.to for m in mail.outbox] == [["brann@example.org"]]
    assert f"/join/{invitation.token}/" in mail.outbox[0].body
    assert mail.outbox[0].body.count("http://testserver/") >= 1


def test_a_refused_mail_keeps_the_link_and_asks_to_send_it_by_hand(
    storyteller_client, campaign, relay_down
):
    url = reverse("campaigns:invitation_create", args=[campaign.pk])
    body = {"days": 7, "max_uses": 1, "email": "brann@example.org"}
    page = storyteller_client.post(url, body, follow=True).content.decode()
    assert Invitation.objects.count() == 1
    assert "n&#x27;a pas pu partir : copiez le lien" in page


def test_the_api_mails_the_link_and_says_whether_it_left(
    campaign, storyteller, player, relay_down, monkeypatch
):
    url = f"/api/campaigns/{campaign.pk}/invitations/"
    refused = api(storyteller).post(url, {"email": "brann@example.org"}, format="json")
    assert refused.status_code == 201 and refused.json()["mailed"] is False
    monkeypatch.undo()
    sent = api(storyteller).post(url, {"email": "brann@example.org"}, format="json")
    assert sent.status_code == 201 and sent.json()["mailed"] is True
    assert f"/join/{sent.json()['token']}/" in mail.outbox[0].body
    plain = api(storyteller).post(url, {}, format="json")
    assert plain.json()["mailed"] is None and len(mail.outbox) == 1
    bad = api(storyteller).post(url, {"email": "pas une adresse"}, format="json")
    assert bad.status_code == 400 and Invitation.objects.count() == 3
    assert api(player).post(url, {"email": "x@example.org"}, format="json").status_code == 403
    assert len(mail.outbox) == 1
