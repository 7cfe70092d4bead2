"""A forgotten password and leaving for good, clicked through in Chromium (issue 16 §19, §20)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from campaigns.models import Campaign, Membership, Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(password)
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


def test_a_forgotten_password_is_reset_from_the_mailed_link(new_page, player, settings):
    player.email = "aelis@example.org"
    player.set_password("correct-horse-battery")
    player.save()
    page = new_page()
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Mot de passe oublié ?").click()
    page.get_by_label("Adresse e-mail").fill("aelis@example.org")
    page.get_by_role("button", name="Envoyer le lien").click()
    page.get_by_role("heading", name="Vérifiez vos e-mails").wait_for()

    link = re.search(r"https?://\S+/accounts/password/reset/\S+/", mail.outbox[0].body).group(0)
    page.goto(link)
    page.get_by_label("Nouveau mot de passe", exact=True).fill("une-autre-phrase-longue-31")
    page.get_by_label("Confirmation du nouveau mot de passe").fill("une-autre-phrase-longue-31")
    page.get_by_role("button", name="Enregistrer le mot de passe").click()
    page.get_by_role("heading", name="Mot de passe changé").wait_for()
    page.get_by_role("link", name="Se connecter").last.click()
    sign_in(page, "aelis", "une-autre-phrase-longue-31")


def test_a_conteur_hands_their_campaign_over_and_leaves(new_page, campaign, storyteller, player):
    page = new_page()
    sign_in(page, "conteur", "correct-horse-battery")
    page.goto("/accounts/profile/")
    page.get_by_role("link", name="Supprimer mon compte…").click()
    page.get_by_label("Confier la campagne à aelis").check()
    page.get_by_label("Votre mot de passe, pour confirmer").fill("correct-horse-battery")
    page.get_by_role("button", name="Supprimer définitivement mon compte").click()
    page.get_by_role("heading", name="Compte supprimé").wait_for()
    assert page.get_by_role("link", name="Se connecter").first.is_visible()
    assert not get_user_model().objects.filter(username="conteur").exists()
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    assert Membership.objects.get(campaign=campaign, user=player).role == Role.STORYTELLER
