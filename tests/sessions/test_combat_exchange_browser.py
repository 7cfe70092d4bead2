"""An attack with an Impact point spent and a shield's Blocage, at the table (issue 39 §3 items
18 and 23): the player opens the spends under the attack form, Brann's player sees Blocage with
Force (the shield) and answers it.

`EXCHANGE_SCREENSHOTS=/tmp/shots/exchange` also writes the forms at 1280 and 390 px there."""

import os

import pytest
from playwright.sync_api import expect

from characters.models import Character
from sessions.models import Combatant, Encounter, Roll
from tests.dice import sevens
from tests.sessions.test_combat_grapples_browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_impact_point_spent_and_a_shield_blocage(
    new_page, campaign, player, other_player, monkeypatch
):
    monkeypatch.setattr("rules.check.system_rng", sevens)
    aelis = Character.objects.create(
        campaign=campaign, owner=player, name="Aelis", exaltation=3, strength=4, impact_points=2
    )
    brann = Character.objects.create(
        campaign=campaign, owner=other_player, name="Brann", exaltation=3, strength=5, shield=True
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
    shots = os.environ.get("EXCHANGE_SCREENSHOTS")

    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.goto(table)
    autre = new_page()
    log_in(autre, "brann")
    autre.goto(table)

    joueur.get_by_text("Attaquer avec Aelis").click()
    form = joueur.locator("[data-combat=attack] form")
    form.get_by_text("Expertise, dés, Impact, espoir et désespoir").click()
    form.get_by_label("Points d'Impact dépensés (1 dé de surpuissance chacun)").fill("1")
    if shots:
        for width in (1280, 390):
            joueur.set_viewport_size({"width": width, "height": 900})
            form.screenshot(path=f"{shots}/attack-spends-{width}.png")
    form.get_by_role("button", name="Attaquer").click()
    expect(joueur.locator("[data-combat=pending]")).to_contain_text("attaque")

    defence = autre.locator(".defence-form")
    expect(defence).to_be_visible(timeout=2500)
    expect(defence).to_contain_text("Force 5")  # Blocage with the shield: Force beats Vigueur
    expect(defence.locator("[data-combat=plain-defence]")).to_be_visible()
    if shots:
        for width in (1280, 390):
            autre.set_viewport_size({"width": width, "height": 900})
            defence.screenshot(path=f"{shots}/defence-spends-{width}.png")
    defence.get_by_text("Blocage", exact=True).click()
    defence.get_by_role("button", name="Se défendre").click()
    expect(autre.locator(".defence-form")).to_have_count(0, timeout=2500)
    assert Character.objects.get(pk=aelis.pk).impact_points == 1
    attack_roll = Roll.objects.filter(character=aelis).order_by("pk").first()
    assert len(attack_roll.breakdown["dice"]) == 2  # no skill, one Impact die
    assert Combatant.objects.get(pk=second.pk).finesse_points == 1
