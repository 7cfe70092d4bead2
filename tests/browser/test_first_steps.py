"""In a browser (issue 16 §12, §13): a new campaign's first steps guide the Conteur and tick
themselves, the demo shows a table in mid-play, and spending XP asks first — at 1280 and 390 px,
nothing wider than the screen. SHOTS_DIR=<folder> keeps a screenshot of each page looked at."""

import os
from pathlib import Path

import pytest

from altherion.demo import DEMO_PASSWORD, demo_seed
from campaigns.services import campaign_create
from characters.models import Character
from progression.models import Advance, Ellipse, XpEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1280, 390)
SCROLL = "() => document.documentElement.scrollWidth - innerWidth"


@pytest.fixture
def demo(settings):
    return demo_seed()


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def look(page, name: str) -> None:
    """Nothing wider than the screen at either width (and a screenshot when asked)."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate(SCROLL) <= 0, f"{name} at {width} px"
        if folder := os.environ.get("SHOTS_DIR"):
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{folder}/{name}-{width}.png")
            page.screenshot(path=f"{folder}/{name}-{width}-full.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_first_steps_guide_a_new_campaign_and_tick_themselves(new_page, demo):
    storyteller = demo.memberships.get(role="storyteller").user
    fresh = campaign_create(creator=storyteller, name="La Marche grise")
    page = new_page()
    log_in(page, "conteur")
    page.goto(f"/campaigns/{fresh.pk}/")
    card = page.locator(".first-steps")
    assert card.get_by_role("heading", name="Premiers pas").is_visible()
    look(page, "dashboard-new")
    # the creation wizard's empty lists point to the same examples
    page.goto(f"/campaigns/{fresh.pk}/characters/new/")
    entries = page.locator("#h-w-entries").locator("..")
    assert entries.get_by_role("button", name="Charger les exemples").count() == 4
    look(page, "wizard-empty")
    page.goto(f"/campaigns/{fresh.pk}/")
    card.get_by_role("button", name="Charger les exemples du compendium").click()
    page.wait_for_url(f"**/campaigns/{fresh.pk}/compendium/")
    assert page.get_by_text("entrées d'exemple ajoutées").is_visible()
    page.goto(f"/campaigns/{fresh.pk}/")
    done = card.locator(".first-step.done")
    assert done.count() == 1 and "Charger les exemples du compendium" in done.inner_text()
    card.get_by_role("link", name="Planifier la première séance").click()
    page.wait_for_url(f"**/campaigns/{fresh.pk}/sessions/new/")
    look(page, "dashboard-step")
    # the demo campaign has done all three: no card there
    page.goto(f"/campaigns/{demo.pk}/")
    assert page.locator(".first-steps").count() == 0
    look(page, "dashboard-demo")


def test_the_demo_table_and_sheet_show_a_campaign_in_mid_play(new_page, demo):
    aelis = Character.objects.get(campaign=demo, owner__username="aelis")
    page = new_page()
    log_in(page, "aelis")
    page.goto(f"/campaigns/{demo.pk}/table/")
    log = page.locator("#roll-log")
    assert log.get_by_text("Repérer la côte dans la brume").first.is_visible()
    assert log.get_by_text("Réussite critique").first.is_visible()
    assert page.locator('[data-morale="hope"]').first.inner_text() != "0"
    look(page, "table")
    page.goto(f"/characters/{aelis.pk}/")
    look(page, "sheet")
    page.goto(f"/campaigns/{demo.pk}/characters/{aelis.pk}/experience/")
    assert page.get_by_text("Fin de l'arc « La Mouette échouée »").is_visible()
    look(page, "experience")


def test_spending_xp_asks_first(new_page, demo):
    aelis = Character.objects.get(campaign=demo, owner__username="aelis")
    spent = XpEntry.objects.filter(character=aelis, kind="spend").count()
    page = new_page()
    log_in(page, "aelis")
    page.goto(f"/campaigns/{demo.pk}/characters/{aelis.pk}/experience/")
    row = page.locator("tr", has_text="Perception +1")
    row.get_by_role("button", name="Avec un point d'espoir").click()
    page.wait_for_url("**/spend/?**")
    assert page.get_by_role("heading", name="Acheter « Perception +1 » ?").is_visible()
    look(page, "confirm-spend")
    assert XpEntry.objects.filter(character=aelis, kind="spend").count() == spent
    page.get_by_role("button", name="Dépenser").click()
    page.wait_for_url(f"**/characters/{aelis.pk}/experience/")
    assert page.get_by_text("Dépensé : Perception +1").is_visible()
    assert XpEntry.objects.filter(character=aelis, kind="spend").count() == spent + 1


def test_closing_the_ellipse_asks_first_and_cancel_changes_nothing(new_page, demo):
    ellipse = Ellipse.objects.get(campaign=demo, status="open")
    page = new_page()
    log_in(page, "conteur")
    page.goto(f"/campaigns/{demo.pk}/ellipses/{ellipse.pk}/")
    look(page, "ellipse")
    page.get_by_role("button", name="Clore l'ellipse").click()
    page.wait_for_url("**/advance/?**")
    assert page.get_by_role("heading", name=f"Clore « {ellipse} » ?").is_visible()
    look(page, "confirm-ellipse")
    page.get_by_role("link", name="Annuler").click()
    page.wait_for_url(f"**/ellipses/{ellipse.pk}/")
    ellipse.refresh_from_db()
    assert ellipse.is_open and not Advance.objects.filter(ellipse=ellipse, closes=True).exists()
