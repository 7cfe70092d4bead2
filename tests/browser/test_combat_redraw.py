"""The tracker is never redrawn under a click for nothing: the Conteur's own action, seen again
by the poll, leaves the tracker as it is, and a refresh asked for while an action is on its way
waits for the action's answer instead of replacing the tracker it will land in."""

import pytest

from characters.models import Character
from sessions.models import Combatant, Encounter
from tests.browser.test_combat import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Counts the tracker's own refreshes, and keeps the tracker an action drew.
WATCH = """() => {
  window.refreshes = 0;
  document.body.addEventListener("htmx:afterRequest", (e) => {
    const config = e.detail.requestConfig || {};
    if (config.verb === "get" && config.elt && config.elt.id === "combat-tracker") { window.refreshes++; }
  });
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if ((e.detail.requestConfig || {}).verb === "post") {
      window.drawnByAction = document.querySelector("#combat-tracker");
    }
  });
}"""


@pytest.fixture
def fight(campaign, player):
    aelis = Character.objects.create(campaign=campaign, owner=player, name="Aelis", exaltation=3)
    encounter = Encounter.objects.create(
        campaign=campaign, name="Embuscade", status="running", round=1, turn=1
    )
    first = Combatant.objects.create(
        encounter=encounter, character=aelis, name="Aelis", initiative=12, finesse_points=2
    )
    second = Combatant.objects.create(
        encounter=encounter, name="Brigand", initiative=8, finesse_points=2
    )
    third = Combatant.objects.create(encounter=encounter, name="Loup", initiative=5)
    encounter.order = [{"combatant": c.pk, "pass": 1} for c in (first, second, third)]
    encounter.save()
    return encounter


def turn_shown(page) -> str:
    return page.locator("#combat-tracker input[name=turn]").first.get_attribute("value")


def test_the_poll_bringing_back_the_conteurs_own_action_leaves_the_tracker_alone(
    new_page, campaign, storyteller, fight
):
    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(f"/campaigns/{campaign.pk}/table/")
    conteur.evaluate(WATCH)

    conteur.get_by_role("button", name="Action suivante").click()
    conteur.wait_for_function("() => window.drawnByAction && window.refreshes >= 1")
    assert turn_shown(conteur) == "2"
    assert conteur.evaluate("document.querySelector('#combat-tracker') === window.drawnByAction")

    # Someone else moves the fight: the next refresh does redraw it.
    Combatant.objects.filter(name="Loup").update(name="Loup gris")
    conteur.evaluate("htmx.trigger(document.body, 'combat-changed')")
    conteur.locator("#combat-tracker", has_text="Loup gris").wait_for()
    assert not conteur.evaluate(
        "document.querySelector('#combat-tracker') === window.drawnByAction"
    )


def test_a_refresh_asked_for_during_an_action_waits_for_its_answer(
    new_page, campaign, storyteller, fight
):
    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(f"/campaigns/{campaign.pk}/table/")
    conteur.evaluate(WATCH)
    held = []
    conteur.route("**/next/", lambda route: held.append(route))
    refreshes = []
    conteur.on(
        "request",
        lambda r: refreshes.append(r) if r.url.endswith("/combat/tracker/") else None,
    )

    conteur.get_by_role("button", name="Action suivante").click()
    conteur.wait_for_function("() => document.querySelector('#combat-tracker button[disabled]')")
    while not held:
        conteur.wait_for_timeout(20)
    conteur.evaluate("htmx.trigger(document.body, 'combat-changed')")
    conteur.wait_for_timeout(300)
    assert refreshes == []  # not sent: it would replace the tracker the action's answer goes to

    held[0].continue_()
    conteur.wait_for_function("() => window.drawnByAction && window.refreshes >= 1")
    assert len(refreshes) >= 1  # the refresh ran after the answer
    assert turn_shown(conteur) == "2"
