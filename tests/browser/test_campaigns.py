import os
import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "une-phrase-longue-42"


def log_in(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(password)
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


def sign_up(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe", exact=True).fill(password)
    page.get_by_label("Confirmation du mot de passe").fill(password)
    page.get_by_role("button", name="Créer mon compte").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


def test_the_conteur_invites_a_new_player_who_joins(new_page, make_user):
    make_user("morgane", PASSWORD)
    conteur = new_page()
    conteur.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(conteur, "morgane")
    conteur.get_by_text("Vous ne participez encore à aucune campagne.").wait_for()

    conteur.get_by_role("link", name="Créer une campagne").click()
    conteur.get_by_label("Nom").fill("La Marche grise")
    conteur.get_by_role("button", name="Créer la campagne").click()
    conteur.get_by_role("heading", name="La Marche grise", level=1).wait_for()
    conteur.get_by_text("Vous êtes le Conteur.").wait_for()

    conteur.get_by_role("link", name="Invitations").click()
    conteur.get_by_role("button", name="Créer un lien d'invitation").click()  # HTMX adds the row
    link_field = conteur.locator(".invitation-link").first
    link_field.wait_for()
    link = link_field.input_value()
    assert re.fullmatch(r"http://[^/]+/join/[\w-]{20,}/", link)
    conteur.get_by_role("button", name="Copier le lien").click()
    conteur.get_by_role("button", name="Copié !").wait_for()
    assert conteur.evaluate("navigator.clipboard.readText()") == link

    player = new_page()
    sign_up(player, "aubin")
    player.goto(link)
    player.get_by_role("heading", name="Rejoindre « La Marche grise »").wait_for()
    player.get_by_role("button", name="Rejoindre la campagne").click()
    player.get_by_role("heading", name="La Marche grise", level=1).wait_for()
    player.get_by_text("Bienvenue dans la campagne « La Marche grise » !").wait_for()
    player.get_by_text("Vous êtes joueur.").wait_for()
    assert player.get_by_role("link", name="Réglages").count() == 0

    conteur.reload()
    conteur.get_by_text("1 utilisation sur 5").wait_for()
    conteur.get_by_role("link", name="Membres").click()
    conteur.get_by_role("cell", name="aubin").wait_for()


def test_the_conteur_edits_the_compendium_in_place(new_page, make_user):
    from campaigns.services import campaign_create

    user = make_user("morgane", PASSWORD)
    campaign = campaign_create(creator=user, name="La Marche grise")
    page = new_page()
    log_in(page, "morgane")
    page.goto(f"/campaigns/{campaign.pk}/compendium/")
    assets = page.locator("#assets")
    assets.locator("summary").click()
    form = page.locator("#new-assets")
    form.get_by_label("Nom").fill("Ambidextre")
    form.get_by_label("Coût").fill("3")
    form.get_by_role("button", name="Ajouter un atout").click()
    row = page.locator("#list-assets > li.entry").first
    row.get_by_text("3 points").wait_for()
    assert form.get_by_label("Nom").input_value() == ""  # the form is ready for the next one
    assert not assets.get_by_text("Aucune entrée pour l'instant.").is_visible()

    form.get_by_label("Nom").fill("Ambidextre")  # a duplicate: the error shows in place
    form.get_by_role("button", name="Ajouter un atout").click()
    page.locator("#new-assets").get_by_text("existe déjà dans le compendium").wait_for()
    assert page.locator("#list-assets > li.entry").count() == 1

    row.get_by_role("link", name="Modifier").click()
    editing = page.locator("#list-assets > li.editing")
    editing.get_by_label("Coût").fill("5")
    editing.get_by_role("button", name="Enregistrer").click()
    page.locator("#list-assets > li.entry").get_by_text("5 points").wait_for()

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#list-assets > li.entry").get_by_role("link", name="Supprimer").click()
    assets.get_by_text("Aucune entrée pour l'instant.").wait_for()
    assert page.locator("#list-assets > li.entry").count() == 0


def test_a_signed_out_newcomer_sees_whose_invitation_it_is_then_signs_up_and_joins(
    new_page, make_user
):
    """Issue 41: the link opened before having an account names the campaign and who invites;
    « Créer un compte » comes back to it, and one click joins."""
    from campaigns.services import campaign_create, invitation_create

    morgane = make_user("morgane", PASSWORD)
    campaign = campaign_create(creator=morgane, name="La Marche grise")
    invitation = invitation_create(campaign=campaign, by=morgane)
    page = new_page()
    for width, height in ((390, 844), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/join/{invitation.token}/")
        page.get_by_role("heading", name="Rejoindre « La Marche grise »").wait_for()
        page.get_by_text(
            "morgane vous invite à rejoindre la campagne « La Marche grise »"
        ).wait_for()
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
        if folder := os.environ.get("SHOTS_DIR"):
            page.screenshot(path=f"{folder}/join-signed-out-{width}.png")
    page.get_by_role("link", name="Créer un compte").last.click()
    page.get_by_label("Nom d’utilisateur").fill("aubin")
    page.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    page.get_by_label("Confirmation du mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Créer mon compte").click()
    page.get_by_role("button", name="Rejoindre la campagne").click()
    page.get_by_text("Bienvenue dans la campagne « La Marche grise » !").wait_for()
