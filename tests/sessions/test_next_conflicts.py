"""Issue 39 §4: `next/` on a fight that is over, or with an attack awaiting its defence, answers
the documented 409 with a French message naming the real cause; `turn` counts steps, `round`
the game's rounds."""

import pytest
from rest_framework.test import APIClient

from sessions.models import Combatant, Encounter
from tests.dice import Faces, route_draws
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def fight(campaign, storyteller, aelis, brann):
    conteur = api(storyteller)
    base = f"/api/campaigns/{campaign.pk}/"
    opened = conteur.post(base + "encounters/", {"name": "Gué"}, format="json").json()
    url = base + f"encounters/{opened['id']}/"
    conteur.post(url + "combatants/", {"characters": [brann.pk, aelis.pk]}, format="json")
    assert conteur.post(url + "initiative/").status_code == 200
    return url


def test_next_on_an_ended_fight_is_a_409_saying_it_is_over(fight, storyteller):
    turn = api(storyteller).get(fight).json()["turn"]
    assert api(storyteller).post(fight + "end/").status_code == 200
    refused = api(storyteller).post(fight + "next/", {"turn": turn}, format="json")
    assert refused.status_code == 409
    assert "terminé" in str(refused.json())
    assert "initiative" not in str(refused.json())


def test_next_with_an_attack_pending_is_a_409_naming_the_attack(fight, storyteller, monkeypatch):
    route_draws(monkeypatch, Faces(then=6))
    state = api(storyteller).get(fight).json()
    acting = Combatant.objects.get(pk=state["acting"]["combatant"])
    target = Combatant.objects.exclude(pk=acting.pk).get()
    body = {
        "turn": state["turn"],
        "target": target.pk,
        "characteristic": "vigor",
        "skills": ["melee"],
        "damage": 4,
    }
    made = api(storyteller).post(fight + "attacks/", body, format="json")
    assert made.status_code == 201, made.json()
    assert Encounter.objects.get().pending_attack
    turn = api(storyteller).get(fight).json()["turn"]
    refused = api(storyteller).post(fight + "next/", {"turn": turn}, format="json")
    assert refused.status_code == 409
    assert "attend sa défense" in str(refused.json())


def test_turn_counts_steps_and_round_the_rounds(fight, storyteller):
    state = api(storyteller).get(fight).json()
    assert state["round"] == 1
    for _ in range(2):  # two combatants: the round ends
        state = api(storyteller).post(fight + "next/", {"turn": state["turn"]}, format="json")
        state = state.json()
    assert (state["round"], state["turn"]) == (2, 3)
    schema = api(storyteller).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    fields = schema.json()["components"]["schemas"]["EncounterOut"]["properties"]
    assert "pas le numéro du tour de jeu" in fields["turn"]["description"]
