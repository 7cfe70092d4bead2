"""A hidden NPC's attack on the tracker page (issue 39 §4): the player is asked to defend against
« une attaque », the defence of best odds chosen for them, and their answer works with and
without HTMX; the log tells them what happened to their character."""

import re
from html import unescape

import pytest

from sessions.models import Encounter, TableEvent
from tests.dice import Faces
from tests.sessions.combat_fixtures import HTMX, loup_bites, running_fight, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def bitten(campaign, storyteller, as_member, aelis, brann):
    """The hidden Loup (acting) attacks Aelis: 7 on the die, waiting for her defence."""
    conteur = as_member(campaign, storyteller)
    encounter = running_fight(
        conteur, storyteller, aelis, brann, hidden=True, each={"finesse_points": 2}
    )
    loup_bites(conteur, storyteller, encounter, faces=Faces(7, 2))
    return encounter


def options(page: str) -> dict[str, tuple[bool, float | None]]:
    """Each defence offered: (checked, its odds in %)."""
    form = page.split('class="defence-form"', 1)[1].split("</form>", 1)[0]
    found = {}
    for label in form.split('<label class="defence-option')[1:]:
        key = re.search(r'name="defence" value="(\w+)"', label).group(1)
        odds = re.search(r'class="defence-odds"[^>]*>([\d,]+)', label)
        checked = re.search(r'value="\w+"[^>]*\bchecked\b', label) is not None
        found[key] = (checked, float(odds.group(1).replace(",", ".")) if odds else None)
    return found


def test_the_player_sees_une_attaque_with_the_best_defence_chosen(
    campaign, bitten, player_client, client_for, other_player
):
    page = unescape(player_client.get(url(campaign, "table")).content.decode())
    assert "Une attaque" in page and "Se défendre" in page
    assert "Loup" not in page
    offered = options(page)
    (chosen,) = [key for key, (checked, _odds) in offered.items() if checked]
    best = max((odds, key) for key, (_c, odds) in offered.items() if odds is not None)
    assert offered[chosen][1] == best[0]
    theirs = unescape(client_for(other_player).get(url(campaign, "table")).content.decode())
    assert "Loup" not in theirs and "Se défendre" not in theirs


@pytest.mark.parametrize("htmx", [True, False])
def test_the_players_answer_works_and_the_log_says_what_happened(
    campaign, bitten, player_client, aelis, htmx
):
    pending = Encounter.objects.get().pending_attack
    response = player_client.post(
        url(campaign, "combat_defend", bitten.pk),
        {"attack": pending["id"], "defence": "none", "complexity": 0, "critical": "table"},
        **(HTMX if htmx else {}),
    )
    assert response.status_code == (200 if htmx else 302)
    assert not Encounter.objects.get().pending_attack
    aelis.refresh_from_db()
    lost = 15 - aelis.vitality_current
    assert lost > 0
    page = unescape(player_client.get(url(campaign, "table")).content.decode())
    assert f"Une attaque inflige {lost} points de Vitalité à Aelis." in page
    assert "Loup" not in page
    seen = TableEvent.objects.filter(visibility="public", summary__contains="Une attaque")
    assert seen.count() == 2  # the attack declared, the blow


def test_ending_a_fight_asks_for_confirmation(campaign, bitten, storyteller_client, player_client):
    page = unescape(storyteller_client.get(url(campaign, "combat")).content.decode())
    end = url(campaign, "combat_end", bitten.pk)
    assert f'href="{end}"' in page  # a link to a confirmation, not a button that ends at once
    asked = unescape(storyteller_client.get(end).content.decode())
    assert "Terminer le combat « Embuscade » ?" in asked and 'method="post"' in asked
    assert Encounter.objects.get().status == "running"
    assert player_client.get(end).status_code == 403
    assert storyteller_client.post(end, {"back": "combat"}).status_code == 302
    assert Encounter.objects.get().status == "ended"
