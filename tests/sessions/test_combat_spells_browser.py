"""A healing spell at the table, on a phone (issue 14 §5): the player opens the spell panel,
sees the healing's difficulty and complexity computed from the target's sheet as the form
changes, begins the incantation, and the other player's log shows it within 2 seconds. The
browser's console stays free of errors throughout (issue 39: htmx's `hx-disabled-elt`).

`SPELL_SCREENSHOTS=/tmp/shots/spells` also writes the form at 1280 and 390 px there."""

import os

import pytest

from characters.models import Character
from sessions.models import Combatant, Encounter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


def test_a_healing_spell_on_a_phone(new_page, campaign, player, other_player):
    aelis = Character.objects.create(
        campaign=campaign, owner=player, name="Aelis", exaltation=3, combativeness=2, power=4
    )
    brann = Character.objects.create(
        campaign=campaign, owner=other_player, name="Brann", exaltation=3, resilience_points=0
    )
    Character.objects.filter(pk=brann.pk).update(vitality_current=5, vitality_scars=1)
    encounter = Encounter.objects.create(campaign=campaign, name="Crypte", status="running")
    first = Combatant.objects.create(
        encounter=encounter, character=aelis, name="Aelis", initiative=12, combativeness=2
    )
    second = Combatant.objects.create(
        encounter=encounter, character=brann, name="Brann", initiative=8
    )
    encounter.order = [
        {"combatant": first.pk, "pass": 1},
        {"combatant": second.pk, "pass": 1},
        {"combatant": first.pk, "pass": 2},
    ]
    encounter.round, encounter.turn = 1, 1
    encounter.save()
    table = f"/campaigns/{campaign.pk}/table/"
    shots = os.environ.get("SPELL_SCREENSHOTS")

    joueur = new_page()
    errors: list[str] = []
    joueur.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    joueur.on("pageerror", lambda e: errors.append(str(e)))
    joueur.set_viewport_size({"width": 390, "height": 844})
    log_in(joueur, "aelis")
    joueur.goto(table)
    autre = new_page()
    log_in(autre, "brann")
    autre.goto(table)

    joueur.get_by_text("Lancer un sort avec Aelis").click()
    form = joueur.locator("form.spell-form")
    form.wait_for()
    form.get_by_label("Guérison").check()
    form.get_by_label("Personnage soigné").select_option(label="Brann")
    complexity = joueur.locator('[data-spell="complexity"]')
    complexity.wait_for()
    assert complexity.inner_text() == "3"  # one scar (2), Résilience at 0 (+1)
    form.get_by_label("Concentration").fill("1")
    form.get_by_label("Concentration").dispatch_event("change")
    joueur.get_by_text("+1 dé de surpuissance").wait_for()
    if shots:
        box = form.bounding_box()
        half = box["height"] / 2
        for n, top in enumerate((box["y"], box["y"] + half)):
            clip = {"x": 0, "y": top, "width": 390, "height": half + 20}
            joueur.screenshot(path=f"{shots}/spell-390-{n}.png", full_page=True, clip=clip)
        wide = new_page()
        wide.set_viewport_size({"width": 1280, "height": 900})
        log_in(wide, "aelis")
        wide.goto(f"/campaigns/{campaign.pk}/table/combat/{encounter.pk}/spell/")
        wide.screenshot(path=f"{shots}/spell-1280.png", full_page=True)
    form.get_by_label("Coût en Énergie").fill("2")
    form.get_by_label("Coût en Énergie").dispatch_event("change")
    joueur.locator('[data-spell="energy"]').wait_for()
    form.get_by_role("button", name="Incanter").click()
    autre.locator(
        "#roll-log li[data-kind=combat]", has_text="Aelis commence à incanter"
    ).first.wait_for(timeout=2000)
    autre.locator('[data-combat="acting"]', has_text="Brann").wait_for(timeout=2000)
    assert errors == []  # no htmx error (hx-disabled-elt) nor any other in the console
