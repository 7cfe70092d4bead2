"""A printed sheet (issue 16 §11): a full sheet, as its player sees it, fits on two A4 pages and
shows neither buttons, forms, navigation nor HTMX controls — but every value, those of the skill
and language rows (edited in forms on screen) included.

Set SHEET_SHOTS=/some/folder to keep the PDF and screenshots for a look."""

import os
import re
from pathlib import Path

import pytest

from campaigns.models import Ability, Asset, CharacterClass, Flaw
from characters.models import Character, CharacterLanguage, CharacterSkill
from rules import reference

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTES = (
    "Née sur les quais d'Emeshar, Aelis a grandi entre les filets et les contrebandiers. "
    "Elle cherche la vérité sur le phare éteint et sur la disparition de son frère.\n"
) * 4

# Every element that would print but must not: controls, forms, navigation, htmx triggers.
PRINTED_CONTROLS = """() => {
  const shown = el => { for (let e = el; e; e = e.parentElement) {
      if (getComputedStyle(e).display === 'none') return false; } return true; };
  // The in-place edit links are the values themselves: they print as plain text (below).
  const selector = 'button, form, input, select, textarea, nav, [hx-get]:not(a.editable), [hx-post]';
  return [...document.querySelectorAll(selector)].filter(shown)
    .map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '.' + el.className);
}"""


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill("correct-horse-battery")
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.fixture
def full_sheet(campaign, player):
    """A sheet filled as after a few evenings: many skills with expertises, languages, entries
    and long notes (the most a printed sheet has to hold)."""
    character = Character.objects.create(
        campaign=campaign,
        owner=player,
        name="Aelis de Mivellun",
        lineage="Maison des Brumes",
        strength=5,
        agility=6,
        perception=4,
        notes=NOTES,
        private_notes="Doit 30 pièces à Brann.",
    )
    for index, skill in enumerate(reference.SKILLS[:18]):
        CharacterSkill.objects.create(
            character=character,
            key=skill.key,
            level=1 + index % 6,
            expertises=["Haches", "Lances"] if index % 4 == 0 else [],
        )
    for key, level in (("occidental", 7), ("central", 4), ("primordial", 2), ("atlante", 1)):
        CharacterLanguage.objects.create(character=character, key=key, level=level, writing=True)
    lame = CharacterClass.objects.create(campaign=campaign, name="Lame")
    character.classes.add(lame)
    character.abilities.add(
        Ability.objects.create(campaign=campaign, name="Coup précis", character_class=lame),
        Ability.objects.create(campaign=campaign, name="Parade", character_class=lame),
    )
    character.assets.add(Asset.objects.create(campaign=campaign, name="Riche", cost=3))
    character.flaws.add(Flaw.objects.create(campaign=campaign, name="Borgne", value=2))
    return character


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


def shots() -> Path | None:
    folder = os.environ.get("SHEET_SHOTS")
    if not folder:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_the_printed_sheet_fits_two_a4_pages_without_controls(new_page, full_sheet):
    page = new_page()
    log_in(page, "aelis")
    page.goto(f"/characters/{full_sheet.pk}/")
    # On screen the sheet has its controls, and a print button (shown by the script).
    assert page.get_by_role("button", name="Imprimer").is_visible()
    assert page.evaluate(PRINTED_CONTROLS)

    page.emulate_media(media="print")
    assert page.evaluate(PRINTED_CONTROLS) == []
    value = page.locator("#f-strength a.editable")
    assert value.evaluate("e => getComputedStyle(e).borderBottomStyle") == "none"
    assert value.evaluate("e => getComputedStyle(e).textDecorationLine") == "none"
    # What the row forms held on screen is printed as text.
    melee = page.locator("tr", has=page.get_by_role("rowheader", name="Mêlée"))
    assert melee.inner_text().split()[1] == str(full_sheet.skills.get(key="melee").level)
    assert "Haches, Lances" in page.locator("#skills").inner_text()
    assert page.locator("#lang-occidental").inner_text().split()[1:3] == ["7", "oui"]
    assert "Coup précis, Parade" in page.locator("#entries").inner_text()

    pdf = page.pdf(format="A4", print_background=True)
    assert 1 <= pdf_pages(pdf) <= 2
    if folder := shots():
        (folder / "sheet.pdf").write_bytes(pdf)
        page.set_viewport_size({"width": 794, "height": 1123})
        page.screenshot(path=str(folder / "print.png"), full_page=True)


def test_the_print_button_opens_the_print_dialog(new_page, full_sheet):
    page = new_page()
    log_in(page, "aelis")
    page.goto(f"/characters/{full_sheet.pk}/")
    page.evaluate("window.print = () => { window.printed = true; }")
    page.get_by_role("button", name="Imprimer").click()
    assert page.evaluate("window.printed") is True


@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots_of_the_sheet(new_page, full_sheet, width):
    """Not a check of looks: it keeps the pictures to look at (SHEET_SHOTS), and checks the page
    is no wider than the screen."""
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "aelis")
    page.goto(f"/characters/{full_sheet.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if folder := shots():
        height = page.evaluate("document.documentElement.scrollHeight")
        for number, top in enumerate(range(0, height, 900)):
            page.evaluate(f"window.scrollTo(0, {top})")
            page.screenshot(path=str(folder / f"sheet-{width}-{number}.png"))
