"""The webhook in the API: the Conteur reads, sets, tests, turns back on and removes it; a player
gets 403 and never its address, a non-member 404; a bad address is a 400 in French."""

import pytest
from rest_framework.test import APIClient

from campaigns import webhooks
from campaigns.models import Webhook

pytestmark = pytest.mark.django_db

DISCORD = "https://discord.com/api/webhooks/123/secret-token"


@pytest.fixture
def api_for():
    def make(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


def hook_url(campaign, action="") -> str:
    return f"/api/campaigns/{campaign.pk}/webhook/{action}"


def test_the_conteur_sets_reads_and_removes_the_hook(api_for, storyteller, campaign):
    conteur = api_for(storyteller)
    assert conteur.get(hook_url(campaign)).status_code == 404
    response = conteur.put(hook_url(campaign), {"url": DISCORD}, format="json")
    assert response.status_code == 200
    assert response.json() == {
        "url": DISCORD,
        "enabled": True,
        "failures": 0,
        "last_error": "",
        "last_error_at": None,
        "last_success_at": None,
        "disabled_at": None,
    }
    assert conteur.get(hook_url(campaign)).json()["url"] == DISCORD
    assert conteur.delete(hook_url(campaign)).status_code == 204
    assert not Webhook.objects.exists()


def test_a_bad_address_is_a_400_in_french(api_for, storyteller, campaign):
    response = api_for(storyteller).put(
        hook_url(campaign), {"url": "https://192.168.1.2/hook"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"]["url"] == ["Une adresse de réseau privé ne peut pas servir."]
    assert not Webhook.objects.exists()


def test_test_and_enable(
    api_for, storyteller, campaign, receiver, django_capture_on_commit_callbacks
):
    conteur = api_for(storyteller)
    assert conteur.post(hook_url(campaign, "test/")).status_code == 404  # no hook yet
    webhooks.webhook_save(campaign=campaign, url=receiver.url)
    Webhook.objects.update(enabled=False, failures=10, last_error="Le serveur a répondu 500.")
    assert conteur.post(hook_url(campaign, "test/")).status_code == 400
    response = conteur.post(hook_url(campaign, "enable/"))
    assert response.status_code == 200 and response.json()["enabled"] is True
    with django_capture_on_commit_callbacks(execute=True):
        assert conteur.post(hook_url(campaign, "test/")).status_code == 200
    assert receiver.wait_for(1)[0].startswith("Test d'Altherion")


def test_players_and_strangers_cannot_read_or_set_the_hook(api_for, player, outsider, campaign):
    webhooks.webhook_save(campaign=campaign, url=DISCORD)
    for user, status in ((player, 403), (outsider, 404)):
        client = api_for(user)
        for response in (
            client.get(hook_url(campaign)),
            client.put(hook_url(campaign), {"url": "https://example.org/x"}, format="json"),
            client.delete(hook_url(campaign)),
            client.post(hook_url(campaign, "test/")),
            client.post(hook_url(campaign, "enable/")),
        ):
            assert response.status_code == status
            assert DISCORD not in response.content.decode()
    assert Webhook.objects.get().url == DISCORD
    # Nor through the campaign itself.
    assert DISCORD not in api_for(player).get(f"/api/campaigns/{campaign.pk}/").content.decode()
