"""A riposte against a hidden NPC (issue 39 §4, RULES §8: "a successful defensive critical gives
a possible riposte"): the player whose character parried a hidden NPC's blow with a critical
ripostes against « l'attaquant » — its target implied, never named to them — and its damage
lands on the NPC, while the Conteur's log keeps the whole truth."""

import json
from html import unescape

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from rest_framework.test import APIClient

from sessions.combat import attacks as ca
from sessions.models import Combatant, Encounter, Roll, TableEvent, Visibility
from tests.dice import Faces, route_draws
from tests.sessions.combat_fixtures import HTMX, loup_bites, running_fight, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def loup() -> Combatant:
    return Combatant.objects.get(name="Loup")


@pytest.fixture
def parried(campaign, storyteller, player, as_member, aelis, brann):
    """The hidden Loup (acting) attacked Aelis, who parried it with a critical: she may
    riposte."""
    conteur = as_member(campaign, storyteller)
    encounter = running_fight(
        conteur, storyteller, aelis, brann, hidden=True, each={"finesse_points": 2}
    )
    pending = loup_bites(conteur, storyteller, encounter, faces=Faces(4, 2, then=2))
    result, _new = ca.attack_defend(
        campaign=as_member(campaign, player),
        by=player,
        encounter_id=encounter.pk,
        attack_id=pending["id"],
        request=ca.DefenceRequest(defence="parry"),
        rng=Faces(10, 3, then=1),
    )
    assert result["defended"] and result["riposte_for"] == encounter.combatants.get(name="Aelis").pk
    return encounter


def riposte(campaign, by, encounter, *, target: int = 0, faces=(8, 6, 4, 2), key="riposte") -> dict:
    encounter.refresh_from_db()
    pending, created = ca.attack_declare(
        campaign=campaign,
        by=by,
        encounter_id=encounter.pk,
        turn=encounter.turn,
        request=ca.AttackRequest(
            target=target, characteristic="strength", skills=("melee",), damage=3, riposte=True
        ),
        idempotency_key=key,
        rng=Faces(*faces, then=1),
    )
    assert created
    return pending


def lines(visibility: str, after: int) -> list[str]:
    return list(
        TableEvent.objects.filter(pk__gt=after, visibility=visibility)
        .order_by("pk")
        .values_list("summary", flat=True)
    )


def test_a_player_ripostes_against_a_hidden_attacker_without_naming_it(
    campaign, parried, as_member, storyteller, player, brann
):
    before = TableEvent.objects.order_by("-pk").first().pk
    # The target is implied: the last blow's attacker; a target sent with it is ignored.
    pending = riposte(
        as_member(campaign, player), player, parried, target=parried.combatants.get(name="Brann").pk
    )
    assert pending["attacker"] == parried.combatants.get(name="Aelis").pk
    assert pending["target"] == loup().pk and pending["riposte"]
    roll = Roll.objects.get(pk=pending["roll"])
    assert roll.label == "Riposte contre l'attaquant"  # her own roll, seen by her (and the Conteur)
    assert roll.visibility == Visibility.STORYTELLER
    result, _new = ca.attack_defend(
        campaign=as_member(campaign, storyteller),
        by=storyteller,
        encounter_id=parried.pk,
        attack_id=pending["id"],
        request=ca.DefenceRequest(defence="none"),
        rng=Faces(then=1),
    )
    dealt = result["damage"]
    assert dealt > 0
    assert loup().profile["gauges"]["vitality"]["current"] == 15 - dealt  # it lands on the NPC
    public = " ".join(lines(Visibility.PUBLIC, before))
    assert f"Aelis riposte contre l'attaquant : {pending['total']}" in public
    assert f"La riposte d'Aelis inflige {dealt} points de Vitalité à l'attaquant." in public
    assert "Loup" not in public
    whole = " ".join(lines(Visibility.HIDDEN, before))  # the Conteur's log keeps the whole
    assert "Aelis riposte contre Loup" in whole and "Loup subit" in whole


def test_only_the_defender_allowed_may_riposte_and_only_once(
    campaign, parried, as_member, player, other_player
):
    with pytest.raises(PermissionDenied):
        riposte(as_member(campaign, other_player), other_player, parried)
    riposte(as_member(campaign, player), player, parried)
    with pytest.raises(ValidationError, match="Une attaque attend déjà sa défense"):
        riposte(as_member(campaign, player), player, parried, key="again")


def test_a_riposte_that_misses_tells_the_player_without_naming_the_npc(
    campaign, parried, as_member, player
):
    before = TableEvent.objects.order_by("-pk").first().pk
    missed = riposte(as_member(campaign, player), player, parried, faces=(1,))
    assert missed["result"] is not None and missed["result"]["damage"] == 0
    public = " ".join(lines(Visibility.PUBLIC, before))
    assert "La riposte d'Aelis manque l'attaquant." in public and "Loup" not in public
    assert loup().profile["gauges"]["vitality"]["current"] == 15


