"""Where the keyboard's focus goes, and whether one can see it (issue 16 §14, §17): a compendium
row opened for editing takes the caret into its first field, saving it puts the focus on the
saved row — never on <body> —, and the focus ring reaches 3:1 on white, <summary> included."""

import pytest

from campaigns.models import Asset

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The contrast of an element's outline colour against white (WCAG's formula).
RING_CONTRAST = """el => {
  const style = getComputedStyle(el);
  if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) < 2) return 0;
  const [r, g, b] = style.outlineColor.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = [r, g, b].map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  return 1.05 / (lum + 0.05);
}"""
ACTIVE = "() => { const a = document.activeElement; return [a.tagName, a.id, a.name || '']; }"


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill("correct-horse-battery")
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def test_editing_a_compendium_row_moves_the_focus_in_then_onto_the_saved_row(new_page, campaign):
    asset = Asset.objects.create(campaign=campaign, name="Riche", cost=3)
    page = new_page()
    log_in(page, "conteur")
    page.goto(f"/campaigns/{campaign.pk}/compendium/")
    row = page.locator(f"#assets-{asset.pk}")
    row.get_by_role("link", name="Modifier").click()
    page.locator(f"#assets-{asset.pk}.editing").wait_for()
    # Waiting on :focus (a selector, not a predicate: the page's CSP forbids eval).
    page.locator(f"#assets-{asset.pk}.editing :focus").wait_for()
    tag, _id, name = page.evaluate(ACTIVE)
    assert (tag, name) == ("INPUT", "name")  # the first field of the form
    assert page.evaluate("document.activeElement.closest('li.editing') !== null")

    page.keyboard.press("Control+A")
    page.keyboard.type("Très riche")
    page.keyboard.press("Enter")
    page.locator(f"#assets-{asset.pk}:not(.editing)").wait_for()
    page.locator(f"#assets-{asset.pk}:focus").wait_for()
    assert "Très riche" in page.evaluate("document.activeElement.innerText")


def test_the_focus_ring_reaches_3_to_1_on_white_summary_included(new_page, campaign):
    page = new_page()
    log_in(page, "conteur")
    page.goto(f"/campaigns/{campaign.pk}/compendium/")
    page.keyboard.press("Tab")  # keyboard use: focus() from now on shows the ring
    for selector in ("summary", "main a", "main button", "main input[type=text]"):
        element = page.locator(selector).first
        if selector == "main input[type=text]":
            page.locator("summary").first.click()
            element = page.locator("details[open] input[type=text]").first
        element.focus()
        assert element.evaluate("e => e.matches(':focus-visible')"), selector
        assert element.evaluate(RING_CONTRAST) >= 3, selector
