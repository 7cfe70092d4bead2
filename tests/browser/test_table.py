"""Two people at the table: a player's roll and the Conteur's Moral spend reach the other page
within 2 seconds, without a reload (HTMX polling with a cursor)."""

import time

import pytest

from characters.models import Character, CharacterSkill
from sessions.models import MoralePool

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"
LIVE_SECONDS = 2.0


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


def hero(campaign, owner, name):
    character = Character.objects.create(
        campaign=campaign, owner=owner, name=name, exaltation=3, strength=4
    )
    CharacterSkill.objects.create(character=character, key="melee", level=3)
    return character


def seconds_until(locator, limit: float = LIVE_SECONDS) -> float:
    start = time.monotonic()
    locator.wait_for(timeout=limit * 1000)
    return time.monotonic() - start


def test_a_roll_and_a_moral_spend_reach_the_other_page_live(
    new_page, campaign, storyteller, player, other_player
):
    aelis = hero(campaign, player, "Aelis")
    hero(campaign, other_player, "Brann")
    MoralePool.objects.create(campaign=campaign, hope=1)
    table = f"/campaigns/{campaign.pk}/table/"

    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(table)
    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.goto(table)
    assert joueur.locator('[data-morale="hope"]').inner_text() == "1"

    # Live odds follow the form.
    before = joueur.locator('[data-odds="success"]').inner_text()
    joueur.get_by_label("Difficulté").fill("14")
    joueur.wait_for_function(
        "([before]) => document.querySelector('[data-odds=\"success\"]').innerText !== before",
        arg=[before],
    )

    joueur.get_by_label("Compétences").select_option("melee")
    joueur.get_by_role("button", name="Lancer", exact=True).click()
    mine = joueur.locator("#roll-log li[data-kind=roll]")
    mine.first.wait_for()
    assert mine.count() == 1  # the POST's row and the poll's copy are one row
    assert joueur.locator("#roll-log .die.kept").count() == 1

    elapsed = seconds_until(conteur.locator("#roll-log li[data-kind=roll]").first)
    assert elapsed <= LIVE_SECONDS
    assert "Aelis" in conteur.locator("#roll-log li[data-kind=roll]").first.inner_text()

    # The Conteur spends a hope point of the group for Aelis; the player's panel follows.
    member = conteur.locator(f'li.member[data-character="{aelis.pk}"]')
    member.get_by_role("button", name="Dépenser 1 espoir").click()
    conteur.locator('[data-morale="hope"]', has_text="0").wait_for()
    elapsed = seconds_until(joueur.locator('[data-morale="hope"]', has_text="0"))
    assert elapsed <= LIVE_SECONDS
    joueur.locator("#roll-log li[data-kind=morale]").first.wait_for(timeout=2000)
    assert MoralePool.objects.get(campaign=campaign).hope == 0


def test_a_secret_roll_never_shows_on_another_players_page(
    new_page, campaign, player, other_player
):
    hero(campaign, player, "Aelis")
    hero(campaign, other_player, "Brann")
    table = f"/campaigns/{campaign.pk}/table/"
    other = new_page()
    log_in(other, "brann")
    other.goto(table)
    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.goto(table)
    joueur.get_by_label("Visibilité").select_option("storyteller")
    joueur.get_by_role("button", name="Lancer", exact=True).click()
    joueur.locator("#roll-log li.secret").first.wait_for()
    time.sleep(2 * LIVE_SECONDS)  # several polls later
    assert other.locator("#roll-log li[data-event-id]").count() == 0
