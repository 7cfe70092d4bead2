"""A table page left open polls with its stamp (sessions/poll_stamp.py): while nothing moves it
is answered without the database, and a roll made elsewhere still reaches it within 2 seconds."""

import pytest

from tests.browser.test_table import LIVE_SECONDS, hero, log_in, seconds_until
from tests.sessions.test_views import stored_roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_idle_page_polls_with_its_stamp_and_still_sees_a_new_roll(
    new_page, campaign, player, other_player
):
    brann = hero(campaign, other_player, "Brann")
    joueur = new_page()
    log_in(joueur, "aelis")
    stamped = []
    joueur.on(
        "request",
        lambda r: stamped.append(r.url) if "/table/poll/" in r.url and "stamp=" in r.url else None,
    )
    joueur.goto(f"/campaigns/{campaign.pk}/table/")
    joueur.wait_for_function("() => document.getElementById('table-poller').dataset.stamp")
    while not stamped:
        joueur.wait_for_timeout(100)  # the next poll sends it

    stored_roll(campaign, other_player, brann)  # committed: the table's counter moves
    elapsed = seconds_until(joueur.locator("#roll-log li[data-kind=roll]", has_text="Brann"))
    assert elapsed <= LIVE_SECONDS
