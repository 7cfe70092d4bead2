"""The sheet in a real browser: in-place edits swap derived values without a reload, and a stale
edit from a second tab shows who changed the field."""

import os

import pytest

from characters.models import Character
from rules import sheet as rules_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill("correct-horse-battery")
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.fixture
def sheet(campaign, player):
    return Character.objects.create(campaign=campaign, owner=player, name="Aelis")


def test_edit_force_in_place_then_a_stale_tab_sees_the_conflict(new_page, sheet, storyteller):
    url = f"/characters/{sheet.pk}/"
    after = rules_sheet.sheet_scores(rules_sheet.Characteristics(strength=8))
    before = rules_sheet.sheet_scores(rules_sheet.Characteristics())

    # The Conteur opens Force for editing in a second tab, on version 1.
    stale = new_page()
    log_in(stale, "conteur")
    stale.goto(url)
    stale.locator("#f-strength a.editable").click()
    stale.locator("#id_value_strength").wait_for()

    page = new_page()
    log_in(page, "aelis")
    page.goto(url)
    page.evaluate("window.notReloaded = true")
    vitality_rest = page.locator("#gauge-vitality-rest")
    assert page.locator("#score-body").inner_text() == str(before.columns["body"])
    assert f"+{before.might}" in vitality_rest.inner_text()

    # Escape cancels an edit; click, type, Enter saves it.
    page.locator("#f-strength a.editable").click()
    page.locator("#id_value_strength").press("Escape")
    page.locator("#f-strength a.editable").wait_for()
    page.locator("#f-strength a.editable").click()
    page.locator("#id_value_strength").fill("8")
    page.locator("#id_value_strength").press("Enter")

    page.wait_for_function(
        "expected => document.querySelector('#score-body').innerText.trim() === expected",
        arg=str(after.columns["body"]),
    )
    assert page.locator("#might").inner_text() == str(after.might)
    assert page.locator("#harmony").inner_text() == str(after.harmony)
    assert f"+{after.might}" in vitality_rest.inner_text()
    assert page.locator("#f-strength .value").inner_text() == "8"
    assert page.evaluate("window.notReloaded") is True

    # The stale tab submits its own value for Force: refused, with who and the current value.
    stale.locator("#id_value_strength").fill("5")
    stale.locator("#id_value_strength").press("Enter")
    stale.get_by_text("Modifié entre-temps par aelis : valeur actuelle 8.").wait_for()
    sheet.refresh_from_db()
    assert sheet.strength == 8


def test_a_save_the_server_cannot_answer_says_so_and_keeps_the_typed_value(new_page, sheet):
    """Issue 12 §7: a 5xx on a field save shows a French message, the form stays with what was
    typed, and the message goes once a request succeeds again."""
    page = new_page()
    log_in(page, "aelis")
    page.goto(f"/characters/{sheet.pk}/")
    banner = page.locator("#connection-status")
    assert banner.is_hidden()

    def saves_fail(route):
        if route.request.method == "POST":
            route.fulfill(status=503, body="indisponible")
        else:
            route.continue_()

    page.route("**/fields/strength/", saves_fail)
    page.locator("#f-strength a.editable").click()
    page.locator("#id_value_strength").fill("7")
    page.locator("#id_value_strength").press("Enter")
    banner.wait_for(state="visible")
    assert "Connexion au serveur perdue" in banner.inner_text()
    assert page.locator("#id_value_strength").input_value() == "7"

    page.unroute("**/fields/strength/")
    page.locator("#id_value_strength").press("Enter")
    banner.wait_for(state="hidden")
    sheet.refresh_from_db()
    assert sheet.strength == 7


