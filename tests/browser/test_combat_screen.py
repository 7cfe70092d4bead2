"""The Conteur's screen (issue 14 §8), live: it stays open while a player ends her action, the
Conteur marks an NPC out of the fight and gives the group hope from other pages, and each change
shows on it within 2 s (the table's poll). At 1280 px a table, at 390 px one card per combatant,
nothing wider than the screen; axe finds nothing. SHOTS_DIR (default /tmp) keeps screenshots."""

import os

import pytest
from axe_playwright_python.sync_playwright import Axe

from characters.models import Character
from sessions.models import Combatant, Encounter, MoralePool
from tests.browser.test_combat import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("SHOTS_DIR", "/tmp")


def fight(campaign, player, other_player) -> Encounter:
    aelis = Character.objects.create(
        campaign=campaign, owner=player, name="Aelis", exaltation=3, strength=4,
        vitality_current=0, vitality_scars=2, vitality_peril=True, agony=1, resilience_points=2,
    )  # fmt: skip
    brann = Character.objects.create(
        campaign=campaign, owner=other_player, name="Brann", exaltation=3, special_state="fury",
        energy_current=20, exhaustion=1,
    )  # fmt: skip
    encounter = Encounter.objects.create(
        campaign=campaign, name="Embuscade au gué", status="running", round=2, turn=1
    )
    gauges = {
        g: {"maximum": m, "current": m, "scars": 0}
        for g, m in (("vitality", 20), ("energy", 10), ("confidence", 10))
    }
    people = [
        Combatant(encounter=encounter, character=aelis, name="Aelis", initiative=14),
        Combatant(encounter=encounter, name="Ombre", hidden=True, initiative=12, combativeness=2,
                  profile={"gauges": {**gauges, "vitality": {"maximum": 20, "current": 7,
                                                              "scars": 3}}},
                  agony=0, aggravation=1),
        Combatant(encounter=encounter, name="Brigand 1", initiative=9, profile={"gauges": gauges}),
        Combatant(encounter=encounter, character=brann, name="Brann", initiative=8),
    ]  # fmt: skip
    for c in people:
        c.finesse, c.finesse_points = 3, 2
        c.save()
    ombre = people[1]
    encounter.order = [{"combatant": c.pk, "pass": 1} for c in people] + [
        {"combatant": ombre.pk, "pass": 2}
    ]
    encounter.save()
    MoralePool.objects.update_or_create(campaign=campaign, defaults={"hope": 1, "fate": 2})
    return encounter


def fits(page, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    widest = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('#combat-screen *')]"
        ".filter(e => !e.closest('thead, caption, .visually-hidden'))"  # clipped, for readers
        ".map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= width


def test_the_screen_follows_the_fight_live(new_page, campaign, storyteller, player, other_player):
    encounter = fight(campaign, player, other_player)
    screen_url = f"/campaigns/{campaign.pk}/table/combat/{encounter.pk}/screen/"
    table = f"/campaigns/{campaign.pk}/table/"

    screen = new_page()
    screen.set_viewport_size({"width": 1280, "height": 900})
    log_in(screen, "conteur")
    screen.goto(screen_url)
    assert screen.locator('[data-screen="acting"]').inner_text() == "Aelis"
    ombre = screen.locator("tr", has_text="Ombre")
    assert "caché" in ombre.inner_text() and "7/20" in ombre.inner_text()
    assert "péril" in screen.locator("tr", has_text="Aelis").inner_text()
    assert "Acharnement" in screen.locator("tr", has_text="Brann").inner_text()
    fits(screen, 1280)
    screen.screenshot(path=f"{SHOTS}/combat-screen-1280.png", full_page=True)

    # Aelis's player ends her action at the table: the screen names Ombre within 2 s.
    joueuse = new_page()
    log_in(joueuse, "aelis")
    joueuse.goto(table)
    joueuse.get_by_role("button", name="Finir mon action").click()
    screen.locator('[data-screen="acting"]', has_text="Ombre").wait_for(timeout=2000)
    screen.locator('[data-screen="next"]', has_text="Brigand 1").wait_for(timeout=500)

    # From the combat page the Conteur puts Brigand 1 out of the fight: shown, and skipped.
    desk = new_page()
    log_in(desk, "conteur")
    desk.goto(f"/campaigns/{campaign.pk}/table/combat/")
    brigand = desk.locator("li.fighter", has_text="Brigand 1")
    brigand.get_by_label("État de Brigand 1").select_option("unconscious")
    brigand.get_by_role("button", name="Changer l'état").click()
    screen.locator("tr", has_text="Brigand 1").get_by_text("Inconscient").wait_for(timeout=2000)
    screen.locator('[data-screen="next"]', has_text="Brann").wait_for(timeout=500)

    # The group gains hope at the table: the screen's Moral follows (`morale-changed`).
    desk.goto(table)
    desk.locator("#morale-panel").get_by_role("button", name="+1 espoir").click()
    screen.locator('[data-screen="hope"]', has_text="2").wait_for(timeout=2000)

    axe = Axe()
    found = axe.run(screen).response["violations"]
    assert not found, [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found]

    # A phone: one card per combatant, every figure labelled, nothing wider than the screen.
    screen.set_viewport_size({"width": 390, "height": 844})
    screen.reload()
    fits(screen, 390)
    card = screen.locator("tr", has_text="Ombre")
    assert "Vitalité" in card.inner_text() and "Finesse" in card.inner_text()
    assert card.bounding_box()["height"] > 100  # a card, not a table row
    found = axe.run(screen).response["violations"]
    assert not found, [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found]
    screen.screenshot(path=f"{SHOTS}/combat-screen-390.png", full_page=True)
