"""Issue 14's « Done when »: one whole fight played through the pages, as people would.

The Conteur (1280 px) writes the « Brigand » stat block in the bestiary, opens the encounter,
adds the party and « Brigand ×4 » hidden, rolls initiative and reveals them; Aelis's player
(1280 px) and Brann's (390 px, « the second player's page ») attack, defend and cast from their
table pages; the Conteur defends for the NPCs, delays a turn, puts a brigand out of the fight and
moves the turns on. After each step Brann's page shows it within 2 s, and it never names a hidden
brigand before it is revealed.

The dice are scripted (`tests.dice.Faces`): each step says the faces it draws and checks it drew
exactly those. Every check below has one d10 (skill 0, complexity 0, §5), but the healing spell.

Initiative (Finesse check, §5 Reading): Aelis 8+4=12, Brann 8+3=11, Brigand 1 8+2=10,
Brigand 2 7+2=9, Brigand 3 6+2=8, Brigand 4 5+2=7. Aelis and the brigands have Combativité 2.

`FIGHT_SCREENSHOTS=/dir` also writes the tracker mid-fight at 1280 and 390 px there.
"""

import os

import pytest
from playwright.sync_api import expect

from characters.models import Character
from sessions.models import Encounter
from tests.browser import fight_steps as do
from tests.browser.fight_steps import LIVE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("FIGHT_SCREENSHOTS")
BRIGAND = {
    "Nom": "Brigand",
    "Agilité": 3,
    "Perception": 2,
    "Sagesse": 2,  # Finesse floor(7/3) = 2
    "Force": 3,
    "Vigueur": 2,  # Corps floor((3+2+3)/3) = 2: its damage bonus on Vitalité
    "Combativité": 2,
    "Vitalité maximale": 12,
    "Armure": 5,
    "Résistance": 1,
    "Notes": "Coupe-jarrets du gué.",
}


def party(campaign, player, other_player):
    """Aelis: Corps 4, Finesse 4, Pouvoir 4, Combativité 2. Brann: Corps 3 (his résistance),
    Finesse 3, Résilience floor((3+2+2)/3) = 2, already hurt: Vitalité 6/50 with 5 scars."""
    fours = {k: 4 for k in ("strength", "vigor", "agility", "perception", "wisdom", "power")}
    Character.objects.create(
        campaign=campaign, owner=player, name="Aelis", exaltation=3, combativeness=2, **fours
    )
    threes = {k: 3 for k in ("strength", "vigor", "agility", "perception", "wisdom")}
    return Character.objects.create(
        campaign=campaign, owner=other_player, name="Brann", exaltation=3,
        vitality_current=6, vitality_scars=5, **threes,
    )  # fmt: skip


def shoot(pages, name: str, newest: str) -> None:
    """Each page's tracker, once its newest combat line is `newest` and nothing is in flight
    (a refresh swapping the tracker mid-shot would detach it)."""
    if SHOTS:
        for page, width in pages:
            do.settle(page, newest)
            do.tracker(page).screenshot(path=f"{SHOTS}/fight-{name}-{width}.png")


