"""What the tracker offers around a blow (issue 14 §2, §4), found while playing the whole fight
in `tests/browser/test_a_whole_fight.py`:

- while a blow waits for its defence, nobody is offered « Finir mon action », « Action
  suivante » or « Retarder » (the service refuses them: « Une attaque attend sa défense »);
- the « Dernier coup » line closes the acting combatant's panels instead of splitting them (it
  used to sit between « Forcer une régénération » and « Lancer un sort »)."""

import pytest

from sessions.models import Combatant, Encounter
from tests.sessions.combat_fixtures import HTMX, running_fight, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(campaign, storyteller, as_member, aelis, brann):
    """Aelis (14) acts, then a visible Loup (10), then Brann (8)."""
    conteur = as_member(campaign, storyteller)
    return running_fight(conteur, storyteller, aelis, brann, each={"finesse_points": 2})


def attack_on(campaign, encounter, client, target: str):
    return client.post(
        url(campaign, "combat_attack", encounter.pk),
        {
            "turn": encounter.turn,
            "idempotency_key": "k1",
            "target": Combatant.objects.get(name=target).pk,
            "characteristic": "strength",
            "skill": "melee",
            "complexity": 0,
            "difficulty": 0,
            "damage": 3,
            "gauge": "vitality",
            "back": "table",
        },
        **HTMX,
    )


def test_no_turn_button_while_a_blow_waits_for_its_defence(
    campaign, running, player_client, storyteller_client
):
    table = url(campaign, "table")
    assert "Finir mon action" in player_client.get(table).content.decode()
    attack_on(campaign, running, player_client, "Loup")
    mine = player_client.get(table).content.decode()
    assert "En attente de la défense de Loup." in mine
    assert "Finir mon action" not in mine and "Retarder" not in mine
    theirs = storyteller_client.get(table).content.decode()
    assert "Se défendre" in theirs
    assert "Action suivante" not in theirs and "Retarder" not in theirs
    assert "Gérer le combat" in theirs  # the way to the combat page stays


def test_the_last_blow_closes_the_acting_combatants_panels(
    campaign, running, player_client, storyteller_client
):
    pending = attack_on(campaign, running, player_client, "Loup")
    assert pending.status_code == 200
    attack = Encounter.objects.get().pending_attack["id"]
    storyteller_client.post(
        url(campaign, "combat_defend", running.pk),
        {"attack": attack, "defence": "none", "complexity": 0, "critical": "table"},
        **HTMX,
    )
    tracker = player_client.get(table := url(campaign, "table")).content.decode()
    assert "Finir mon action" in tracker  # the blow is resolved: the turn may end
    storyteller_client.post(
        url(campaign, "combat_next", running.pk),
        {"turn": Encounter.objects.get().turn, "back": "table"},
        **HTMX,
    )
    page = storyteller_client.get(table).content.decode()  # the Loup acts: the Conteur's panels
    panels = [page.index(f"{verb} avec Loup") for verb in ("Attaquer", "Lancer un sort")]
    assert page.index('data-combat="regeneration"') < panels[1]
    assert max(panels) < page.index('data-combat="last"')
