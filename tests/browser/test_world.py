"""The world in Chromium: the Conteur writes a page with an image, a link to a page still to
write, and a secret for one player; creates the linked page from the link; the journal links to
the town. Each player sees exactly their share; at 390 px nothing is wider than the screen; axe
finds nothing. SHOTS_DIR keeps screenshots (index, page, edit form at 1280 and 390 px)."""

import os
from io import BytesIO

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from PIL import Image

from campaigns.models import Membership, Role
from campaigns.services import campaign_create
from sessions.models import PlaySession
from tests.browser.test_campaigns import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("SHOTS_DIR", "")
WIDTHS = ((1280, 900), (390, 844))
TOWN_BODY = (
    "Un port de **brume** au bout des marais. Le pouvoir y est tenu par [[Le maire Orso]].\n\n"
    ":::secret @aubin\nLa lettre volée est cachée sous le ponton.\n:::\n\n"
    ":::secret\nLe phare appelle les noyés.\n:::\n"
)


def png() -> dict:
    buffer = BytesIO()
    Image.new("RGB", (320, 180), (70, 90, 120)).save(buffer, "PNG")
    return {"name": "vael.png", "mimeType": "image/png", "buffer": buffer.getvalue()}


def check(page, name: str) -> None:
    """No axe violation, nothing wider than the screen, a screenshot at each width."""
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0, width
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/world-{name}-{width}.png", full_page=True)
    found = Axe().run(page).response["violations"]
    assert not found, [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found]


def test_a_conteur_builds_a_world_and_each_player_sees_their_share(
    new_page, make_user, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    morgane, aubin, brann = (make_user(name, PASSWORD) for name in ("morgane", "aubin", "brann"))
    campaign = campaign_create(creator=morgane, name="La Marche grise")
    for player in (aubin, brann):
        Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)

    conteur = new_page()
    log_in(conteur, "morgane")
    conteur.goto(f"/campaigns/{campaign.pk}/")
    conteur.get_by_role("link", name="Monde", exact=True).click()
    conteur.get_by_text("Le monde est encore vide.").wait_for()
    conteur.get_by_role("link", name="Écrire la première page").click()
    conteur.get_by_label("Titre").fill("Vael")
    conteur.get_by_label("Étiquettes").fill("ville, port")
    conteur.get_by_label("Texte", exact=True).fill(TOWN_BODY)
    conteur.get_by_label("Tous les membres").check()
    conteur.get_by_label("Image", exact=True).set_input_files(png())
    conteur.get_by_role("button", name="Enregistrer").click()
    conteur.get_by_role("heading", name="Vael", level=1).wait_for()
    assert conteur.locator(".secret").count() == 2
    # Served through the access-checked view: wait until the browser has decoded it.
    image = conteur.locator(".world-image img")
    assert image.evaluate("img => img.decode().then(() => img.naturalWidth)") == 320

    # The link to a page still to write offers its creation, title filled in.
    conteur.get_by_role("link", name="Le maire Orso").click()
    assert conteur.get_by_label("Titre").input_value() == "Le maire Orso"
    conteur.get_by_label("Genre").select_option(label="PNJ")
    conteur.get_by_label("Texte", exact=True).fill("Il tient [[Vael]] d'une main de fer.")
    conteur.get_by_label("Tous les membres").check()
    conteur.get_by_role("button", name="Enregistrer").click()
    conteur.get_by_role("heading", name="Le maire Orso", level=1).wait_for()
    PlaySession.objects.create(
        campaign=campaign, title="Arrivée à Vael", scheduled_at=timezone.now(),
        notes="Le groupe débarque à [[Vael]] sous la pluie.",
    )  # fmt: skip

    conteur.goto(f"/campaigns/{campaign.pk}/monde/")
    conteur.get_by_role("heading", name="PNJ").wait_for()
    check(conteur, "index")
    conteur.get_by_role("link", name="Vael", exact=True).click()
    conteur.get_by_role("heading", name="Cité dans").wait_for()
    conteur.get_by_role("link", name="Arrivée à Vael").wait_for()
    check(conteur, "page-conteur")
    conteur.get_by_role("link", name="Modifier").click()
    conteur.get_by_label("Texte", exact=True).wait_for()
    check(conteur, "edit")

    aubin_page = new_page()
    log_in(aubin_page, "aubin")
    aubin_page.goto(conteur.url.replace("modifier/", ""))
    aubin_page.get_by_text("La lettre volée est cachée sous le ponton.").wait_for()
    assert aubin_page.get_by_text("Le phare appelle les noyés.").count() == 0
    aubin_page.get_by_label("Ma note privée").fill("Demander au passeur pour la lettre.")
    aubin_page.get_by_role("button", name="Enregistrer ma note").click()  # HTMX
    aubin_page.get_by_role("status").get_by_text("Note enregistrée.").wait_for()
    check(aubin_page, "page-joueur")

    brann_page = new_page()
    log_in(brann_page, "brann")
    brann_page.goto(conteur.url.replace("modifier/", ""))
    brann_page.get_by_role("heading", name="Vael", level=1).wait_for()
    text = brann_page.locator("main").inner_text()
    assert "ponton" not in text and "noyés" not in text and "Demander au passeur" not in text
    brann_page.get_by_role("link", name="Arrivée à Vael").click()
    brann_page.get_by_role("link", name="Vael").first.wait_for()
    brann_page.goto(f"/campaigns/{campaign.pk}/monde/recherche/")
    brann_page.get_by_role("searchbox").fill("brume")  # HTMX, as one types
    brann_page.locator("#search-results").get_by_role("link", name="Vael").wait_for()
    brann_page.get_by_role("searchbox").fill("ponton")
    brann_page.get_by_text("Rien trouvé pour « ponton ».").wait_for()
    check(brann_page, "search")
