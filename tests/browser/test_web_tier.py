"""The production web tier in a browser: bin/web (gunicorn, two uvicorn workers, DEBUG off, static
files by WhiteNoise) on PostgreSQL, a player signing in and reading the list of their campaigns."""

import pytest
from django.test import override_settings

pytestmark = [pytest.mark.browser, pytest.mark.services]

PASSWORD = "une-phrase-longue-42"


@pytest.fixture
def conteur(transactional_db, django_user_model):
    """A user who runs a campaign, committed for the server to read. The server hashes with the
    production hashers, not the tests' fast one."""
    from campaigns.services import campaign_create

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        user = django_user_model.objects.create_user(username="morgane", password=PASSWORD)
    campaign_create(creator=user, name="La Marche grise")
    return user


def test_a_player_signs_in_and_reads_their_campaigns_through_bin_web(web_server, browser, conteur):
    context = browser.new_context(base_url=web_server.url, locale="fr-FR")
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        response = page.goto("/accounts/login/")
        assert response.status == 200
        assert response.headers["server"] == "uvicorn"
        page.get_by_label("Nom d’utilisateur").fill("morgane")
        page.get_by_label("Mot de passe").fill(PASSWORD)
        page.get_by_role("button", name="Se connecter").click()
        page.get_by_role("heading", name="Bonjour, morgane").wait_for()

        page.goto("/campaigns/")
        page.get_by_role("heading", name="Mes campagnes", level=1).wait_for()
        page.get_by_role("link", name="La Marche grise").wait_for()
        page.get_by_text("Vous êtes le Conteur").wait_for()
        # The stylesheet and htmx came from collectstatic's hashed files, through WhiteNoise.
        assert page.evaluate("typeof htmx") == "object"
        assert page.evaluate("document.styleSheets.length") >= 1
    finally:
        context.close()
