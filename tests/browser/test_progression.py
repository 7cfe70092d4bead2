"""In a browser: the Conteur previews and confirms an arc's experience; the player's unread
notification count appears in the nav and the notification reads the award."""

import pytest

from campaigns.models import Arc
from characters.models import Character

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill("correct-horse-battery")
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


def test_the_conteur_closes_an_arc_and_the_players_notification_appears(new_page, campaign, player):
    Character.objects.create(campaign=campaign, owner=player, name="Aelis")
    arc = Arc.objects.create(campaign=campaign, title="La tour engloutie", length_unit="weeks")

    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(f"/campaigns/{campaign.pk}/arcs/{arc.pk}/experience/")
    conteur.get_by_label("3 — Dangereux").check()
    conteur.get_by_role("button", name="Aperçu").click()
    conteur.get_by_role("heading", name="Aperçu des récompenses").wait_for()
    # (danger 3 + took part 2) × 3 for an arc of weeks.
    assert conteur.locator("#preview strong").inner_text() == "15"
    conteur.get_by_role("button", name="Confirmer et clore l'arc").click()
    conteur.get_by_role("heading", name="Récompenses versées").wait_for()

    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.locator("#unread-count").filter(has_text="1").wait_for()
    joueur.locator("#nav-notifications").click()
    joueur.get_by_text(
        "Aelis reçoit 15 points d'expérience pour l'arc « La tour engloutie »."
    ).wait_for()
