"""A short fight at the table: the Conteur rolls initiative, two actions end, a round changes,
and the player's tracker follows within 2 seconds (the poll's `combat-changed`)."""

import pytest
from playwright.sync_api import expect

from characters.models import Character
from sessions.models import Combatant, Encounter
from tests.dice import DRAWS, sevens

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


def test_a_short_fight(new_page, campaign, storyteller, player):
    aelis = Character.objects.create(campaign=campaign, owner=player, name="Aelis", exaltation=3)
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade")
    Combatant.objects.create(encounter=encounter, character=aelis, name="Aelis", finesse=2)
    Combatant.objects.create(encounter=encounter, name="Brigand 1", finesse=2)
    Combatant.objects.create(encounter=encounter, name="Ombre", finesse=2, hidden=True)
    table = f"/campaigns/{campaign.pk}/table/"

    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(table)
    joueur = new_page()
    joueur.set_viewport_size({"width": 390, "height": 844})
    log_in(joueur, "aelis")
    joueur.goto(table)
    assert "Ombre" not in joueur.locator("#combat-tracker").inner_text()

    conteur.get_by_role("button", name="Lancer l'initiative").click()
    conteur.locator('[data-combat="round"]', has_text="1").wait_for()
    joueur.locator('[data-combat="round"]', has_text="1").wait_for(timeout=2000)
    assert "Ombre" not in joueur.locator("#combat-tracker").inner_text()
    assert "Ombre" not in joueur.locator("#roll-log").inner_text()
    joueur.locator("#roll-log li[data-kind=combat]").first.wait_for()

    def acting(page) -> str:
        return page.locator('[data-combat="acting"]').inner_text()

    # Two actions end (whoever acts: the Conteur's button works for everyone).
    for _ in range(2):
        before = acting(conteur)
        turn = Encounter.objects.get().turn
        conteur.get_by_role("button", name="Action suivante").click()
        conteur.wait_for_function(
            "([t]) => document.querySelector('#combat-tracker input[name=turn]')?.value != t",
            arg=[str(turn)],
        )
        assert acting(conteur) != before or Encounter.objects.get().round == 2
    # The third ends the round: a new one starts, and the player's page follows.
    conteur.get_by_role("button", name="Action suivante").click()
    conteur.locator('[data-combat="round"]', has_text="2").wait_for()
    joueur.locator('[data-combat="round"]', has_text="2").wait_for(timeout=2000)
    assert "Ombre" not in joueur.locator("#combat-tracker").inner_text()
    # 390 px: the tracker fits the screen.
    width = joueur.evaluate("document.querySelector('#combat-tracker').scrollWidth")
    assert width <= 390


def test_an_attack_and_its_defence_live_on_a_second_players_page(
    new_page, campaign, storyteller, player, other_player, monkeypatch
):
    """Aelis (her player) attacks Brann; Brann's player sees the blow coming within 2 s, picks an
    Esquive with its odds, and Aelis's page shows the blow resolved within 2 s."""
    for module in DRAWS:  # every die a 7: the attack lands (a critical failure would end it)
        monkeypatch.setattr(f"{module}.system_rng", sevens)
    aelis = Character.objects.create(
        campaign=campaign, owner=player, name="Aelis", exaltation=3, strength=4
    )
    brann = Character.objects.create(
        campaign=campaign, owner=other_player, name="Brann", exaltation=3
    )
    encounter = Encounter.objects.create(
        campaign=campaign, name="Duel", status="running", round=1, turn=1
    )
    first = Combatant.objects.create(
        encounter=encounter,
        character=aelis,
        name="Aelis",
        finesse=2,
        initiative=12,
        finesse_points=2,
    )
    second = Combatant.objects.create(
        encounter=encounter,
        character=brann,
        name="Brann",
        finesse=2,
        initiative=8,
        finesse_points=2,
    )
    encounter.order = [{"combatant": first.pk, "pass": 1}, {"combatant": second.pk, "pass": 1}]
    encounter.save()
    table = f"/campaigns/{campaign.pk}/table/"

    attacker = new_page()
    log_in(attacker, "aelis")
    attacker.goto(table)
    defender = new_page()
    defender.set_viewport_size({"width": 390, "height": 844})
    log_in(defender, "brann")
    defender.goto(table)

    attacker.get_by_text("Attaquer avec Aelis").click()
    attacker.get_by_label("Dégâts de base").fill("4")
    attacker.get_by_role("button", name="Attaquer", exact=True).click()
    attacker.get_by_text("En attente de la défense de Brann.").wait_for()

    defender.locator('[data-combat="pending"]').wait_for(timeout=2000)
    dodge = defender.locator(".defence-option", has_text="Esquive")  # always possible (§13)
    assert "%" in dodge.inner_text()
    dodge.click()
    defender.get_by_role("button", name="Se défendre").click()
    defender.locator('[data-combat="last"]').wait_for()
    attacker.locator('[data-combat="last"]', has_text="Esquive").wait_for(timeout=2000)
    assert not attacker.locator('[data-combat="pending"]').count()
    width = defender.evaluate("document.querySelector('#combat-tracker').scrollWidth")
    assert width <= 390


def test_what_a_player_types_in_the_tracker_survives_another_members_move(
    new_page, campaign, storyteller, player
):
    """The tracker refreshes itself when anyone changes the fight: Aelis's player, halfway
    through her attack, keeps her open panel, the damage she typed and her focus."""
    from campaigns.policy import campaign_get_for_member
    from sessions.combat import fights as combat

    aelis = Character.objects.create(campaign=campaign, owner=player, name="Aelis", exaltation=3)
    encounter = Encounter.objects.create(
        campaign=campaign, name="Embuscade", status="running", round=1, turn=1
    )
    first = Combatant.objects.create(
        encounter=encounter, character=aelis, name="Aelis", initiative=12, finesse_points=2
    )
    ombre = Combatant.objects.create(
        encounter=encounter, name="Ombre", initiative=3, finesse=2, hidden=True
    )
    encounter.order = [{"combatant": first.pk, "pass": 1}, {"combatant": ombre.pk, "pass": 1}]
    encounter.save()
    joueuse = new_page()
    log_in(joueuse, "aelis")
    joueuse.goto(f"/campaigns/{campaign.pk}/table/")
    joueuse.get_by_text("Attaquer avec Aelis").click()
    damage = joueuse.get_by_label("Dégâts de base")
    damage.fill("7")
    assert "Ombre" not in joueuse.locator("#combat-tracker").inner_text()

    conteur = campaign_get_for_member(user=storyteller, pk=campaign.pk)
    combat.combatant_reveal(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, combatant_id=ombre.pk
    )
    joueuse.locator("#combat-tracker", has_text="Ombre").wait_for(timeout=2000)
    expect(joueuse.get_by_label("Dégâts de base")).to_have_value("7")
    expect(joueuse.get_by_label("Dégâts de base")).to_be_focused()
    assert joueuse.locator('details[data-combat="attack"]').get_attribute("open") is not None
