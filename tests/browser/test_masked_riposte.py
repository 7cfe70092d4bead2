"""Issue 39 §4: a player ripostes against a hidden NPC through the page (Chromium, 1280 and
390 px). Aelis parried the hidden Loup's bite with a critical; her player is offered « Riposter »
against « l'attaquant », ripostes, and reads what her blow did — the Loup never named — and her
sheet's history says « Une attaque ».

`MASKED_SCREENSHOTS=/dir` writes the tracker and the history at both widths there.
"""

import os

import pytest
from playwright.sync_api import expect

from sessions.combat import attacks as ca
from sessions.models import Combatant, Encounter
from tests.browser import fight_steps as do
from tests.dice import Faces
from tests.sessions.combat_fixtures import running_fight
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("MASKED_SCREENSHOTS")
WIDTHS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})


def shoot(page, locator, name: str) -> None:
    if not SHOTS:
        return
    for size in WIDTHS:
        page.set_viewport_size(size)
        locator.screenshot(path=f"{SHOTS}/{name}-{size['width']}.png")
    page.set_viewport_size(WIDTHS[0])


def test_a_player_ripostes_against_a_hidden_npc_through_the_page(
    new_page, campaign, storyteller, player, as_member, aelis, brann, monkeypatch
):
    conteur = as_member(campaign, storyteller)
    encounter = running_fight(
        conteur, storyteller, aelis, brann, hidden=True, each={"finesse_points": 2}
    )
    Encounter.objects.filter(pk=encounter.pk).update(position=1)
    encounter.refresh_from_db()
    aelis_pk = encounter.combatants.get(name="Aelis").pk

    def bite(key: str, defence: str, faces: tuple[int, ...]) -> None:
        """The hidden Loup bites Aelis (4 + 3 = 7), she answers with `defence`."""
        encounter.refresh_from_db()
        pending, _new = ca.attack_declare(
            campaign=conteur,
            by=storyteller,
            encounter_id=encounter.pk,
            turn=encounter.turn,
            request=ca.AttackRequest(
                target=aelis_pk,
                characteristic="strength",
                skills=("melee",),
                characteristic_value=3,
                skill_level=1,
                damage=5,
            ),
            idempotency_key=key,
            rng=Faces(4, 2, then=2),
        )
        ca.attack_defend(
            campaign=as_member(campaign, player),
            by=player,
            encounter_id=encounter.pk,
            attack_id=pending["id"],
            request=ca.DefenceRequest(defence=defence),
            rng=Faces(*faces, then=1),
        )

    bite("first", "none", ())  # it lands: her sheet's history reads « Une attaque »
    Encounter.objects.filter(pk=encounter.pk).update(last_attack={})  # as in a later action
    bite("second", "parry", (10, 3))  # a critical parry: she may riposte
    do.install_dice(monkeypatch)

    page = new_page()
    page.set_viewport_size(WIDTHS[0])
    do.log_in(page, "aelis")
    page.goto(f"/campaigns/{campaign.pk}/table/")
    tracker = do.tracker(page)
    expect(tracker).to_contain_text("Aelis peut riposter contre l'attaquant")
    shoot(page, tracker, "riposte-offered")
    panel = tracker.locator(".attack-panel.riposte")
    panel.get_by_label("Dégâts de base").fill("3")
    panel.get_by_role("button", name="Riposter").click()
    expect(tracker).to_contain_text("Aelis riposte contre l'attaquant")
    expect(tracker).to_contain_text("En attente de la défense de l'attaquant.")
    shoot(page, tracker, "riposte-waiting")

    waiting = Encounter.objects.get().pending_attack
    ca.attack_defend(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        attack_id=waiting["id"],
        request=ca.DefenceRequest(defence="none"),
    )
    dealt = Encounter.objects.get().last_attack["damage"]
    assert Combatant.objects.get(name="Loup").profile["gauges"]["vitality"]["current"] == 15 - dealt
    page.reload()
    expect(tracker).to_contain_text(
        f"La riposte d'Aelis inflige {dealt} points de Vitalité à l'attaquant."
    )
    shoot(page, tracker, "riposte-landed")
    expect(page.locator("main")).not_to_contain_text("Loup")

    page.goto(f"/characters/{aelis.pk}/history/")
    expect(page.locator("main")).to_contain_text("Une attaque")
    shoot(page, page.locator("main"), "history")
    expect(page.locator("main")).not_to_contain_text("Loup")
