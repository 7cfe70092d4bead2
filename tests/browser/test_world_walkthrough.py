"""The world, as a Conteur and two players live it (issue 41, "Done when"): the Conteur writes a
town and its mayor with secrets, links the town from the séance journal, and at the table gives
one secret to Aelis. Aelis's open table shows it without a reload and keeps it in « Documents
remis »; Brann's does not; neither reads the secret the Conteur kept in the page, nor finds it by
searching. Screenshots at 1280 and 390 px under /tmp/shots/worldshare/, where axe finds nothing
and nothing is wider than the screen."""

from datetime import timedelta
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import expect

from sessions.models import PlaySession
from tests.browser.test_table import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/worldshare")
MAYOR = (
    "Maire de [[Vael]], toujours vêtu de noir.\n\n"
    ":::secret\nLe maire est un vampire.\n:::\n\n"
    ":::secret\nSa crypte est sous la chapelle.\n:::\n"
)


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(200)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        # Nothing wider than the screen (a long secret's label once widened the phone's page).
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        found = Axe().run(page).response["violations"]
        assert [v["id"] for v in found] == [], (name, width, found)
    page.set_viewport_size({"width": 1280, "height": 900})


def write_page(page, campaign, title: str, kind: str, body: str) -> None:
    page.goto(f"/campaigns/{campaign.pk}/monde/nouvelle/")
    page.get_by_label("Titre").fill(title)
    page.get_by_label("Genre").select_option(label=kind)
    page.get_by_label("Texte").fill(body)
    page.get_by_label("Tous les membres").check()
    page.get_by_role("button", name="Enregistrer").click()
    page.get_by_role("heading", name=title).wait_for()


def test_a_storyteller_builds_a_world_and_gives_a_secret_at_the_table(
    new_page, campaign, storyteller, player, other_player
):
    journal = PlaySession.objects.create(
        campaign=campaign, title="Arrivée à Vael", scheduled_at=timezone.now() - timedelta(days=1)
    )
    table = f"/campaigns/{campaign.pk}/table/"
    conteur = new_page()
    log_in(conteur, "conteur")
    write_page(conteur, campaign, "Vael", "Lieu", "Port de brume. Son maire : [[Orso]].")
    write_page(conteur, campaign, "Orso", "PNJ", MAYOR)

    # The journal links the town.
    conteur.goto(f"/campaigns/{campaign.pk}/sessions/{journal.pk}/edit/")
    conteur.get_by_label("Journal").fill("Le groupe arrive à [[Vael]].")
    conteur.get_by_role("button", name="Enregistrer").click()
    conteur.goto(f"/campaigns/{campaign.pk}/sessions/{journal.pk}/")
    expect(conteur.get_by_role("link", name="Vael")).to_be_visible()

    aelis = new_page()
    log_in(aelis, "aelis")
    aelis.goto(table)
    expect(aelis.locator("#handouts-panel")).to_contain_text("aucun document")
    brann = new_page()
    log_in(brann, "brann")
    brann.goto(table)

    # At the table, the Conteur gives the first secret to Aelis only.
    conteur.goto(table)
    panel = conteur.locator("#handouts-panel")
    panel.get_by_label("Document à remettre").select_option(
        label="Secret n° 1 de « Orso » : Le maire est un vampire."
    )
    panel.get_by_label("aelis").check()
    panel.get_by_role("button", name="Remettre").click()
    expect(panel).to_contain_text("« Orso » est remis à aelis.")
    shoot(conteur, "conteur-table")

    # Aelis's open table shows it without a reload; Brann's never does.
    expect(aelis.locator("#handouts-panel")).to_contain_text("Le maire est un vampire.")
    shoot(aelis, "aelis-table")
    brann.wait_for_timeout(2000)
    expect(brann.locator("#handouts-panel")).not_to_contain_text("vampire")

    # The page itself: neither secret for Aelis (the handout is a copy, not the page's secret).
    aelis.goto(f"/campaigns/{campaign.pk}/monde/")
    aelis.get_by_role("link", name="Orso").first.click()
    article = aelis.locator("article")
    expect(article).to_contain_text("toujours vêtu de noir")
    expect(article).not_to_contain_text("crypte")
    expect(article).not_to_contain_text("vampire")
    shoot(aelis, "aelis-page")

    # The town says where it is cited, the journal included; search never finds the crypt.
    aelis.goto(f"/campaigns/{campaign.pk}/monde/")
    aelis.get_by_role("link", name="Vael").first.click()
    expect(aelis.locator(".backlinks")).to_contain_text("Arrivée à Vael")
    aelis.goto(f"/campaigns/{campaign.pk}/monde/recherche/?q=crypte")
    expect(aelis.locator("main")).not_to_contain_text("Orso")
    aelis.goto(f"/campaigns/{campaign.pk}/monde/")
    aelis.get_by_role("link", name="Documents remis").click()
    expect(aelis.locator("main")).to_contain_text("Le maire est un vampire.")
    shoot(aelis, "aelis-documents")
