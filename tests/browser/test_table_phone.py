"""The table on a phone (issue 16 §10): at 390 × 844 the log is a screen below « Lancer », so the
result of one's own roll shows right under the button, in sight without scrolling."""

import pytest

from tests.browser.test_table import SENTENCE, hero, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
IN_VIEW = """el => { const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: innerHeight, scrollY: scrollY}; }"""


def test_on_a_phone_the_result_of_a_roll_is_in_sight_after_lancer(new_page, campaign, player):
    hero(campaign, player, "Aelis")
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "aelis")
    page.goto(f"/campaigns/{campaign.pk}/table/")
    lancer = page.get_by_role("button", name="Lancer", exact=True)
    # The worst case: the button at the very bottom of the screen, as a thumb reaches it.
    lancer.scroll_into_view_if_needed()
    page.evaluate(
        "el => window.scrollBy(0, el.getBoundingClientRect().bottom - innerHeight + 2)",
        lancer.element_handle(),
    )
    assert page.evaluate(IN_VIEW, lancer.element_handle())["bottom"] <= PHONE["height"]
    log_top = page.evaluate(IN_VIEW, page.locator("#roll-log").element_handle())["top"]
    assert log_top > PHONE["height"]  # the log itself is out of sight, below

    lancer.click()
    page.locator("#roll-log li[data-kind=roll]").first.wait_for(state="attached")
    result = page.locator("#roll-result")
    result.wait_for()
    page.wait_for_timeout(300)  # let any scroll settle
    box = page.evaluate(IN_VIEW, result.element_handle())
    assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], box
    # A critical failure can total below zero (« Aelis : -2 contre 0, échec critique »).
    assert SENTENCE.match(result.locator(".roll-result-sentence").inner_text())
    assert result.locator(".die.kept").count() == 1  # the dice too, not only the sentence
