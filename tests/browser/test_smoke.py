import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_log_out_log_in_and_see_the_home_page(new_page):
    page = new_page()
    page.goto("/")
    page.get_by_role("link", name="Créer un compte").first.click()
    page.get_by_label("Nom d’utilisateur").fill("morgane")
    page.get_by_label("Mot de passe", exact=True).fill("une-phrase-longue-42")
    page.get_by_label("Confirmation du mot de passe").fill("une-phrase-longue-42")
    page.get_by_role("button", name="Créer mon compte").click()
    page.get_by_role("heading", name="Bonjour, morgane").wait_for()

    page.get_by_role("button", name="Se déconnecter").click()
    page.get_by_role("link", name="Se connecter").first.click()
    page.get_by_label("Nom d’utilisateur").fill("morgane")
    page.get_by_label("Mot de passe").fill("une-phrase-longue-42")
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name="Bonjour, morgane").wait_for()
    assert page.evaluate("typeof htmx") == "object"  # the bundled htmx loaded locally
