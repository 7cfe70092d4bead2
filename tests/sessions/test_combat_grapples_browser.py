"""A grapple at the table (issue 14 §4): the player opens « Tenter une prise », holds Brann in
an Étreinte; the other player's page shows the state within 2 seconds and offers only
« Se libérer » on Brann's action.

`GRAPPLE_SCREENSHOTS=/tmp` also writes the forms at 1280 and 390 px there."""

import os

import pytest
from playwright.sync_api import expect

from characters.models import Character
from sessions.models import Combatant, Encounter
from tests.dice import sevens

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


def test_an_etreinte_at_the_table(new_page, campaign, player, other_player, monkeypatch):
    monkeypatch.setattr("rules.check.system_rng", sevens)
    aelis = Character.objects.create(
        campaign=campaign, owner=player, name="Aelis", exaltation=3, strength=4
    )
    brann = Character.objects.create(
        campaign=campaign, owner=other_player, name="Brann", exaltation=3
    )
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe", status="running")
    first = Combatant.objects.create(
        encounter=encounter, character=aelis, name="Aelis", initiative=12, finesse_points=2
    )
    second = Combatant.objects.create(
        encounter=encounter, character=brann, name="Brann", initiative=8, finesse_points=2
    )
    encounter.order = [{"combatant": first.pk, "pass": 1}, {"combatant": second.pk, "pass": 1}]
    encounter.round, encounter.turn = 1, 1
    encounter.save()
    table = f"/campaigns/{campaign.pk}/table/"
    shots = os.environ.get("GRAPPLE_SCREENSHOTS")

    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.goto(table)
    autre = new_page()
    log_in(autre, "brann")
    autre.goto(table)

    joueur.get_by_text("Tenter une prise avec Aelis").click()
    form = joueur.locator("[data-combat=grapple] form")
    expect(form.get_by_label("Prise", exact=True)).to_be_visible()
    if shots:
        for width in (1280, 390):
            joueur.set_viewport_size({"width": width, "height": 900})
            form.screenshot(path=f"{shots}/grapple-form-{width}.png")
    form.get_by_label("Prise", exact=True).select_option("embrace")
    form.get_by_role("button", name="Tenter la prise").click()
    expect(joueur.locator("[data-combat=pending]")).to_contain_text("tente une Étreinte sur")

    defence = autre.locator(".defence-form")
    expect(defence).to_be_visible(timeout=2500)
    defence.get_by_text("Aucune défense").click()
    defence.get_by_role("button", name="Se défendre").click()
    expect(joueur.locator("[data-combat=grapple-state]")).to_have_text(
        "dans l’étreinte d’Aelis".replace("’", "'"), timeout=2500
    )
    joueur.get_by_role("button", name="Finir mon action").click()
    escape = autre.locator("[data-combat=escape]")
    expect(escape).to_be_visible(timeout=2500)
    expect(autre.get_by_text("Attaquer avec Brann")).to_have_count(0)
    if shots:
        for width in (1280, 390):
            autre.set_viewport_size({"width": width, "height": 900})
            escape.screenshot(path=f"{shots}/grapple-escape-{width}.png")
    escape.get_by_role("button", name="Se libérer").click()
    expect(autre.locator("#combat-tracker")).not_to_contain_text("Se libérer", timeout=2500)
    assert Combatant.objects.get(pk=second.pk).held_by_id == first.pk  # 7 + 2 < 11
