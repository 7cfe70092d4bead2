"""In a browser, on a played campaign (issue 16 §3–§5, §7): nothing is wider than its card or the
screen at 1280 and 390 px, the unread badge is readable and updates itself, the odds preview
sends only what the odds need, and the API docs break no rule of the CSP."""

import pytest

from altherion.demo import DEMO_PASSWORD
from campaigns.models import Notification
from tests.played_campaign import played_campaign_seed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1280, 390)

# Every element of <main> whose box leaves its card (or <main> outside cards), ignoring what is
# visually hidden (the 1-px clipped boxes of screen-reader text and of a phone's table heads).
OVERFLOWS = """() => {
  const hidden = el => { for (let e = el; e; e = e.parentElement) {
      const r = e.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || getComputedStyle(e).display === 'none') return true;
  } return false; };
  const main = document.querySelector('main');
  const out = [];
  for (const el of main.querySelectorAll('*')) {
    if (hidden(el)) continue;
    const card = el.parentElement.closest('.card') || main;
    const r = el.getBoundingClientRect(), c = card.getBoundingClientRect();
    if (r.right > c.right + 1 || r.left < c.left - 1) {
      out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className}: `
               + `${Math.round(r.width)} px in ${Math.round(c.width)} px`);
    }
  }
  return {scroll: document.documentElement.scrollWidth, inner: innerWidth, out: out.slice(0, 5)};
}"""

CONTRAST = """el => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = null;
  for (let e = el; e && !bg; e = e.parentElement) {
    const color = getComputedStyle(e).backgroundColor;
    if (!color.startsWith('rgba(0, 0, 0, 0)') && color !== 'transparent') bg = color;
  }
  const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(bg || 'rgb(255,255,255)'))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.fixture
def played(settings):
    return played_campaign_seed()


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def pages_of(played, persona: str) -> list[str]:
    campaign, (aelis, brann) = played.campaign.pk, played.characters
    ellipse = played.campaign.ellipses.order_by("-pk").first()
    pages = [
        f"/characters/{aelis.pk}/",
        f"/characters/{aelis.pk}/history/",
        f"/campaigns/{campaign}/table/",
        f"/campaigns/{campaign}/",
        f"/campaigns/{campaign}/progression/",
        f"/campaigns/{campaign}/characters/{aelis.pk}/experience/",
        f"/campaigns/{campaign}/ellipses/{ellipse.pk}/",
        f"/campaigns/{campaign}/arcs/{played.closed_arc.pk}/experience/",
        "/notifications/",
        "/accounts/profile/",
    ]
    if persona == "storyteller":
        pages += [
            f"/characters/{brann.pk}/",
            f"/campaigns/{campaign}/arcs/{played.open_arc.pk}/experience/",
        ]
    return pages


@pytest.mark.parametrize("persona", ["player", "storyteller"])
def test_nothing_is_wider_than_its_card_or_the_screen(new_page, played, persona):
    page = new_page()
    log_in(page, "conteur" if persona == "storyteller" else "aelis")
    problems = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for url in pages_of(played, persona):
            page.goto(url)
            page.wait_for_load_state("networkidle")
            found = page.evaluate(OVERFLOWS)
            if found["scroll"] > found["inner"] or found["out"]:
                problems[f"{width} px {url}"] = found
    assert problems == {}


def test_the_unread_badge_is_readable_everywhere_and_updates_itself(new_page, played):
    aelis = played.players[0]
    page = new_page()
    log_in(page, "aelis")
    badge = page.locator("#unread-count .unread-badge")
    for url in (f"/characters/{played.characters[0].pk}/", "/accounts/profile/", "/notifications/"):
        page.goto(url)
        badge.wait_for()
        assert badge.evaluate(CONTRAST) >= 4.5, url
    before = int(badge.inner_text())
    Notification.objects.create(user=aelis, kind="award", key="live", text="Une de plus.")
    # The fragment polls every 20 s: the new count shows without reloading the page.
    page.evaluate("window.notReloaded = true")
    page.locator("#unread-count .unread-badge").filter(has_text=str(before + 1)).wait_for(
        timeout=30_000
    )
    assert page.evaluate("window.notReloaded") is True


def test_the_odds_preview_sends_neither_the_csrf_token_nor_the_rolls_key(new_page, played):
    page = new_page()
    log_in(page, "aelis")
    page.goto(f"/campaigns/{played.campaign.pk}/table/")
    with page.expect_request(lambda request: "/odds/" in request.url) as odds:
        page.locator("#id_difficulty").fill("9")
    url = odds.value.url
    assert "difficulty=9" in url
    assert "csrfmiddlewaretoken" not in url and "idempotency_key" not in url
    page.locator("#odds [data-odds=success]").wait_for()


def test_the_api_docs_break_no_content_security_rule(new_page, played):
    page = new_page()
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation',"
        " e => console.error('CSP violation: ' + e.violatedDirective))"
    )
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, "aelis")
    page.goto("/api/docs/")
    page.locator(".opblock-tag").first.click()  # the sections come folded
    page.locator(".opblock").first.click()  # open an operation: its examples and highlighting
    page.locator(".opblock-body").first.wait_for()
    page.wait_for_timeout(500)
    assert errors == []
