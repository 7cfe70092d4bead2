"""The webhook's section of the campaign's settings page: the Conteur sets, tests, turns back on
and removes it (with and without HTMX); a player never sees nor sets it; an address is checked."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import webhooks
from campaigns.models import Webhook

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
DISCORD = "https://discord.com/api/webhooks/123/secret-token"


def url(name, campaign):
    return reverse(f"campaigns:{name}", args=[campaign.pk])


def test_the_conteur_sets_the_hook_and_sees_its_address(storyteller_client, campaign):
    response = storyteller_client.post(url("webhook_save", campaign), {"url": DISCORD})
    assert response.status_code == 302 and response["Location"] == url("settings", campaign)
    page = storyteller_client.get(url("settings", campaign)).content.decode()
    assert DISCORD in page and "Actif" in page and "Envoyer un test" in page
    assert Webhook.objects.get(campaign=campaign).url == DISCORD


def test_with_htmx_the_section_comes_back_with_its_message(storyteller_client, campaign):
    response = storyteller_client.post(url("webhook_save", campaign), {"url": DISCORD}, **HX)
    body = response.content.decode()
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    assert body.lstrip().startswith('<section id="webhook"') and "Webhook enregistré." in body


@pytest.mark.parametrize("htmx", [False, True])
def test_a_bad_address_is_refused_in_french_and_nothing_is_saved(
    storyteller_client, campaign, htmx
):
    headers = HX if htmx else {}
    response = storyteller_client.post(
        url("webhook_save", campaign), {"url": "http://discord.com/api/webhooks/1/x"}, **headers
    )
    assert response.status_code == 200
    assert "L&#x27;adresse doit commencer par https://." in response.content.decode()
    assert not Webhook.objects.exists()


def test_test_enable_and_delete(
    storyteller_client, campaign, receiver, django_capture_on_commit_callbacks
):
    webhooks.webhook_save(campaign=campaign, url=receiver.url)
    Webhook.objects.update(enabled=False, failures=10)
    response = storyteller_client.post(url("webhook_test", campaign), **HX)
    assert "Le webhook est désactivé : réactivez-le d&#x27;abord." in response.content.decode()
    response = storyteller_client.post(url("webhook_enable", campaign), **HX)
    assert "Webhook réactivé." in response.content.decode()
    assert Webhook.objects.get().enabled
    with django_capture_on_commit_callbacks(execute=True):
        response = storyteller_client.post(url("webhook_test", campaign))
    assert response.status_code == 302
    [text] = receiver.wait_for(1)
    assert (
        text == "Test d'Altherion : le webhook de la campagne « Les Brumes d'Emeshar » fonctionne."
    )
    response = storyteller_client.post(url("webhook_delete", campaign))
    assert response.status_code == 302 and not Webhook.objects.exists()


def test_a_player_neither_sees_nor_sets_the_hook(player_client, outsider_client, campaign):
    webhooks.webhook_save(campaign=campaign, url=DISCORD)
    assert player_client.get(url("settings", campaign)).status_code == 403
    for name in ("webhook_save", "webhook_test", "webhook_enable", "webhook_delete"):
        response = player_client.post(url(name, campaign), {"url": "https://example.org/x"})
        assert response.status_code == 403
        assert DISCORD not in response.content.decode()
        assert outsider_client.post(url(name, campaign), {"url": "x"}).status_code == 404
    assert Webhook.objects.get().url == DISCORD


@pytest.mark.parametrize(
    "address",
    [
        "https://discord.com/api/webhooks/1/abc",
        "https://chat.example.org/hooks/table",
        "  https://discord.com/api/webhooks/1/abc  ",
    ],
)
def test_public_https_addresses_are_accepted(address):
    assert webhooks.webhook_url_check(address) == address.strip()


@pytest.mark.parametrize(
    "address",
    [
        "",
        "discord.com/api/webhooks/1/abc",
        "ftp://example.org/x",
        "http://example.org/x",
        "https://user:pass@example.org/x",
        "https://10.0.0.5/hook",
        "https://192.168.1.20/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[fd00::1]/hook",
        "https://redis/hook",
        "https://nas.local/hook",
        "https://[oops/hook",
        "https://exa mple.org/hook",
        "javascript:alert(1)",
    ],
)
def test_other_addresses_are_refused(address):
    with pytest.raises(ValidationError) as refused:
        webhooks.webhook_url_check(address)
    assert "url" in refused.value.message_dict


def test_this_machine_only_where_allowed(settings):
    assert webhooks.webhook_url_check("http://127.0.0.1:8001/hook")
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    for address in ("http://127.0.0.1:8001/hook", "https://localhost/hook", "http://[::1]/x"):
        with pytest.raises(ValidationError):
            webhooks.webhook_url_check(address)
