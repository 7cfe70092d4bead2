"""The Conteur sets the campaign's webhook on the settings page (HTMX), sends a test to a local
receiver, and sees a hook disabled after failures — at 1280 and 390 px wide."""

import os

import pytest

from campaigns.models import Webhook
from campaigns.services import campaign_create
from tests.browser.test_campaigns import PASSWORD, log_in
from tests.campaigns.webhook_receiver import Receiver

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("ALTHERION_SHOTS", "")


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


@pytest.fixture
def local_receiver():
    receiver = Receiver()
    receiver.thread.start()
    yield receiver
    receiver.server.shutdown()
    receiver.server.server_close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_conteur_sets_tests_and_revives_the_webhook(new_page, make_user, local_receiver, width):
    conteur = make_user("morgane", PASSWORD)
    campaign = campaign_create(creator=conteur, name="La Marche grise")
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "morgane")
    page.goto(f"/campaigns/{campaign.pk}/settings/")
    page.get_by_role("heading", name="Webhook (Discord…)").wait_for()

    page.get_by_label("Adresse du webhook").fill(local_receiver.url)
    page.get_by_role("button", name="Enregistrer le webhook").click()
    page.get_by_text("Webhook enregistré.").wait_for()
    page.get_by_text("Actif", exact=True).wait_for()
    page.get_by_role("button", name="Envoyer un test").click()
    page.get_by_text("Message de test envoyé").wait_for()
    assert local_receiver.wait_for(1) == [
        "Test d'Altherion : le webhook de la campagne « La Marche grise » fonctionne."
    ]
    shot(page, f"webhook-active-{width}")

    # As the sweep of failures leaves it: disabled, with its last error.
    hook = Webhook.objects.get()
    Webhook.objects.filter(pk=hook.pk).update(
        enabled=False,
        failures=10,
        last_error="Le serveur a répondu 500.",
        last_error_at=hook.created_at,
        disabled_at=hook.created_at,
    )
    page.reload()
    page.get_by_text("Désactivé", exact=True).wait_for()
    page.get_by_text("Le serveur a répondu 500.").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"webhook-disabled-{width}")
    page.get_by_role("button", name="Réactiver").click()
    page.get_by_text("Webhook réactivé.").wait_for()
    assert Webhook.objects.get().enabled
