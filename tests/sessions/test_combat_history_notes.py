"""What a fight did to a character, in its sheet's history (issue 39 §4: "the player's log and
sheet history say what happened to their character even when the attacker is hidden"): each
row a blow wrote says « Une attaque » for a hidden NPC — never its name —, « Attaque de Loup »
for a visible one, and « Critique subi » for what a critical changed."""

from html import unescape

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from characters.models import CharacterChange
from sessions.combat import attacks as ca
from tests.dice import Faces
from tests.sessions.combat_fixtures import loup_bites, running_fight
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def loup_strikes(campaign, storyteller, player, as_member, aelis, brann, *, hidden, faces):
    """The Loup (acting) strikes Aelis, who does not defend: the blow lands on her sheet."""
    conteur = as_member(campaign, storyteller)
    encounter = running_fight(conteur, storyteller, aelis, brann, hidden=hidden)
    bite = {"skills": (), "characteristic_value": 4, "skill_level": 0}
    pending = loup_bites(conteur, storyteller, encounter, faces=Faces(*faces[0]), **bite)
    result, _new = ca.attack_defend(
        campaign=as_member(campaign, player),
        by=player,
        encounter_id=encounter.pk,
        attack_id=pending["id"],
        request=ca.DefenceRequest(defence="none"),
        rng=Faces(*faces[1]),
    )
    assert result["damage"] > 0
    return result


def notes(aelis) -> dict[str, str]:
    return dict(CharacterChange.objects.filter(character=aelis).values_list("field", "note"))


def test_a_hidden_npcs_blow_reads_une_attaque_in_the_history(
    campaign, storyteller, player, as_member, aelis, brann, player_client
):
    strike = {"hidden": True, "faces": ((7, 2), ())}
    loup_strikes(campaign, storyteller, player, as_member, aelis, brann, **strike)
    assert notes(aelis)["vitality_current"] == "Une attaque"
    page = unescape(player_client.get(reverse("characters:history", args=[aelis.pk])).text)
    assert "Une attaque" in page and "Loup" not in page
    api = APIClient()
    api.force_authenticate(player)
    rows = api.get(f"/api/characters/{aelis.pk}/history/").json()
    vitality = next(row for row in rows if row["field"] == "vitality_current")
    assert vitality["note"] == "Une attaque" and vitality["by"] == storyteller.username
    assert "Loup" not in str(rows)


def test_a_visible_npcs_blow_names_it_and_a_critical_says_so(
    campaign, storyteller, player, as_member, aelis, brann, player_client
):
    # A critical success (10, then 4): Aelis suffers a critical, Fragilité 0, d10 8 (§8 table).
    strike = {"hidden": False, "faces": ((10, 4), (8,))}
    result = loup_strikes(campaign, storyteller, player, as_member, aelis, brann, **strike)
    assert result["aggravation"]["defender"] == 1
    found = notes(aelis)
    assert found["vitality_current"] == "Attaque de Loup"
    assert found["aggravation"] == "Critique subi"
    page = unescape(player_client.get(reverse("characters:history", args=[aelis.pk])).text)
    assert "Attaque de Loup" in page and "Critique subi" in page
