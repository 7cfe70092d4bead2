"""Two people at the table: a player's roll and the Conteur's Moral spend reach the other page
within 2 seconds, without a reload (HTMX polling with a cursor)."""

import re
import time

import pytest
from playwright.sync_api import expect

from characters.models import Character, CharacterSkill
from sessions.models import MoralePool, Roll

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


# --- keyboard and screen readers (issue 16 §14, §17) ----------------------------------------

SENTENCE = re.compile(
    r"^Aelis : -?\d+ contre \d+, (réussite|échec)( critique)?( de justesse)?(, Zone !)?$"
)
ACTIVE = """() => { const a = document.activeElement;
  return {tag: a.tagName, id: a.id, text: a.innerText || '', action: a.dataset.action || '',
          inPanel: !!a.closest('#morale-panel'),
          member: (a.closest('li.member') || {dataset: {}}).dataset.character || ''}; }"""


def test_lancer_from_the_keyboard_puts_focus_on_the_result(new_page, campaign, player):
    hero(campaign, player, "Aelis")
    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.goto(f"/campaigns/{campaign.pk}/table/")
    result = joueur.locator("#roll-result")
    assert result.is_hidden()
    lancer = joueur.get_by_role("button", name="Lancer", exact=True)
    for key, count in (("Enter", 1), ("Space", 2)):
        lancer.focus()
        joueur.keyboard.press(key)
        joueur.locator("#roll-log li[data-kind=roll]").nth(count - 1).wait_for()
        joueur.wait_for_function("() => document.activeElement.id === 'roll-result'")
        active = joueur.evaluate(ACTIVE)
        assert active["tag"] != "BODY"
        sentence = result.locator(".roll-result-sentence").inner_text()
        assert SENTENCE.match(sentence), sentence
        # It is the newest roll: the same figures as the log's top row.
        newest = joueur.locator("#roll-log li[data-kind=roll]").first
        assert newest.get_attribute("data-announce") == sentence
        assert sentence in active["text"]


def test_a_moral_action_keeps_focus_on_its_button_and_says_what_moved(
    new_page, campaign, storyteller, player
):
    aelis = hero(campaign, player, "Aelis")
    MoralePool.objects.create(campaign=campaign, hope=2)
    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(f"/campaigns/{campaign.pk}/table/")
    status = conteur.locator("#morale-status[role=status]")
    assert status.inner_text() == ""
    spend = conteur.locator(f'li.member[data-character="{aelis.pk}"]').get_by_role(
        "button", name="Dépenser 1 espoir"
    )
    spend.focus()
    conteur.keyboard.press("Enter")
    conteur.locator('[data-morale="hope"]', has_text="1").wait_for()
    active = conteur.evaluate(ACTIVE)
    assert active["tag"] == "BUTTON" and active["inPanel"]
    assert active["action"] == "spend_hope" and active["member"] == str(aelis.pk)
    conteur.wait_for_function("() => document.getElementById('morale-status').textContent !== ''")
    assert status.text_content() == "Moral : espoir 2 → 1"
    # Again from the same, re-rendered button: focus stays, and the status says the new step.
    conteur.keyboard.press("Space")
    conteur.locator('[data-morale="hope"]', has_text="0").wait_for()
    conteur.wait_for_function(
        "() => document.getElementById('morale-status').textContent.includes('1 → 0')"
    )
    assert conteur.evaluate(ACTIVE)["action"] == "spend_hope"
    assert status.text_content() == "Moral : espoir 1 → 0"


def test_another_players_roll_is_announced_as_a_sentence_without_its_controls(
    new_page, campaign, storyteller, player
):
    hero(campaign, player, "Aelis")
    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(f"/campaigns/{campaign.pk}/table/")
    announcer = conteur.get_by_role("log")
    assert announcer.count() == 1 and announcer.get_attribute("aria-live") == "polite"
    assert announcer.inner_text() == ""
    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.goto(f"/campaigns/{campaign.pk}/table/")
    for _ in range(3):  # three rolls: some of them may offer the Conteur consequences
        joueur.get_by_role("button", name="Lancer", exact=True).click()
        joueur.wait_for_function("() => document.activeElement.id === 'roll-result'")
    conteur.locator("#roll-log-live p").nth(2).wait_for(timeout=LIVE_SECONDS * 2000)
    said = [line.text_content() for line in conteur.locator("#roll-log-live p").all()]
    assert len(said) == 3 and all(SENTENCE.match(line) for line in said), said
    rows = conteur.locator("#roll-log li[data-kind=roll]")
    assert sorted(said) == sorted(r.get_attribute("data-announce") for r in rows.all())
    # Nothing of the row's buttons or breakdown is in what is said.
    assert announcer.locator("button, select, details, input").count() == 0
    assert "Détail du jet" not in announcer.inner_text()
    # The roller's own page does not hear it twice: focus read it on the result.
    assert joueur.locator("#roll-log-live p").count() == 0