def test_a_whole_fight(new_page, campaign, storyteller, player, other_player, monkeypatch):
    dice = do.install_dice(monkeypatch)
    brann_sheet = party(campaign, player, other_player)
    table = f"/campaigns/{campaign.pk}/table/"
    desk = f"/campaigns/{campaign.pk}/table/combat/"

    conteur = new_page()
    conteur.set_viewport_size({"width": 1280, "height": 900})
    do.log_in(conteur, "conteur")
    aelis = new_page()
    aelis.set_viewport_size({"width": 1280, "height": 900})
    do.log_in(aelis, "aelis")
    aelis.goto(table)
    brann = new_page()  # the second player's page, on a phone
    brann.set_viewport_size({"width": 390, "height": 844})
    do.log_in(brann, "brann")
    brann.goto(table)
    players = (aelis, brann)

    def nobody_hidden(*names: str) -> None:
        """Hidden NPCs never reach a player's page: not in the tracker, not in the log."""
        for page in players:
            for name in names:
                expect(page.locator("main")).not_to_contain_text(name)

    # --- the bestiary, the encounter, the party and « Brigand ×4 » hidden ---------------------
    do.create_stat_block(conteur, campaign.pk, BRIGAND)
    block = conteur.locator(".stat-block", has_text="Brigand")
    expect(block).to_contain_text("Blocage 5")  # §13: Vigueur, or the armour's value: the best
    expect(block).to_contain_text("Parade 3")
    conteur.goto(desk)
    conteur.get_by_label("Nom du combat").fill("Embuscade au gué")
    conteur.get_by_role("button", name="Ouvrir le combat").click()
    do.section(conteur, "Le groupe").get_by_role("button", name="Ajouter au combat").click()
    do.fighter(conteur, "Brann").wait_for()
    npcs = do.section(conteur, "Adversaires du bestiaire")
    npcs.get_by_label("Profil du bestiaire").select_option(label="Brigand")
    npcs.get_by_label("Nombre").fill("4")
    npcs.get_by_label("Visibles des joueurs ?").select_option(label="cachés")
    npcs.get_by_role("button", name="Ajouter").click()
    for n in range(1, 5):
        expect(do.fighter(conteur, f"Brigand {n}")).to_contain_text("caché")
    expect(do.tracker(brann)).to_contain_text("Aelis, Brann", timeout=LIVE)
    nobody_hidden("Brigand")

    # --- initiative (§13): one button; the hidden brigands' results stay hidden ---------------
    dice.next(8, 8, 8, 7, 6, 5, then=6)
    do.tracker(conteur).get_by_role("button", name="Lancer l'initiative").click()
    expect(do.round_number(conteur)).to_have_text("1")
    dice.spent(8, 8, 8, 7, 6, 5)
    expect(do.tracker(conteur).locator(".upcoming")).to_contain_text(
        "Brann · Brigand 1 · Brigand 2 · Brigand 3"
    )
    expect(do.round_number(brann)).to_have_text("1", timeout=LIVE)
    expect(do.acting(brann)).to_have_text("À Aelis d'agir", timeout=LIVE)
    expect(do.log_line(brann, "Initiative : Aelis 12, Brann 11.")).to_be_visible(timeout=LIVE)
    nobody_hidden("Brigand")

    # Revealed one by one: each appears on Brann's page within 2 s, the others still do not.
    for n in range(1, 5):
        do.reveal(conteur, f"Brigand {n}")
        expect(do.tracker(brann)).to_contain_text(f"Brigand {n}", timeout=LIVE)
        expect(do.log_line(brann, f"Brigand {n} entre en scène.")).to_be_visible(timeout=LIVE)
        nobody_hidden(*(f"Brigand {m}" for m in range(n + 1, 5)))
    ranked = brann.locator(".initiative-list li")
    names = ["Aelis", "Brann", "Brigand 1", "Brigand 2", "Brigand 3", "Brigand 4"]
    expect(ranked.locator(".name")).to_have_text(names)
    expect(ranked.locator(".init")).to_have_text(["12", "11", "10", "9", "8", "7"])
    conteur.goto(table)
    do.settle(conteur, "Brigand 4 entre en scène.")

    # --- round 1 · Aelis attacks Brigand 1, who parries (§13: Parade, Agilité) ----------------
    do.settle(aelis, "Brigand 4 entre en scène.")
    dice.next(3, then=6)
    do.attack(aelis, "Aelis", "Brigand 1", damage=5)
    dice.spent(3)  # 3 + Force 4 = 7
    # The blow holds the turn until it is defended: no « Finir mon action » meanwhile.
    expect(do.tracker(aelis).get_by_role("button", name="Finir mon action")).to_have_count(0)
    expect(brann.locator('[data-combat="pending"]')).to_contain_text(
        "Aelis attaque Brigand 1 · jet d'attaque : 7", timeout=LIVE
    )
    expect(do.defence_option(conteur, "Parade")).to_contain_text("Agilité 3")
    dice.next(8, then=6)
    parried = "Défense de Brigand 1 (Parade) : 11 contre 7, réussie. Brigand 1 évite le coup."
    do.defend(conteur, "Parade", shows=parried)
    dice.spent(8)
    expect(do.last_blow(brann)).to_contain_text(parried, timeout=LIVE)
    do.settle(aelis, parried)
    do.end_action(aelis, "Brann", button="Finir mon action")
    expect(do.acting(brann)).to_have_text("À Brann d'agir", timeout=LIVE)

    # --- Brann attacks Brigand 2, who blocks with its armour -------------------------------------
    # §13: « Blocage (Rigidité; Vigueur, or the armour's value, or Force with a shield) ».
    do.settle(brann, "À Brann d'agir.")
    dice.next(4, then=6)
    do.attack(brann, "Brann", "Brigand 2", damage=4)
    dice.spent(4)  # 4 + Force 3 = 7
    expect(do.defence_option(conteur, "Blocage")).to_contain_text("Armure 5 · Rigidité 0")
    dice.next(6, then=6)
    blocked = "Défense de Brigand 2 (Blocage) : 11 contre 7, réussie. Brigand 2 évite le coup."
    do.defend(conteur, "Blocage", shows=blocked)
    dice.spent(6)  # 6 + the armour's 5
    expect(do.last_blow(brann)).to_contain_text(blocked, timeout=LIVE)
    do.settle(brann, blocked)
    do.end_action(brann, "Brigand 1", button="Finir mon action")
    expect(do.acting(aelis)).to_have_text("À Brigand 1 d'agir", timeout=LIVE)

    # --- Brigand 1's critical on Brann, and its Aggravation ---------------------------------------
    # §5: « a kept 10 is a critical success »; an explosion: 10 + its chain (2) = 12, + Force 3.
    do.settle(conteur, "À Brigand 1 d'agir.")
    dice.next(10, 2, then=6)
    do.attack(conteur, "Brigand 1", "Brann", damage=7, npc_value=3)
    dice.spent(10, 2)
    pending = brann.locator('[data-combat="pending"]')
    expect(pending).to_contain_text("jet d'attaque : 15", timeout=LIVE)
    expect(pending.locator(".badge")).to_have_text(["réussite critique", "explosion"])
    # §13: Esquive « only mitigates explosions »; « no parry against explosions ».
    expect(do.defence_option(brann, "Esquive")).to_contain_text("Ne fait qu'atténuer une explosion")
    parry = do.defence_option(brann, "Parade")
    expect(parry).to_contain_text("Impossible contre une explosion.")
    expect(parry.locator("input")).to_be_disabled()
    do.settle(brann, "À Brann de choisir sa défense.")
    shoot([(conteur, 1280), (brann, 390)], "critical", "À Brann de choisir sa défense.")
    # The Esquive fails (2 + Agilité 3 = 5 < 15); then the Aggravation table's d10: 3.
    dice.next(2, 3, then=6)
    do.defend(brann, "Esquive", shows="Brann tombe inconscient pour 1 tour.")
    dice.spent(2, 3)
    blow = do.last_blow(aelis)
    for text in (
        "Défense de Brann (Esquive) : 5 contre 15, ratée.",
        # §8: base 7 + Brigand's Corps 2, less Brann's résistance (his Corps, 3) = 6.
        "Brann subit 6 dégâts. Vitalité : 6 → 0. Vitalité en péril jusqu'à stabilisation.",
        # §8: « each critical suffered adds a level »; Fragilité 0 row: « 1–5 Fragilisation ».
        "Brann subit un critique (Aggravation 1) : d10 tiré 3 sur la ligne Fragilité 0 → "
        "Fragilisation",
        # §8: « At 0 Vitalité the victim also falls unconscious for max(Aggravation, Agonie) ».
        "Brann tombe inconscient pour 1 tour.",
    ):
        expect(blow).to_contain_text(text, timeout=LIVE)
        expect(do.last_blow(brann)).to_contain_text(text)
    brann_sheet.refresh_from_db()
    assert (brann_sheet.vitality_current, brann_sheet.agony, brann_sheet.aggravation) == (0, 1, 1)
    assert brann_sheet.fragility == 1  # the sheet itself, through the versioned path
    expect(brann.locator(".out-of-fight")).to_contain_text("Brann — Inconscient")

    # --- a delayed turn: Brigand 2 waits, Brigand 3 acts at once, then Brigand 2 -------------------
    do.settle(conteur, "Brann tombe inconscient pour 1 tour.")
    do.end_action(conteur, "Brigand 2")
    expect(do.acting(brann)).to_have_text("À Brigand 2 d'agir", timeout=LIVE)
    do.delay(conteur, "Brigand 3")
    expect(do.acting(brann)).to_have_text("À Brigand 3 d'agir", timeout=LIVE)
    expect(brann.locator('[data-combat="next"]').first).to_have_text("Brigand 2")
    expect(do.log_line(brann, "Brigand 2 retarde son action.")).to_be_visible()
    do.end_action(conteur, "Brigand 2")
    expect(do.acting(brann)).to_have_text("À Brigand 2 d'agir", timeout=LIVE)
    do.end_action(conteur, "Brigand 4")
    expect(do.acting(brann)).to_have_text("À Brigand 4 d'agir", timeout=LIVE)
    # §13: « every character acts once, then those with Combativité ≥ 2 act again ».
    do.end_action(conteur, "Aelis", 2)
    expect(do.acting(brann)).to_have_text("À Aelis d'agir (2ᵉ action)", timeout=LIVE)

    # --- a non-lethal blow on Brigand 4: no damage bonus, no scars (§8) ---------------------------
    do.settle(aelis, "À Aelis (2ᵉ action) d'agir.")
    dice.next(5, then=6)
    do.attack(aelis, "Aelis", "Brigand 4", damage=5, nonlethal=True)
    dice.spent(5)
    expect(brann.locator('[data-combat="pending"]')).to_contain_text("non létale", timeout=LIVE)
    # Base 5, without Aelis's Corps 4, less the block's résistance 1: 4 (a lethal blow: 8).
    gentle = "Brigand 4 subit 4 dégâts. Vitalité : 12 → 8."
    dice.next(then=6)
    do.defend(conteur, "Aucune défense", shows=gentle)
    dice.spent()
    expect(do.last_blow(brann)).to_contain_text(gentle, timeout=LIVE)

    # The Conteur puts Brigand 4 out of the fight (it surrenders), from the combat page.
    conteur.goto(desk)
    do.set_status(conteur, "Brigand 4", "Vaincu")
    expect(do.log_line(brann, "Brigand 4 est vaincu.")).to_be_visible(timeout=LIVE)
    expect(brann.locator(".out-of-fight")).to_contain_text("Brigand 4 — Vaincu", timeout=LIVE)
    expect(brann.locator(".initiative-list")).not_to_contain_text("Brigand 4")
    conteur.goto(table)
    do.settle(conteur, "Brigand 4 est vaincu.")
    do.settle(aelis, "Brigand 4 est vaincu.")
    do.end_action(aelis, "Brigand 1", 2, button="Finir mon action")
    expect(do.acting(brann)).to_have_text("À Brigand 1 d'agir (2ᵉ action)", timeout=LIVE)
    do.settle(conteur, "À Brigand 1 (2ᵉ action) d'agir.")
    do.end_action(conteur, "Brigand 2", 2)
    do.end_action(conteur, "Brigand 3", 2)
    expect(do.acting(brann)).to_have_text("À Brigand 3 d'agir (2ᵉ action)", timeout=LIVE)
    # Brigand 4's second action is still in the round's order, but it will be skipped.
    assert Encounter.objects.get().order[-1]["pass"] == 2
    expect(do.tracker(brann).locator(".upcoming")).to_have_text(
        "Dernière action du tour : ensuite, un nouveau tour."
    )

    # --- round 2: the defeated brigand skipped across the round change; the turn's effects -------
    # §8 Péril: « at each turn start, for each gauge in péril, a check with characteristic =
    # Résilience score … difficulty = that gauge's scars; on failure the gauge gains as many
    # scars as the margin of failure », built with his Agonie (§13 Product): 3 + Résilience 2 = 5
    # against 5 scars + Agonie 1, one more. Knocked out for 1 round in round 1, Brann misses
    # round 2 (§8 Reading: « its next max(Aggravation, Agonie) rounds »).
    dice.next(3, then=6)
    do.end_action(conteur, "Aelis")
    dice.spent(3)
    expect(do.round_number(brann)).to_have_text("2", timeout=LIVE)
    expect(do.acting(brann)).to_have_text("À Aelis d'agir", timeout=LIVE)
    for text in (
        "Péril (Vitalité) : Brann fait 5 contre 6, raté : 1 cicatrice de plus.",
        "Tour 2 : Aelis, Brigand 1, Brigand 2, Brigand 3, Aelis (2ᵉ action), "
        "Brigand 1 (2ᵉ action), Brigand 2 (2ᵉ action), Brigand 3 (2ᵉ action).",
    ):
        expect(do.log_line(brann, text)).to_be_visible(timeout=LIVE)
    expect(brann.locator(".initiative-list")).not_to_contain_text("Brigand 4")
    expect(brann.locator(".initiative-list")).not_to_contain_text("Brann")
    shoot([(aelis, 1280), (brann, 390)], "round-2", "À Aelis d'agir.")

    # --- a healing spell on Brann, its difficulty and complexity computed from his sheet --------
    # §15: « difficulty = wounds to heal; complexity by scars against the gauge maximum: 1 no
    # scar; 2 at least one; 3 ≥ 1/10; … +1 each if the gauge is at 0, Résilience is at 0, or the
    # gauge is in péril »: 6 scars on 50 (≥ 1/10) 3, + 1 + 1 + 1 = 6; 50 wounds to heal.
    do.settle(aelis, "À Aelis d'agir.")
    aelis.get_by_text("Lancer un sort avec Aelis").click()
    spell = aelis.locator("form.spell-form")
    spell.get_by_label("Guérison").check()
    spell.get_by_label("Nom du sort").fill("Souffle de vie")
    spell.get_by_label("Personnage soigné").select_option(label="Brann")
    expect(aelis.locator('[data-spell="complexity"]')).to_have_text("6")
    expect(aelis.locator('[data-spell="difficulty"]')).to_have_text("50")
    reasons = "6 cicatrices sur 50 : 3, +1 constitution à 0, +1 Résilience à 0, +1 en péril"
    expect(aelis.locator('[data-spell="healing"]')).to_contain_text(reasons)
    # §15 focus: « +1 die, keep the best », paid with the Combativité of her second action.
    spell.get_by_label("Concentration").fill("1")
    spell.get_by_label("Concentration").dispatch_event("change")
    expect(aelis.locator('[data-spell="incantation"]')).to_contain_text("+1 dé de surpuissance")
    expect(aelis.locator(".htmx-request")).to_have_count(0)
    # §15 Reading (incantation): begun now, it resolves at her first slot of round 3.
    # Brann, knocked out, misses round 2: the turn passes to Brigand 1.
    spell.get_by_role("button", name="Incanter").click()
    expect(do.acting(aelis)).to_have_text("À Brigand 1 d'agir")
    cast = do.log_line(brann, "Aelis commence à incanter « Souffle de vie »")
    expect(cast).to_contain_text(
        f"sur Brann (Vitalité) : difficulté 50 (blessures à soigner), complexité 6 ({reasons})",
        timeout=LIVE,
    )
    expect(cast).to_contain_text("L'incantation prend le reste du tour d'Aelis (1 action).")
    expect(do.acting(brann)).to_have_text("À Brigand 1 d'agir", timeout=LIVE)

    # --- the rest of round 2, then round 3's Agonie and Péril --------------------------------------
    do.settle(conteur, "À Brigand 1 d'agir.")
    for name, n in (("Brigand 2", 1), ("Brigand 3", 1), ("Brigand 1", 2), ("Brigand 2", 2)):
        do.end_action(conteur, name, n)
    do.end_action(conteur, "Brigand 3", 2)
    expect(do.acting(brann)).to_have_text("À Brigand 3 d'agir (2ᵉ action)", timeout=LIVE)
    # §8 Agonie: « +1 per full turn at 0 not stabilised »; Péril again: 9 + 2 = 11 ≥ 6 scars
    # + Agonie 2; Brann wakes.
    dice.next(9, then=6)
    do.end_action(conteur, "Aelis")
    dice.spent(9)
    expect(do.round_number(brann)).to_have_text("3", timeout=LIVE)
    for text in (
        "Brann passe un tour entier à 0 de Vitalité : Agonie 2.",
        "Brann reprend connaissance.",
        "Péril (Vitalité) : Brann fait 11 contre 8, réussi.",
        "Tour 3 : Aelis, Brann, Brigand 1, Brigand 2, Brigand 3, Aelis (2ᵉ action), "
        "Brigand 1 (2ᵉ action), Brigand 2 (2ᵉ action), Brigand 3 (2ᵉ action).",
    ):
        expect(do.log_line(brann, text)).to_be_visible(timeout=LIVE)
    # §1: « Finesse points … are all regained each combat turn »: Brann spent one on his Esquive.
    expect(brann.locator(".initiative-list li", has_text="Brann")).to_contain_text(
        "3 pts de Finesse"
    )

    # --- round 3: the spell resolves at Aelis's first slot, her only action there -------------
    do.settle(aelis, "À Aelis d'agir.")
    aelis.get_by_text("Lancer un sort avec Aelis").click()
    dice.next(
        5, 5, 5, 5, 5, 5, then=6
    )  # skill 0 − complexity 6 + 1 focus die: 6 dice, the worst kept
    pending = aelis.locator('[data-combat="incantation"]')
    expect(pending).to_contain_text("Le sort « Souffle de vie » d'Aelis se résout maintenant")
    if SHOTS:
        for width in (1280, 390):
            aelis.set_viewport_size({"width": width, "height": 900})
            pending.screenshot(path=f"{SHOTS}/spell-resolve-{width}.png")
        aelis.set_viewport_size({"width": 1280, "height": 900})
    aelis.get_by_role("button", name="Achever l'incantation").click()
    expect(do.acting(aelis)).to_have_text("À Brann d'agir")
    dice.spent(5, 5, 5, 5, 5, 5)
    resolved = do.log_line(brann, "Le sort « Souffle de vie » d'Aelis se résout")
    expect(resolved).to_contain_text("Le sort échoue : rien n'est soigné.", timeout=LIVE)

    # The Conteur's screen agrees: Brann at 0/50, 6 scars, in péril, Agonie 2, Aggravation 1.
    encounter = Encounter.objects.get()
    conteur.goto(f"{desk}{encounter.pk}/screen/")
    row = conteur.locator("tr.fighter-row", has_text="Brann")
    expect(row.locator('[data-gauge="vitality"]')).to_contain_text("0/50")
    expect(row.locator('[data-gauge="vitality"]')).to_contain_text("6 cicatrices")
    expect(row.locator('[data-gauge="vitality"]')).to_contain_text("péril")
    expect(row.locator('[data-track="agony"]')).to_contain_text("2")
    expect(row.locator('[data-track="aggravation"]')).to_contain_text("1")
    out = conteur.locator("tr.fighter-row", has_text="Brigand 4")
    expect(out.locator('[data-gauge="vitality"]')).to_contain_text("8/12")
    expect(out.locator('[data-track="state"]')).to_contain_text("Vaincu")
    if SHOTS:
        conteur.screenshot(path=f"{SHOTS}/fight-screen-1280.png", full_page=True)
        box = brann.locator("#roll-log").bounding_box()
        for n, top in enumerate(range(0, int(box["height"]), 900)):
            clip = {"x": 0, "y": box["y"] + top, "width": 390, "height": 900}
            brann.screenshot(path=f"{SHOTS}/fight-log-390-{n}.png", full_page=True, clip=clip)
