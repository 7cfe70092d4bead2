"""Issue 39 item 21 through the pages: an area spell names its targets, and each target answers
its own roll as it would an attack (RULES §15 Reading "area").

Aelis's player (1280 px) begins « Onde de choc » on Brann and the Brigand, 3 damage each; at her
first slot of round 2 she ends the incantation. Brann's player (390 px) is asked at once to answer
his roll, with the defences an attack allows; he takes the blow. Then the Brigand's roll waits on
the Conteur, who answers it; the hand passes.

`AREA_SPELL_SCREENSHOTS=/dir` writes the spell form and the answers at 1280 and 390 px there.
"""

import os

import pytest
from playwright.sync_api import expect

from characters.models import Character
from tests.browser import fight_steps as do
from tests.browser.fight_steps import LIVE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("AREA_SPELL_SCREENSHOTS")


def shoot(page, locator, name: str) -> None:
    if not SHOTS:
        return
    before = page.viewport_size
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        locator.screenshot(path=f"{SHOTS}/area-{name}-{width}.png")
    page.set_viewport_size(before)


def test_each_target_of_an_area_spell_answers_its_own_roll(
    new_page, campaign, storyteller, player, other_player, monkeypatch
):
    do.install_dice(monkeypatch)
    fours = {k: 4 for k in ("strength", "vigor", "perception", "wisdom")}
    Character.objects.create(campaign=campaign, owner=player, name="Aelis", agility=8, **fours)
    Character.objects.create(
        campaign=campaign, owner=other_player, name="Brann", agility=4, **fours
    )
    table = f"/campaigns/{campaign.pk}/table/"
    desk = f"/campaigns/{campaign.pk}/table/combat/"

    conteur = new_page()
    conteur.set_viewport_size({"width": 1280, "height": 900})
    do.log_in(conteur, "conteur")
    do.create_stat_block(conteur, campaign.pk, {"Nom": "Brigand", "Agilité": 2})
    aelis = new_page()
    aelis.set_viewport_size({"width": 1280, "height": 900})
    do.log_in(aelis, "aelis")
    aelis.goto(table)
    brann = new_page()
    brann.set_viewport_size({"width": 390, "height": 844})
    do.log_in(brann, "brann")
    brann.goto(table)

    conteur.goto(desk)
    conteur.get_by_label("Nom du combat").fill("Carrefour")
    conteur.get_by_role("button", name="Ouvrir le combat").click()
    do.section(conteur, "Le groupe").get_by_role("button", name="Ajouter au combat").click()
    do.fighter(conteur, "Brann").wait_for()
    npcs = do.section(conteur, "Adversaires du bestiaire")
    npcs.get_by_label("Profil du bestiaire").select_option(label="Brigand")
    npcs.get_by_role("button", name="Ajouter").click()
    do.fighter(conteur, "Brigand 1").wait_for()
    conteur.goto(table)
    do.tracker(conteur).get_by_role("button", name="Lancer l'initiative").click()
    expect(do.acting(aelis)).to_have_text("À Aelis d'agir", timeout=LIVE)
    do.settle(aelis, "À Aelis d'agir.")

    # Aelis begins « Onde de choc » on Brann and the Brigand: one roll each, 3 damage a blow.
    aelis.get_by_text("Lancer un sort avec Aelis").click()
    spell = aelis.locator("form.spell-form")
    spell.get_by_label("Zone", exact=True).check()
    spell.get_by_label("Nom du sort").fill("Onde de choc")
    targets = spell.locator("fieldset.spell-targets")
    targets.get_by_label("Brann").check()
    targets.get_by_label("Brigand 1").check()
    spell.get_by_label("Dégâts de chaque coup").fill("3")
    shoot(aelis, spell.locator("fieldset", has_text="Cibles nommées").first, "form")
    spell.get_by_role("button", name="Incanter").click()
    expect(do.log_line(aelis, "Aelis commence à incanter « Onde de choc »")).to_be_visible()

    # Round 2: the others act, then Aelis ends the incantation.
    do.settle(conteur, "À Brann d'agir.")
    while not (
        do.round_number(conteur).inner_text() == "2"
        and do.acting(conteur).inner_text() == "À Aelis d'agir"
    ):
        now = do.acting(conteur).inner_text()
        do.tracker(conteur).get_by_role("button", name="Action suivante").click()
        expect(do.acting(conteur)).not_to_have_text(now)
        expect(conteur.locator(".htmx-request")).to_have_count(0)
    expect(do.acting(aelis)).to_have_text("À Aelis d'agir", timeout=LIVE)
    do.settle(aelis, "À Aelis d'agir.")
    aelis.get_by_text("Lancer un sort avec Aelis").click()
    pending = aelis.locator('[data-combat="incantation"]')
    expect(pending).to_contain_text("Le sort « Onde de choc » d'Aelis se résout maintenant")
    aelis.get_by_role("button", name="Achever l'incantation").click()

    # Brann is asked at once to answer his roll, with an attack's defences.
    form = brann.locator(".defence-form")
    expect(form).to_be_visible(timeout=LIVE)
    expect(brann.locator('[data-combat="pending"] .blow-head')).to_contain_text(
        "Aelis lance « Onde de choc » sur Brann"
    )
    expect(do.defence_option(brann, "Esquive")).to_be_visible()
    shoot(brann, brann.locator('[data-combat="pending"]'), "brann-asked")
    before = Character.objects.get(name="Brann").vitality_current
    do.defence_option(brann, "Aucune défense").locator("input").check()
    form.get_by_role("button", name="Se défendre").click()
    expect(do.last_blow(brann)).to_contain_text("Brann", timeout=LIVE)
    assert Character.objects.get(name="Brann").vitality_current < before

    # Then the Brigand's roll waits on the Conteur, who answers it; the hand passes.
    expect(conteur.locator('[data-combat="pending"]')).to_contain_text("Brigand 1", timeout=LIVE)
    conteur_form = conteur.locator(".defence-form")
    expect(conteur_form).to_be_visible()
    do.defence_option(conteur, "Aucune défense").locator("input").check()
    conteur_form.get_by_role("button", name="Se défendre").click()
    expect(do.last_blow(conteur)).to_contain_text("Brigand 1")
    expect(brann.locator(".defence-form")).to_have_count(0)
    do.tracker(conteur).get_by_role("button", name="Action suivante").click()
    expect(do.acting(aelis)).not_to_have_text("À Aelis d'agir", timeout=LIVE)
