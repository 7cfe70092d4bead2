"""axe-core finds no accessibility violation on the pages of a played campaign, for a player and
for the Conteur, at 1280 and 390 px (issue 16: « axe-core stays at 0 violations »)."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.test_layout import WIDTHS, log_in, pages_of, played  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def more_pages(walked, persona: str) -> list[str]:
    """Pages the layout walk leaves out: lists, members, compendium, the creation wizard, the
    sheet's entries, the bestiary and the fight, the account pages."""
    campaign, aelis = walked.campaign.pk, walked.characters[0]
    pages = [
        "/campaigns/",
        f"/campaigns/{campaign}/members/",
        f"/campaigns/{campaign}/compendium/",
        f"/campaigns/{campaign}/sessions/",
        f"/campaigns/{campaign}/arcs/",
        f"/campaigns/{campaign}/characters/new/",
        f"/campaigns/{campaign}/table/combat/",
        f"/characters/{aelis.pk}/entries/",
        "/accounts/profile/delete/",
    ]
    if persona == "storyteller":
        pages += [
            f"/campaigns/{campaign}/invitations/",
            f"/campaigns/{campaign}/settings/",
            f"/campaigns/{campaign}/bestiary/",
            f"/campaigns/{campaign}/bestiary/new/",
            f"/campaigns/{campaign}/arcs/new/",
            f"/campaigns/{campaign}/sessions/new/",
        ]
    return pages


def violations(axe: Axe, page) -> list[str]:
    found = axe.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in found
    ]


@pytest.mark.parametrize("persona", ["player", "storyteller"])
def test_axe_finds_nothing_on_any_page(new_page, played, persona):  # noqa: F811
    axe = Axe()
    page = new_page()
    log_in(page, "conteur" if persona == "storyteller" else "aelis")
    problems = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for url in pages_of(played, persona) + more_pages(played, persona):
            assert page.goto(url).status in (200, 403), url  # 403: a player's refusal page
            page.wait_for_load_state("networkidle")
            found = violations(axe, page)
            if found:
                problems[f"{width} px {url}"] = found
    assert not problems, "\n".join(f"{where}: {found}" for where, found in problems.items())