def test_lowering_force_of_a_full_pool_lowers_it_and_says_so(new_page, campaign, player):
    """Issue 16 §6: a new character's pools are full; lowering Force lowers Impact's pool with
    it and the sheet says so, where the player is looking."""
    sheet = Character.objects.create(
        campaign=campaign, owner=player, name="Aelis", strength=8, power=7, intellect=6
    )
    sheet.impact_points = 7  # Impact (8 + 7 + 6) // 3 = 7, full
    sheet.save()
    page = new_page()
    log_in(page, "aelis")
    page.goto(f"/characters/{sheet.pk}/")
    page.get_by_role("link", name="Modifier Force : 8").click()
    page.locator("#id_value_strength").fill("5")
    page.locator("#id_value_strength").press("Enter")
    note = page.locator("#sec-characteristics [role=status]")
    note.wait_for()
    assert note.inner_text() == (
        "Points d'Impact ramenés de 7 à 6 (le score d'Impact est maintenant 6)."
    )
    assert page.locator("#f-impact_points .value").inner_text() == "6"
    assert page.locator("#pool-impact-max").inner_text() == "6"
    # The focus is back on the saved value, whose link says what it now holds.
    page.locator('[aria-label="Modifier Force : 5"]:focus').wait_for()  # a selector: no eval


def test_an_action_fills_the_live_region_without_replacing_it(new_page, sheet):
    page = new_page()
    log_in(page, "aelis")
    page.goto(f"/characters/{sheet.pk}/")
    page.evaluate("document.getElementById('action-messages').dataset.original = 'yes'")
    page.get_by_label("Dégâts", exact=True).fill("4")
    page.get_by_role("button", name="Appliquer les dégâts").click()
    region = page.locator("#action-messages")
    region.locator("li").first.wait_for()
    assert region.get_attribute("data-original") == "yes"  # the same element, still live
    assert region.get_attribute("role") == "status"
    assert "Vitalité" in region.inner_text()
    # The heal and stabilise selects are named by their own labels.
    assert page.get_by_role("combobox", name="Constitution").count() == 3
    assert page.locator("#id_heal-gauge").evaluate("e => e.labels[0].innerText") == "Constitution"
    sheet.refresh_from_db()
    assert sheet.vitality_current == 11


def _shoot(page, name: str) -> None:
    """With SHEET_SHOTS=<folder>, keep a picture of the actions at the test's width (review)."""
    folder = os.environ.get("SHEET_SHOTS")
    if folder:
        page.locator("#actions").screenshot(path=f"{folder}/{name}.png")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_rest_after_bad_sleep_is_one_rank_harder(new_page, sheet, width):
    """§4: « Sleeping or eating badly makes restoration harder »: Normale + mal dormi = Difficile,
    Harmonie points per gauge."""
    Character.objects.filter(pk=sheet.pk).update(vitality_current=1)
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "aelis")
    page.goto(f"/characters/{sheet.pk}/")
    assert page.get_by_label("Conditions du repos").input_value() == "normal"
    assert page.get_by_text("Cage thoracique").count() == 0
    page.get_by_label("Mal dormi (un cran plus dur)").check()
    _shoot(page, f"rest-{width}")
    page.get_by_role("button", name="Prendre ce repos").click()
    region = page.locator("#action-messages")
    region.locator("li").first.wait_for()
    assert "Repos Difficile (mal dormi)" in region.inner_text()
    harmony = rules_sheet.sheet_scores(rules_sheet.Characteristics()).harmony
    sheet.refresh_from_db()
    assert sheet.vitality_current == 1 + harmony


@pytest.mark.parametrize("width", [1280, 390])
def test_the_conteur_gives_impact_points_back_on_an_objective(new_page, sheet, width):
    """§1: Impact points « are all regained when an important objective is reached »."""
    score = rules_sheet.sheet_scores(rules_sheet.Characteristics()).rows["impact"]
    Character.objects.filter(pk=sheet.pk).update(impact_points=0)
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "conteur")
    page.goto(f"/characters/{sheet.pk}/")
    _shoot(page, f"objective-{width}")
    page.get_by_role("button", name=f"Objectif atteint : +{score} points d'Impact").click()
    region = page.locator("#action-messages")
    region.locator("li").first.wait_for()
    assert f"+{score} points d'Impact (0 → {score})" in region.inner_text()
    sheet.refresh_from_db()
    assert sheet.impact_points == score
