"""Issue 39 item 25 in the browser: the Conteur gives and removes Épuisement from the table's
panel (HTMX, the panel redrawn in place), at 1280 and 390 px; the sheet shows the new figure
and its regeneration line. SHOTS_DIR (default /tmp) keeps screenshots."""

import os

import pytest

from characters.models import Character
from tests.browser.test_combat import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("SHOTS_DIR", "/tmp")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_conteur_gives_and_removes_exhaustion_at_the_table(
    new_page, campaign, storyteller, player, width
):
    aelis = Character.objects.create(campaign=campaign, owner=player, name="Aelis", exaltation=3)
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "conteur")
    page.goto(f"/campaigns/{campaign.pk}/table/")
    panel = page.locator("#morale-panel")
    panel.get_by_role("button", name="Donner 1 Épuisement à Aelis").click()
    panel.locator('[data-track="exhaustion"]', has_text="1").wait_for(timeout=3000)
    page.locator("#roll-log").get_by_text("Aelis : Épuisement 1").first.wait_for(timeout=3000)
    page.screenshot(path=f"{SHOTS}/exhaustion-table-{width}.png", full_page=True)
    panel.get_by_role("button", name="Retirer 1 Épuisement à Aelis").click()
    panel.locator('[data-track="exhaustion"]', has_text="0").wait_for(timeout=3000)
    aelis.refresh_from_db()
    assert aelis.exhaustion == 0
    page.goto(f"/characters/{aelis.pk}/")
    assert "Régénération" in page.locator("#sec-gauges").inner_text()
    page.screenshot(path=f"{SHOTS}/exhaustion-sheet-{width}.png", full_page=True)
