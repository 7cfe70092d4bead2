"""What the people at the table do in `test_a_whole_fight`, one gesture each, and the scripted
dice that make every outcome certain.

Each helper acts on one page and waits for *its own* result there (the tracker swapped by the
action's response) before it returns, so the next click never races the table's poll; what the
other pages must show is asserted by the test, with the 2-second limit of issue 14."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.dice import Faces, route_draws

PASSWORD = "correct-horse-battery"
LIVE = 2000  # ms: every member's table shows a change of the fight within 2 s (issue 14 §6)


def install_dice(monkeypatch) -> Faces:
    """Every production draw from the test's dice: the live server runs in a thread of this
    process, so the patch reaches its requests."""
    return route_draws(monkeypatch, Faces(then=6))


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


# --- reading a table page ----------------------------------------------------------------------


def tracker(page: Page):
    return page.locator("#combat-tracker")


def acting(page: Page):
    """« À Brann d'agir », « À Aelis d'agir (2ᵉ action) »: the tracker's line of who acts."""
    return page.locator(".combat-now .acting")


def round_number(page: Page):
    return page.locator('[data-combat="round"]')


def log_line(page: Page, text: str):
    """The table log's combat line containing `text` (the newest first)."""
    return page.locator("#roll-log li[data-kind=combat]", has_text=text).first


def last_blow(page: Page):
    return page.locator('[data-combat="last"]')


# --- the Conteur's desk (the combat page) ------------------------------------------------------


def create_stat_block(page: Page, campaign_pk: int, values: dict[str, object]) -> None:
    """The bestiary's « Nouveau profil » form, filled by its French labels."""
    page.goto(f"/campaigns/{campaign_pk}/bestiary/")
    page.get_by_role("link", name="Nouveau profil").click()
    for label, value in values.items():
        page.get_by_label(label, exact=True).fill(str(value))
    page.get_by_role("button", name="Enregistrer").click()
    page.get_by_text(f"Profil « {values['Nom']} » ajouté au bestiaire.").wait_for()


def section(page: Page, heading: str):
    return page.locator("section", has=page.get_by_role("heading", name=heading))


def fighter(page: Page, name: str):
    return page.locator("li.fighter", has_text=name)


def reveal(page: Page, name: str) -> None:
    fighter(page, name).get_by_role("button", name="Révéler").click()
    expect(fighter(page, name).get_by_role("button", name="Révéler")).to_have_count(0)


def set_status(page: Page, name: str, label: str) -> None:
    row = fighter(page, name)
    row.get_by_label(f"État de {name}").select_option(label=label)
    row.get_by_role("button", name="Changer l'état").click()
    expect(fighter(page, name).locator(".badge", has_text=label)).to_be_visible()


# --- turns ------------------------------------------------------------------------------------


def settle(page: Page, text: str) -> None:
    """Wait until this page's newest combat line is the one of the step just taken (`text`
    in it) and nothing is in flight: the `combat-changed` refresh the poll fires with it is
    done, so no tracker read before the next step can land after it."""
    expect(page.locator("#roll-log li[data-kind=combat]").first).to_contain_text(text)
    expect(page.locator(".htmx-request")).to_have_count(0)


def turn_of(name: str, n: int = 1) -> tuple[str, str]:
    """(the tracker's line, the log's words) when `name` acts its `n`th action of the round."""
    if n == 1:
        return f"À {name} d'agir", f"À {name} d'agir."
    return f"À {name} d'agir ({n}ᵉ action)", f"À {name} ({n}ᵉ action) d'agir."


def end_action(page: Page, name: str, n: int = 1, *, button: str = "Action suivante") -> None:
    """End the action acting now (« Action suivante » for the Conteur, « Finir mon action » for
    its player) and wait until this page gives the hand to `name` (its `n`th action)."""
    shown, logged = turn_of(name, n)
    tracker(page).get_by_role("button", name=button).click()
    expect(acting(page)).to_have_text(shown)
    settle(page, logged)


def delay(page: Page, name: str) -> None:
    """« Retarder »: the acting combatant waits; `name` acts at once."""
    shown, logged = turn_of(name)
    tracker(page).get_by_role("button", name="Retarder").click()
    expect(acting(page)).to_have_text(shown)
    settle(page, logged)


# --- attacks and defences ----------------------------------------------------------------------


def attack(
    page: Page,
    attacker: str,
    target: str,
    *,
    damage: int,
    npc_value: int | None = None,
    nonlethal: bool = False,
) -> None:
    """The acting combatant attacks with Force and Mêlée (the form's defaults); an NPC's Force
    is the Conteur's `npc_value`. Waits for the blow to wait on its defence."""
    page.get_by_text(f"Attaquer avec {attacker}").click()
    form = page.locator('[data-combat="attack"] form')
    form.get_by_label("Cible").select_option(label=target)
    form.get_by_label("Dégâts de base").fill(str(damage))
    if npc_value is not None:
        form.get_by_label("Valeur (PNJ)").fill(str(npc_value))
    if nonlethal:
        form.get_by_label("Non létale").check()
    form.get_by_role("button", name="Attaquer", exact=True).click()
    expect(page.locator('[data-combat="pending"] .blow-head')).to_contain_text(
        f"{attacker} attaque {target}"
    )
    settle(page, f"À {target} de choisir sa défense.")


def defence_option(page: Page, name: str):
    return page.locator(".defence-form .defence-option", has_text=name)


def defend(page: Page, name: str, *, shows: str) -> None:
    """Answer the blow waiting on this page with the defence `name` (« Parade », « Aucune
    défense »…) and wait for the resolved blow (`shows`: part of its summary)."""
    form = page.locator(".defence-form")
    expect(form).to_be_visible()
    settle(page, "de choisir sa défense.")
    defence_option(page, name).locator("input").check()
    form.get_by_role("button", name="Se défendre").click()
    expect(last_blow(page)).to_contain_text(shows)
    settle(page, shows)
