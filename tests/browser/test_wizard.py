"""The creation wizard in a browser (issue 41): on a phone the budget is a short strip that stays
in sight, and each skill is one line; on a wide screen it is a column beside the form; a sheet
with points left is created only once its player has read what is left and said so.
SHOTS_DIR=<folder> keeps a screenshot of each step."""

import os
from pathlib import Path

import pytest

from campaigns.services import compendium_examples_load
from characters.models import Character
from tests.browser.test_campaigns import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}
BOX = "el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; }"  # noqa: E501
SCROLL = "() => document.documentElement.scrollWidth - innerWidth"


def shot(page, name: str) -> None:
    if folder := os.environ.get("SHOTS_DIR"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{folder}/{name}.png")


def box(page, selector: str) -> dict:
    return page.evaluate(BOX, page.locator(selector).first.element_handle())


@pytest.fixture
def wizard(new_page, campaign, player):
    compendium_examples_load(campaign=campaign)
    page = new_page()
    log_in(page, "aelis", password="correct-horse-battery")
    return page, f"/campaigns/{campaign.pk}/characters/new/"


def test_on_a_phone_the_budget_is_a_strip_in_sight_and_a_skill_one_line(wizard):
    page, url = wizard
    page.set_viewport_size(PHONE)
    page.goto(url)
    assert page.evaluate(SCROLL) <= 0
    budget = box(page, "#budget")
    assert budget["height"] <= PHONE["height"] / 8, budget  # was a third of the screen
    shot(page, "wizard-390")

    page.locator("#id_skill_melee").fill("3")
    page.get_by_text("6 / 75 points dépensés — reste 69 points").wait_for()
    page.evaluate("document.getElementById('h-w-skills').scrollIntoView()")
    budget, heading = box(page, "#budget"), box(page, "#h-w-skills")
    assert budget["top"] == 0  # stuck at the top while the form scrolls under it
    assert heading["top"] >= budget["bottom"]  # the section lands below it, not under it
    name, level, expertises = (
        box(page, "label[for=id_skill_melee]"),
        box(page, "#id_skill_melee"),
        box(page, "#id_skillexp_melee"),
    )
    middle = (level["top"] + level["bottom"]) / 2
    assert all(b["top"] < middle < b["bottom"] for b in (name, expertises))
    assert name["right"] <= level["left"] and level["right"] <= expertises["left"]
    assert expertises["right"] <= PHONE["width"]
    page.get_by_label("Expertises de Mêlée").fill("Haches")  # the label a screen reader reads
    assert page.evaluate(SCROLL) <= 0
    shot(page, "wizard-390-skills")


def test_on_a_wide_screen_the_budget_is_a_column_beside_the_form(wizard):
    page, url = wizard
    page.set_viewport_size(WIDE)
    page.goto(url)
    assert page.evaluate(SCROLL) <= 0
    shot(page, "wizard-1280")
    page.evaluate("document.getElementById('h-w-languages').scrollIntoView()")
    budget, languages = box(page, "#budget"), box(page, "#h-w-languages")
    assert budget["left"] > languages["right"]
    assert budget["top"] >= 0 and budget["bottom"] <= WIDE["height"]
    shot(page, "wizard-1280-languages")


def test_points_left_are_shown_and_the_player_chooses_to_create_anyway(wizard):
    page, url = wizard
    for viewport in (PHONE, WIDE):
        page.set_viewport_size(viewport)
        page.goto(url)
        page.get_by_label("Nom", exact=True).fill("Oskar")
        page.locator("#id_skill_melee").fill("3")
        page.get_by_text("reste 69 points").wait_for()
        page.get_by_role("button", name="Créer le personnage").click()
        alert = page.locator("#unspent")
        alert.get_by_text(
            "Il reste 69 points de création à dépenser (6 sur 75) : "
            "une fois le personnage créé, ils ne serviront plus."
        ).wait_for()
        assert not Character.objects.exists()
        assert page.locator("#id_skill_melee").input_value() == "3"
        assert page.evaluate(SCROLL) <= 0
        shot(page, f"wizard-unspent-{viewport['width']}")
    alert.get_by_role("button", name="Créer quand même").click()
    page.get_by_role("heading", name="Oskar", level=1).wait_for()
    assert Character.objects.get().skills.get(key="melee").level == 3
    shot(page, "wizard-created-1280")
