"""Grapples through the API alone (issue 14 §4): a grapple, its state on the target, breaking
free, letting go and getting up; idempotent writes and 404 for non-members."""

import pytest
from rest_framework.test import APIClient

from sessions.models import Combatant, Encounter
from tests.dice import sevens
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def fight(campaign, storyteller, aelis, brann, monkeypatch):
    """Brann acts first; then Aelis, then a visible Brigand."""
    monkeypatch.setattr("rules.check.system_rng", sevens)
    conteur = api(storyteller)
    base = f"/api/campaigns/{campaign.pk}/"
    opened = conteur.post(base + "encounters/", {"name": "Rixe"}, format="json").json()
    url = base + f"encounters/{opened['id']}/"
    conteur.post(url + "combatants/", {"characters": [brann.pk, aelis.pk]}, format="json")
    conteur.post(url + "combatants/", {"name": "Brigand", "finesse": 1}, format="json")
    assert conteur.post(url + "initiative/").status_code == 200
    encounter = Encounter.objects.get()
    first = [Combatant.objects.get(name=name).pk for name in ("Brann", "Aelis")]
    encounter.order = sorted(
        encounter.order, key=lambda s: first.index(s["combatant"]) if s["combatant"] in first else 2
    )
    encounter.save()
    return url


def test_a_grapple_holds_through_the_api(fight, storyteller, player, other_player, outsider):
    state = api(other_player).get(fight).json()
    aelis_id = Combatant.objects.get(name="Aelis").pk
    body = {
        "turn": state["turn"],
        "target": aelis_id,
        "characteristic": "strength",
        "grapple": "embrace",
    }
    assert api(outsider).post(fight + "attacks/", body, format="json").status_code == 404
    made = api(other_player).post(
        fight + "attacks/", body, format="json", HTTP_IDEMPOTENCY_KEY="g1"
    )
    assert made.status_code == 201, made.json()
    attack = made.json()
    assert attack["grapple"] == "embrace" and attack["damage"] == 0
    again = api(other_player).post(
        fight + "attacks/", body, format="json", HTTP_IDEMPOTENCY_KEY="g1"
    )
    assert again.status_code == 200 and again.json()["id"] == attack["id"]
    done = api(player).post(
        fight + "defence/", {"attack": attack["id"], "defence": "none"}, format="json"
    )
    assert done.status_code == 201 and done.json()["grapple"] == "held"
    seen = {c["name"]: c for c in api(player).get(fight).json()["combatants"]}
    brann_id = seen["Brann"]["id"]
    assert seen["Aelis"]["held"] and seen["Aelis"]["held_by"] == brann_id
    assert not seen["Aelis"]["prone"]

    # Aelis's action: she cannot attack, and tries to break free (Force 2 + 7 against 11).
    turn = api(other_player).get(fight).json()["turn"]
    assert api(other_player).post(fight + "next/", {"turn": turn}, format="json").status_code == 200
    assert api(player).get(fight).json()["acting"]["name"] == "Aelis"
    turn = api(player).get(fight).json()["turn"]
    refused = api(player).post(
        fight + "attacks/",
        {"turn": turn, "target": brann_id, "characteristic": "strength"},
        format="json",
    )
    assert refused.status_code == 400 and "se libérer" in str(refused.json())
    escape = {"turn": turn, "characteristic": "strength"}
    assert api(outsider).post(fight + "escape/", escape, format="json").status_code == 404
    tried = api(player).post(fight + "escape/", escape, format="json", HTTP_IDEMPOTENCY_KEY="e1")
    assert tried.status_code == 201, tried.json()
    attempt = tried.json()
    assert attempt["difficulty"] == attack["total"] and attempt["holder"] == brann_id
    again = api(player).post(fight + "escape/", escape, format="json", HTTP_IDEMPOTENCY_KEY="e1")
    assert again.status_code == 200 and again.json() == attempt
    held = Combatant.objects.get(pk=aelis_id).held_by_id
    assert (held is None) == attempt["freed"]


def test_letting_go_and_getting_up_through_the_api(
    fight, storyteller, player, other_player, outsider
):
    aelis = Combatant.objects.get(name="Aelis")
    brann = Combatant.objects.get(name="Brann")
    Combatant.objects.filter(pk=aelis.pk).update(held_by=brann, hold={"total": 9}, prone=True)
    release = fight + f"combatants/{aelis.pk}/release/"
    assert api(outsider).post(release).status_code == 404
    assert api(player).post(release).status_code == 403
    assert api(other_player).post(release).status_code == 200
    assert api(other_player).post(release).status_code == 200  # again: nothing changes
    stand = fight + f"combatants/{aelis.pk}/stand-up/"
    assert api(player).post(stand).status_code == 403  # not her action
    done = api(storyteller).post(stand)
    assert done.status_code == 200
    row = next(c for c in done.json()["combatants"] if c["id"] == aelis.pk)
    assert not row["held"] and not row["prone"]