# --- through the API ------------------------------------------------------------------------


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_through_the_api_the_player_ripostes_against_l_attaquant(
    campaign, parried, player, storyteller, monkeypatch
):
    route_draws(monkeypatch, Faces(then=6))
    fight = f"/api/campaigns/{campaign.pk}/encounters/{parried.pk}/"
    joueuse = api(player)
    seen = joueuse.get(fight).json()
    aelis_pk = parried.combatants.get(name="Aelis").pk
    assert seen["last_attack"]["masked"] and seen["last_attack"]["riposte_for"] == aelis_pk
    assert "Aelis peut riposter" in seen["last_attack"]["summary"]
    body = {"characteristic": "strength", "skills": ["melee"], "damage": 3, "riposte": True}
    answer = joueuse.post(fight + "attacks/", {**body, "turn": seen["turn"]}, format="json")
    assert answer.status_code == 201, answer.json()
    attack = answer.json()
    assert attack["target"] is None and attack["masked"] and attack["attacker"] == aelis_pk
    assert "Loup" not in json.dumps(attack) and str(loup().pk) not in json.dumps(attack["target"])
    waiting = joueuse.get(fight).json()["pending_attack"]
    assert waiting["id"] == attack["id"] and waiting["target"] is None
    assert waiting["defences"] == []  # the Conteur answers for the NPC
    blow = api(storyteller).post(
        fight + "defence/", {"attack": attack["id"], "defence": "none"}, format="json"
    )
    assert blow.status_code == 201 and blow.json()["target"] == loup().pk
    dealt = blow.json()["damage"]
    assert dealt > 0 and loup().profile["gauges"]["vitality"]["current"] == 15 - dealt
    last = joueuse.get(fight).json()["last_attack"]
    assert last["target"] is None and last["damage"] == dealt
    assert (
        last["summary"] == f"La riposte d'Aelis inflige {dealt} points de Vitalité à l'attaquant."
    )
    log = joueuse.get(f"/api/campaigns/{campaign.pk}/log/").json()["results"]
    assert not any("Loup" in e["summary"] for e in log)
    conteur_log = api(storyteller).get(f"/api/campaigns/{campaign.pk}/log/").json()["results"]
    assert any("riposte contre Loup" in e["summary"] for e in conteur_log)


def test_an_attack_still_needs_a_target_through_the_api(campaign, parried, storyteller):
    fight = f"/api/campaigns/{campaign.pk}/encounters/{parried.pk}/"
    parried.refresh_from_db()
    body = {"characteristic": "strength", "damage": 3, "turn": parried.turn}
    answer = api(storyteller).post(fight + "attacks/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == "Choisissez la cible de l'attaque (`target`)."
    assert "target" not in (answer.json().get("errors") or {})  # a field the client did not send


# --- through the page ------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_on_the_page_the_player_ripostes_and_the_npc_takes_it(
    campaign, parried, player_client, storyteller_client, monkeypatch, htmx
):
    route_draws(monkeypatch, Faces(then=6))
    page = unescape(player_client.get(url(campaign, "table")).content.decode())
    assert "Aelis peut riposter contre l'attaquant" in page and "Riposter" in page
    assert "Loup" not in page
    riposte_form = page.split('class="attack-panel riposte"', 1)[1].split("</form>", 1)[0]
    assert 'name="target"' not in riposte_form  # implied: nothing to choose, nothing named
    whole = unescape(storyteller_client.get(url(campaign, "table")).content.decode())
    assert "Aelis peut riposter contre Loup" in whole  # the Conteur reads the whole
    turn = Encounter.objects.get().turn
    answer = player_client.post(
        url(campaign, "combat_attack", parried.pk),
        {
            "turn": turn,
            "idempotency_key": "page-riposte",
            "riposte": "True",
            "characteristic": "strength",
            "skill": "melee",
            "complexity": 0,
            "difficulty": 0,
            "damage": 3,
            "gauge": "vitality",
            "critical": "table",
        },
        **(HTMX if htmx else {}),
    )
    assert answer.status_code == (200 if htmx else 302)
    pending = Encounter.objects.get().pending_attack
    assert pending["target"] == loup().pk
    waiting = unescape(player_client.get(url(campaign, "table")).content.decode())
    assert "Aelis riposte contre l'attaquant" in waiting
    assert "En attente de la défense de l'attaquant." in waiting and "Loup" not in waiting
    storyteller_client.post(
        url(campaign, "combat_defend", parried.pk),
        {"attack": pending["id"], "defence": "none", "complexity": 0, "critical": "table"},
    )
    dealt = Encounter.objects.get().last_attack["damage"]
    assert dealt > 0 and loup().profile["gauges"]["vitality"]["current"] == 15 - dealt
    after = unescape(player_client.get(url(campaign, "table")).content.decode())
    assert f"La riposte d'Aelis inflige {dealt} points de Vitalité à l'attaquant." in after
    assert "Loup" not in after
