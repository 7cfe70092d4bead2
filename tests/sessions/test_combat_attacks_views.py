"""The attack and defence forms of the tracker (issue 14 §4), with and without HTMX."""

from html import unescape

import pytest

from characters.models import Character
from sessions.models import Combatant, Encounter
from tests.sessions.combat_fixtures import HTMX, running_fight, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(campaign, storyteller, as_member, aelis, brann):
    """A running fight: Aelis (14) acts, then a visible Loup (10), then Brann (8)."""
    conteur = as_member(campaign, storyteller)
    return running_fight(conteur, storyteller, aelis, brann, each={"finesse_points": 2})


def attack_data(target, turn=1, **extra):
    return {
        "turn": turn,
        "idempotency_key": "k1",
        "target": target.pk,
        "characteristic": "strength",
        "skill": "melee",
        "complexity": 0,
        "difficulty": 0,
        "damage": 3,
        "gauge": "vitality",
        "back": "table",
        **extra,
    }


def test_the_acting_player_attacks_and_the_target_defends(
    campaign, running, player_client, client_for, other_player, storyteller_client
):
    table = url(campaign, "table")
    mine = player_client.get(table).content.decode()
    assert "Attaquer avec Aelis" in mine
    assert "Attaquer avec" not in client_for(other_player).get(table).content.decode()
    brann = Combatant.objects.get(name="Brann")
    response = player_client.post(
        url(campaign, "combat_attack", running.pk), attack_data(brann), **HTMX
    )
    assert response.status_code == 200 and "table-poll" in response["HX-Trigger"]
    body = response.content.decode()
    assert "En attente de la défense de Brann." in body
    theirs = client_for(other_player).get(table).content.decode()
    assert "Se défendre" in theirs and "Parade" in theirs and "%" in theirs
    pending = Encounter.objects.get().pending_attack
    refused = player_client.post(
        url(campaign, "combat_defend", running.pk),
        {"attack": pending["id"], "defence": "dodge", "complexity": 0, "critical": "table"},
        **HTMX,
    )
    assert "Seuls le Conteur et le joueur de Brann" in refused.content.decode()
    done = client_for(other_player).post(
        url(campaign, "combat_defend", running.pk),
        {
            "attack": pending["id"],
            "defence": "none",
            "complexity": 0,
            "critical": "table",
            "reply_characteristic": "strength",
            "reply_damage": 0,
            "back": "table",
        },
    )  # without HTMX: back to the table
    assert done.status_code == 302 and done["Location"] == table
    assert Encounter.objects.get().pending_attack == {}
    page = client_for(other_player).get(table).content.decode()
    assert "Dernier coup" in page and "Brann subit" in page
    assert Character.objects.get(name="Brann").vitality_current < 15


def test_outsiders_get_404(campaign, running, outsider_client):
    brann = Combatant.objects.get(name="Brann")
    attack_url = url(campaign, "combat_attack", running.pk)
    assert outsider_client.post(attack_url, attack_data(brann)).status_code == 404
    defend_url = url(campaign, "combat_defend", running.pk)
    assert outsider_client.post(defend_url, {"attack": "x", "defence": "none"}).status_code == 404


def test_a_stale_attack_form_is_refused(campaign, running, player_client):
    brann = Combatant.objects.get(name="Brann")
    response = player_client.post(
        url(campaign, "combat_attack", running.pk), attack_data(brann, turn=0), **HTMX
    )
    assert "déjà avancé" in response.content.decode()
    assert Encounter.objects.get().pending_attack == {}


def test_the_table_costs_the_same_queries_with_an_attack_waiting(
    campaign, running, player_client, client_for, other_player, django_assert_max_num_queries
):
    table = url(campaign, "table")
    brann = Combatant.objects.get(name="Brann")
    player_client.post(url(campaign, "combat_attack", running.pk), attack_data(brann))
    defender = client_for(other_player)
    defender.get(table)
    with django_assert_max_num_queries(40) as few:
        defender.get(table)
    before = len(few.captured_queries)
    Combatant.objects.bulk_create(
        [Combatant(encounter=running, name=f"Renfort {n}", initiative=1) for n in range(8)]
    )
    with django_assert_max_num_queries(before):
        defender.get(table)


def test_a_name_starting_with_a_vowel_is_elided_after_de(
    campaign, storyteller, as_member, aelis, brann, player_client, storyteller_client
):
    """« Défense d'Oskar », never « Défense de Oskar »: in the forms, the log and the tracker."""
    conteur = as_member(campaign, storyteller)
    fight = running_fight(
        conteur, storyteller, aelis, brann, npc="Oskar", each={"finesse_points": 2}
    )
    oskar = Combatant.objects.get(name="Oskar")
    attacked = player_client.post(
        url(campaign, "combat_attack", fight.pk), attack_data(oskar), **HTMX
    )
    assert "En attente de la défense d'Oskar." in unescape(attacked.content.decode())
    screen = unescape(storyteller_client.get(url(campaign, "combat")).content.decode())
    assert "Défense d'Oskar (2 points de Finesse)" in screen
    assert 'aria-label="État d\'Oskar"' in screen
    assert "de Oskar" not in screen
    pending = Encounter.objects.get().pending_attack
    storyteller_client.post(
        url(campaign, "combat_defend", fight.pk),
        {"attack": pending["id"], "defence": "dodge", "complexity": 0, "critical": "table"},
    )
    table = unescape(storyteller_client.get(url(campaign, "table")).content.decode())
    assert "Défense d'Oskar (Esquive)" in table
    assert "de Oskar" not in table
