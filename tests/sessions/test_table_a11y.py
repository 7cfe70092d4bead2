"""What a screen reader gets of the table (issue 16 §10, §17): rows carry a one-breath sentence
for the announcing log, dice and pips have text, the Moral has a live status outside the panel,
and one's own newest result sits under « Lancer »."""

import re
from html import unescape

import pytest
from django.urls import reverse

from sessions.models import Visibility
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import set_pool
from tests.sessions.test_views import roll_data, stored_roll

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def url(name, campaign, *args):
    return reverse(f"sessions:{name}", args=[campaign.pk, *args])


def sentence_of(roll, who="Aelis") -> str:
    outcome = roll.breakdown["outcome_label"].lower()
    if roll.breakdown.get("narrow_success"):
        outcome += " de justesse"
    zone = ", Zone !" if roll.zone else ""
    return f"{who} : {roll.total} contre {roll.target}, {outcome}{zone}"


def element(body: str, id_: str) -> str:
    """The opening tag of the element with this id."""
    found = re.search(rf'<[a-z0-9]+[^>]*\bid="{id_}"[^>]*>', body)
    assert found, f"no #{id_}"
    return found.group(0)


def test_the_log_announces_rows_by_their_sentence_in_a_polite_log(client, player, aelis, campaign):
    roll = stored_roll(campaign, player, aelis)
    client.force_login(player)
    body = client.get(url("table", campaign)).content.decode()
    live = element(body, "roll-log-live")
    assert 'role="log"' in live and 'aria-live="polite"' in live
    # The visible list is not a second live region (it holds the Conteur's buttons).
    assert "aria-live" not in element(body, "roll-log")
    row = re.search(r'<li class="log-row[^>]*data-kind="roll"[^>]*>', body).group(0)
    announced = unescape(re.search(r'data-announce="([^"]*)"', row).group(1))
    assert announced == sentence_of(roll)


def test_a_secret_roll_says_so_and_an_npc_roll_names_its_label(
    client, storyteller, aelis, campaign
):
    secret = stored_roll(campaign, storyteller, aelis, visibility=Visibility.STORYTELLER)
    npc = stored_roll(campaign, storyteller, None)
    client.force_login(storyteller)
    body = unescape(client.get(url("table", campaign)).content.decode())
    assert f'data-announce="{sentence_of(secret, "Aelis (secret)")}"' in body
    assert f'data-announce="{sentence_of(npc, "Garde")}"' in body


def test_every_die_has_text(client, player, aelis, campaign):
    roll = stored_roll(campaign, player, aelis)
    client.force_login(player)
    body = client.get(url("table", campaign)).content.decode()
    row = body[body.index('id="roll-log"') :]
    dice = re.findall(r'<span class="die( kept)?"[^>]*>(.*?)</span>\s*(\d+)</span>', row)
    assert len(dice) == len(roll.breakdown["dice"])
    assert [int(face) for _, _, face in dice] == roll.breakdown["dice"]
    for kept, hidden, _face in dice:
        assert "visually-hidden" in hidden
        assert ("dé gardé :" if kept else "dé :") in hidden
    assert 'aria-label="dés"' not in body


def test_the_pool_of_pips_reads_as_words_and_an_empty_pool_shows_no_stray_dots(
    client, player, aelis, brann, campaign
):
    client.force_login(player)
    panel = client.get(url("morale", campaign), **HX).content.decode()
    assert 'class="pool"' not in panel
    assert "·</span>" not in panel and "○" not in panel  # no line of empty pips alone

    set_pool(campaign, hope=1)
    panel = client.get(url("morale", campaign), **HX).content.decode()
    pool = re.search(r'<p class="pool"[^>]*>', panel).group(0)
    assert 'role="img"' in pool
    label = unescape(re.search(r'aria-label="([^"]*)"', pool).group(1))
    assert label == "Moral du groupe : 1 espoir, 0 désespoir, 1 place libre sur 2"


def test_the_moral_status_lives_outside_the_panel_it_reports_on(client, player, aelis, campaign):
    client.force_login(player)
    page = client.get(url("table", campaign)).content.decode()
    status = element(page, "morale-status")
    assert 'role="status"' in status
    assert page.index('id="morale-status"') < page.index('id="morale-panel"')
    panel = client.get(url("morale", campaign), **HX).content.decode()
    assert 'id="morale-status"' not in panel  # the swap leaves it in place


def test_the_roll_answer_puts_ones_own_result_under_the_button(client, player, aelis, campaign):
    client.force_login(player)
    response = client.post(url("roll", campaign), roll_data(aelis), **HX)
    body = response.content.decode()
    result = element(body, "roll-result")
    assert 'hx-swap-oob="true"' in result and 'tabindex="-1"' in result and "hidden" not in result
    roll = aelis.rolls.get()
    assert sentence_of(roll) in unescape(body[body.index('id="roll-result"') :])


def test_the_page_shows_ones_own_newest_roll_only(
    client, storyteller, player, other_player, aelis, brann, campaign
):
    older = stored_roll(campaign, player, aelis, seed=1)
    newer = stored_roll(campaign, player, aelis, seed=2)
    stored_roll(campaign, other_player, brann, seed=3)  # newest of all, but Brann's
    client.force_login(player)
    body = unescape(client.get(url("table", campaign)).content.decode())
    result = body[body.index('id="roll-result"') : body.index('id="odds"')]
    assert f'href="#event-{newer.events.get().pk}"' in result
    assert f'href="#event-{older.events.get().pk}"' not in result
    assert "Brann" not in result

    client.force_login(storyteller)  # the Conteur has rolled nothing: an empty, hidden box
    body = client.get(url("table", campaign)).content.decode()
    assert "hidden" in element(body, "roll-result")


@pytest.mark.parametrize("persona", ["player", "storyteller"])
def test_the_table_forms_have_unique_ids_named_fields_and_described_help(
    client, persona, player, storyteller, aelis, campaign
):
    from tests.characters.test_sheet_a11y import problems

    stored_roll(campaign, player, aelis)
    client.force_login(storyteller if persona == "storyteller" else player)
    html = client.get(url("table", campaign)).content.decode()
    assert "_helptext" in html  # the roll form has help texts: their ids must exist
    assert problems(html) == []
