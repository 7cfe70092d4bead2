"""Issue 39 §4, done when: a fight with a hidden NPC played to its end through the pages.

The Conteur (1280 px) writes a hidden « Guetteur » with one attack profile (an Arc court) in the
bestiary, opens the fight, adds the party and the Guetteur, rolls initiative; the Guetteur acts
first and shoots Aelis with one choice and a target. Aelis's player (1280 px, then 390 px) is asked
at once to answer « une attaque », the defence of best odds chosen; Brann's player (390 px) sees
the attack on Aelis, never the Guetteur. She answers, the turns go round, the Conteur ends the
fight after confirming, and every page reads the summary — without a stall.

`HIDDEN_FIGHT_SCREENSHOTS=/dir` writes the players' trackers at 1280 and 390 px there.
"""

import os
import re

import pytest
from playwright.sync_api import expect

from characters.models import Character
from tests.browser import fight_steps as do
from tests.browser.fight_steps import LIVE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("HIDDEN_FIGHT_SCREENSHOTS")


def shoot(page, name: str) -> None:
    if SHOTS:
        width = page.viewport_size["width"]
        do.tracker(page).screenshot(path=f"{SHOTS}/hidden-{name}-{width}.png")


def test_a_fight_with_a_hidden_npc_is_played_to_its_end(
    new_page, campaign, storyteller, player, other_player, monkeypatch
):
    dice = do.install_dice(monkeypatch)
    fours = {k: 4 for k in ("strength", "vigor", "agility", "perception", "wisdom")}
    Character.objects.create(campaign=campaign, owner=player, name="Aelis", **fours)
    Character.objects.create(campaign=campaign, owner=other_player, name="Brann", **fours)
    table = f"/campaigns/{campaign.pk}/table/"
    desk = f"/campaigns/{campaign.pk}/table/combat/"

    conteur = new_page()
    conteur.set_viewport_size({"width": 1280, "height": 900})
    do.log_in(conteur, "conteur")
    aelis = new_page()
    aelis.set_viewport_size({"width": 1280, "height": 900})
    do.log_in(aelis, "aelis")
    aelis.goto(table)
    brann = new_page()
    brann.set_viewport_size({"width": 390, "height": 844})
    do.log_in(brann, "brann")
    brann.goto(table)

    def nobody_sees_the_guetteur() -> None:
        for page in (aelis, brann):
            expect(page.locator("main")).not_to_contain_text("Guetteur")

    # The bestiary: a hidden Guetteur whose attack is an Arc court.
    conteur.goto(f"/campaigns/{campaign.pk}/bestiary/")
    conteur.get_by_role("link", name="Nouveau profil").click()
    conteur.get_by_label("Nom", exact=True).fill("Guetteur")
    for label in ("Agilité", "Perception", "Sagesse"):  # Finesse 8: it acts first
        conteur.get_by_label(label, exact=True).fill("8")
    conteur.get_by_label("Caché aux joueurs").check()
    conteur.locator('[name="attacks-0-weapon"]').fill("Arc court")
    conteur.locator('[name="attacks-0-characteristic"]').select_option("perception")
    conteur.locator('[name="attacks-0-skill"]').select_option("tir")
    conteur.locator('[name="attacks-0-damage"]').fill("5")
    conteur.locator('[name="attacks-0-ranged"]').check()
    if SHOTS:
        conteur.locator("fieldset.attack-profiles").screenshot(path=f"{SHOTS}/bestiary-1280.png")
    conteur.get_by_role("button", name="Enregistrer").click()
    conteur.get_by_text("Profil « Guetteur » ajouté au bestiaire.").wait_for()
    expect(conteur.locator(".stat-block", has_text="Guetteur")).to_contain_text("Arc court")

    # The fight: the party and the Guetteur (hidden, as its profile says); initiative.
    conteur.goto(desk)
    conteur.get_by_label("Nom du combat").fill("Lisière")
    conteur.get_by_role("button", name="Ouvrir le combat").click()
    do.section(conteur, "Le groupe").get_by_role("button", name="Ajouter au combat").click()
    do.fighter(conteur, "Brann").wait_for()
    npcs = do.section(conteur, "Adversaires du bestiaire")
    npcs.get_by_label("Profil du bestiaire").select_option(label="Guetteur")
    npcs.get_by_role("button", name="Ajouter").click()
    expect(do.fighter(conteur, "Guetteur 1")).to_contain_text("caché")
    dice.next(then=6)  # the same die for all: Finesse decides
    conteur.goto(table)
    do.tracker(conteur).get_by_role("button", name="Lancer l'initiative").click()
    expect(do.acting(conteur)).to_have_text("À Guetteur 1 d'agir")
    expect(do.round_number(brann)).to_have_text("1", timeout=LIVE)
    nobody_sees_the_guetteur()

    # The Guetteur shoots Aelis: one choice (its Arc court, already chosen) and a target.
    conteur.get_by_text("Attaquer avec Guetteur 1").click()
    form = conteur.locator('[data-combat="attack"] form')
    expect(form.get_by_label("Attaque du profil")).to_contain_text("Arc court")
    form.get_by_label("Cible").select_option(label="Aelis")
    shoot(conteur, "conteur-attack")
    form.get_by_role("button", name="Attaquer", exact=True).click()
    expect(conteur.locator('[data-combat="pending"] .blow-head')).to_contain_text(
        "Guetteur 1 attaque Aelis"
    )

    # Aelis's player is asked at once, without learning who shoots; the best defence is chosen.
    masked = aelis.locator('[data-combat="masked"]')
    expect(masked).to_contain_text("Une attaque vise Aelis", timeout=LIVE)
    expect(aelis.locator(".defence-form")).to_be_visible()
    odds = {}
    for option in aelis.locator(".defence-form .defence-option").all():
        shown = option.locator(".defence-odds")
        if shown.count():
            odds[option.locator("input").get_attribute("value")] = float(
                re.sub(r"[^\d,]", "", shown.inner_text()).replace(",", ".")
            )
    best = max(odds, key=odds.get)
    expect(aelis.locator(f'.defence-form input[value="{best}"]')).to_be_checked()
    expect(aelis.locator("#nav-notifications")).to_contain_text("1", timeout=LIVE)  # told
    expect(brann.locator('[data-combat="masked"]')).to_contain_text(
        "Une attaque vise Aelis", timeout=LIVE
    )
    expect(brann.locator(".defence-form")).to_have_count(0)
    nobody_sees_the_guetteur()
    shoot(aelis, "aelis-asked")
    shoot(brann, "brann-asked")
    aelis.set_viewport_size({"width": 390, "height": 844})
    shoot(aelis, "aelis-asked")
    aelis.set_viewport_size({"width": 1280, "height": 900})

    # She answers: her page tells her what happened to her, not who did it.
    aelis.locator(".defence-form").get_by_role("button", name="Se défendre").click()
    expect(do.last_blow(aelis)).to_contain_text("Aelis")
    expect(do.last_blow(brann)).to_contain_text("Aelis", timeout=LIVE)
    nobody_sees_the_guetteur()
    shoot(aelis, "aelis-answered")
    shoot(brann, "brann-answered")

    # The turns go round: no stall.
    do.tracker(conteur).get_by_role("button", name="Action suivante").click()
    expect(do.acting(aelis)).to_have_text("À Aelis d'agir", timeout=LIVE)
    do.settle(aelis, "À Aelis d'agir.")
    do.end_action(aelis, "Brann", button="Finir mon action")
    do.tracker(brann).get_by_role("button", name="Finir mon action").click()
    expect(do.round_number(conteur)).to_have_text("2", timeout=LIVE)

    # The Conteur ends the fight after confirming; everyone reads the summary.
    conteur.goto(desk)
    conteur.get_by_role("link", name="Terminer le combat…").click()
    expect(conteur.get_by_role("heading", name="Terminer le combat « Lisière » ?")).to_be_visible()
    conteur.get_by_role("button", name="Terminer le combat").click()
    for page in (aelis, brann):
        expect(do.log_line(page, "Bilan du combat « Lisière »")).to_be_visible(timeout=LIVE)
    taken = 15 - Character.objects.get(name="Aelis").vitality_current
    expect(do.log_line(aelis, "Bilan du combat")).to_contain_text(
        f"Aelis inflige 0 et reçoit {taken}"
    )
    nobody_sees_the_guetteur()
