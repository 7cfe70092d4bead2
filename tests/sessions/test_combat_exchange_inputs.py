"""Issue 39 §3 items 18, 22, 23 and item 4 through the pages' forms and the API: what a player
declares on a combat roll, and a character's armour and shield on its sheet."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from characters.models import Character, CharacterSkill
from sessions.models import Combatant, Encounter, Injury, Roll
from tests.dice import Faces, route_draws
from tests.sessions.combat_fixtures import HTMX, running_fight, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_combat_attacks_views import attack_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(campaign, storyteller, as_member, aelis, brann):
    """Aelis (14) acts, then a visible Loup (10), then Brann (8)."""
    conteur = as_member(campaign, storyteller)
    return running_fight(conteur, storyteller, aelis, brann, each={"finesse_points": 2})


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_item_23_impact_and_hope_spent_through_the_attack_form(
    campaign, running, player_client, aelis, monkeypatch
):
    """RULES §13 Product: "every combat roll … is built like a table roll from the roller's
    sheet: … Impact and hope/despair spends" — in the forms too."""
    Character.objects.filter(pk=aelis.pk).update(impact_points=2)
    page = player_client.get(url(campaign, "table")).content.decode()
    assert "Points d&#x27;Impact dépensés" in page or "Points d'Impact dépensés" in page
    route_draws(monkeypatch, Faces(7, 5, 3, 2, 1, then=4))
    loup = Combatant.objects.get(name="Loup")
    response = player_client.post(
        url(campaign, "combat_attack", running.pk), attack_data(loup, impact=1, hope=0), **HTMX
    )
    assert response.status_code == 200
    roll = Roll.objects.get(pk=Encounter.objects.get().pending_attack["roll"])
    assert len(roll.breakdown["dice"]) == 5  # Mêlée 3 + 1 Impact die
    assert Character.objects.get(pk=aelis.pk).impact_points == 1


def test_item_22_expertise_die_on_a_defence_through_the_api(
    campaign, running, storyteller, player, aelis, monkeypatch
):
    """RULES §5: "total = result + characteristic + expertise d10 (if expert)", on defences."""
    CharacterSkill.objects.update_or_create(
        character=aelis, key="adresse", defaults={"level": 0, "expertises": ["Esquive"]}
    )
    Encounter.objects.filter(pk=running.pk).update(
        position=next(
            i
            for i, s in enumerate(running.order)
            if s["combatant"] == Combatant.objects.get(name="Loup").pk
        )
    )
    base = f"/api/campaigns/{campaign.pk}/encounters/{running.pk}/"
    route_draws(monkeypatch, Faces(6, then=5))
    state = api(storyteller).get(base).json()
    body = {
        "turn": state["turn"],
        "target": Combatant.objects.get(name="Aelis").pk,
        "characteristic": "agility",
        "characteristic_value": 3,
        "skill_level": 0,
        "damage": 2,
    }
    attack = api(storyteller).post(base + "attacks/", body, format="json").json()
    route_draws(monkeypatch, Faces(2, 7, then=5))
    blow = api(player).post(
        base + "defence/",
        {"attack": attack["id"], "defence": "dodge", "expertise": True},
        format="json",
    )
    assert blow.status_code == 201, blow.json()
    roll = Roll.objects.get(pk=blow.json()["defence_roll"])
    assert roll.breakdown["expertise_die"] == 7


def test_item_4_the_attacker_chooses_resilience_for_its_fumble_through_the_api(
    campaign, running, player, aelis, monkeypatch
):
    """Reading §8: the attacker's own fumble: "chooses Résilience or the table"."""
    Character.objects.filter(pk=aelis.pk).update(resilience_points=1)
    base = f"/api/campaigns/{campaign.pk}/encounters/{running.pk}/"
    route_draws(monkeypatch, Faces(1, 1, 1, 1, 3, then=5))
    body = {
        "turn": api(player).get(base).json()["turn"],
        "target": Combatant.objects.get(name="Loup").pk,
        "characteristic": "strength",
        "skills": ["melee"],
        "damage": 2,
        "critical": "resilience",
    }
    made = api(player).post(base + "attacks/", body, format="json")
    assert made.status_code == 201, made.json()
    aelis.refresh_from_db()
    assert (aelis.aggravation, aelis.resilience_points) == (1, 0)


def test_item_18_armour_and_shield_on_the_sheet_through_the_api(player, aelis):
    """Reading §13 (armour and shields): "a character's sheet holds an armour value and whether a
    shield is carried"."""
    client = api(player)
    version = Character.objects.get(pk=aelis.pk).version
    response = client.patch(
        f"/api/characters/{aelis.pk}/",
        {"armour": 5, "shield": True, "version": version},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["armour"], response.json()["shield"]) == (5, True)


def test_item_18_armour_and_shield_edited_on_the_sheet_page(client, player, aelis):
    """The sheet page shows the armour and the shield in « États » and saves them, with and
    without HTMX."""
    client.force_login(player)
    page = client.get(reverse("characters:sheet", args=[aelis.pk])).content.decode()
    assert "Armure" in page and "Bouclier" in page
    field = reverse("characters:field", args=[aelis.pk, "armour"])
    version = Character.objects.get(pk=aelis.pk).version
    assert client.post(field, {"value": 4, "version": version}).status_code == 302
    version = Character.objects.get(pk=aelis.pk).version
    shield = reverse("characters:field", args=[aelis.pk, "shield"])
    response = client.post(shield, {"value": "on", "version": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "sec-condition" in response.content.decode()
    aelis.refresh_from_db()
    assert (aelis.armour, aelis.shield) == (4, True)


def test_item_23_a_declared_injury_hinders_the_attack_from_the_form(
    campaign, running, player_client, aelis, monkeypatch
):
    """§8: "Broken arm or leg bones: 1 impuissance die on rolls using that limb"; §13 Product:
    combat rolls carry the declared injuries, in the forms too."""
    injury = Injury.objects.create(campaign=campaign, character=aelis, row=2, effect="broken_bones")
    page = player_client.get(url(campaign, "table")).content.decode()
    assert "Blessures qui gênent ce jet" in page
    route_draws(monkeypatch, Faces(7, 5, 3, 2, then=4))
    loup = Combatant.objects.get(name="Loup")
    response = player_client.post(
        url(campaign, "combat_attack", running.pk),
        attack_data(loup, injuries=[injury.pk]),
        **HTMX,
    )
    assert response.status_code == 200
    roll = Roll.objects.get(pk=Encounter.objects.get().pending_attack["roll"])
    assert roll.breakdown["advantage"] == 3 - 1  # Mêlée 3, one bane die