def test_a_refused_roll_puts_focus_on_what_the_form_says_is_wrong(new_page, campaign, storyteller):
    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(f"/campaigns/{campaign.pk}/table/")
    # No character and no characteristic value: the form comes back with its error.
    lancer = conteur.get_by_role("button", name="Lancer", exact=True)
    lancer.focus()
    conteur.keyboard.press("Enter")
    conteur.locator("#roll-form .has-error").first.wait_for()
    conteur.wait_for_function("() => document.activeElement.closest('#roll-form') !== null")
    active = conteur.evaluate(
        "() => ({id: document.activeElement.id, invalid: document.activeElement.getAttribute('aria-invalid')})"
    )
    assert active == {"id": "id_characteristic_value", "invalid": "true"}
    assert conteur.locator("#id_characteristic_value").is_visible()  # its fold was opened


def test_fortune_asked_by_a_player_is_accepted_by_the_conteur_and_fatalite_spent(
    new_page, campaign, storyteller, player, other_player
):
    aelis = hero(campaign, player, "Aelis")
    aelis.fortune = 3
    aelis.save(update_fields=["fortune"])
    hero(campaign, other_player, "Brann")
    MoralePool.objects.create(campaign=campaign, fate=2)
    table = f"/campaigns/{campaign.pk}/table/"
    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.goto(table)
    request = joueur.locator("form.fortune-request")
    request.get_by_label("Points de Fortune").fill("2")
    request.get_by_label("Pour quoi").fill("la corde tient")
    request.get_by_role("button", name="Demander de la Fortune").click()
    joueur.get_by_text("en attente du Conteur").wait_for()

    conteur = new_page()
    log_in(conteur, "conteur")
    conteur.goto(table)
    conteur.get_by_role("button", name="Accepter").click()
    conteur.locator(".fortune-requests").wait_for(state="detached")
    # The poll brings the answer's line, and the panel is drawn again once more: then type.
    conteur.locator(".log-row").get_by_text("Le Conteur accepte").wait_for()
    conteur.wait_for_load_state("networkidle")
    fate = conteur.locator("form.fate-spend")
    fate.get_by_label("Points").fill("1")
    fate.get_by_label("Pour quoi").fill("le pont s'effondre")
    fate.get_by_role("button", name="Dépenser").click()
    conteur.wait_for_function(
        "() => document.querySelector('[data-morale=\"fate\"]').innerText === '1'"
    )
    seconds_until(joueur.locator(".log-row").get_by_text("Le Conteur dépense 1 Fatalité"), 4)
    # The log row comes first; the Moral panel is fetched again right after it.
    expect(joueur.locator('[data-personal="fortune"]').first).to_have_text("1", timeout=4000)


def test_a_widened_critical_range_moves_the_odds_before_the_roll(new_page, campaign, player):
    """§5: the faces that count as critical are a parameter of the check; the odds follow."""
    hero(campaign, player, "Aelis")
    joueur = new_page()
    log_in(joueur, "aelis")
    joueur.goto(f"/campaigns/{campaign.pk}/table/")
    critical = joueur.locator('[data-odds="critical_success"]')
    critical.wait_for()
    before = critical.inner_text()
    joueur.locator("details.critical-options summary").click()
    joueur.get_by_label("Réussite critique dès le").fill("9")
    joueur.get_by_label("Réussite critique dès le").press("Tab")
    expect(critical).not_to_have_text(before, timeout=4000)
    for width, height in ((1280, 900), (390, 844)):
        joueur.set_viewport_size({"width": width, "height": height})
        joueur.locator("#roll-form").screenshot(path=f"/tmp/critical-{width}.png")
    joueur.get_by_role("button", name="Lancer", exact=True).click()
    joueur.locator(".log-row").first.wait_for()
    assert Roll.objects.get().inputs["critical_success_from"] == 9
