"""A creature's regenerations at the end of each turn (issue 14 §3). RULES.md §13:
« Regeneration at the end of each turn; forcing one costs an action and adds as many serious
wounds as it regenerated. » The author: « Les régénérations ont lieu à la fin de chaque tour. »"""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rules.combat import turn_regeneration
from rules.gauges import Gauge
from sessions.combat import fights as combat
from sessions.models import Combatant, StatBlock, TableEvent, Visibility
from tests.dice import Faces
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def test_a_turns_regeneration_heals_never_past_the_maximum_and_leaves_no_scar():
    hurt = Gauge(maximum=15, current=10, scars=2)
    assert turn_regeneration(hurt, 3) == Gauge(maximum=15, current=13, scars=2)
    assert turn_regeneration(hurt, 9).current == 15


@pytest.fixture
def troll(campaign):
    return StatBlock.objects.create(
        campaign=campaign, name="Troll", vitality_max=30, vitality_regeneration=4
    )


def fight_with(campaign, storyteller, as_member, aelis, troll, *, hidden):
    conteur = as_member(campaign, storyteller)
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Pont")
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk])
        + combat.block_joining(conteur, troll.pk, 1, hidden=hidden),
    )
    combat.initiative_roll(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, rng=Faces(then=5)
    )
    npc = Combatant.objects.get(stat_block=troll)
    npc.profile["gauges"]["vitality"]["current"] = 20  # wounded: 10 wounds, no scar
    npc.save(update_fields=["profile"])
    return conteur, encounter


def end_round(conteur, storyteller, encounter):
    encounter.refresh_from_db()
    for _ in range(len(encounter.order)):
        encounter.refresh_from_db()
        combat.turn_next(
            campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn,
            rng=Faces(then=5),
        )  # fmt: skip
        encounter.refresh_from_db()
        if encounter.round == 2:
            return


def test_the_troll_regenerates_at_the_end_of_each_round(
    campaign, storyteller, as_member, aelis, troll
):
    conteur, encounter = fight_with(campaign, storyteller, as_member, aelis, troll, hidden=False)
    assert Combatant.objects.get(stat_block=troll).profile["regeneration"] == {"vitality": 4}
    end_round(conteur, storyteller, encounter)
    vitality = Combatant.objects.get(stat_block=troll).profile["gauges"]["vitality"]
    assert (vitality["current"], vitality["scars"]) == (24, 0)
    line = TableEvent.objects.filter(summary__contains="Troll 1 régénère").get()
    assert "Troll 1 régénère : +4 Vitalité." in line.summary
    assert line.visibility == Visibility.PUBLIC


def test_a_hidden_creatures_regeneration_is_the_conteurs_alone(
    campaign, storyteller, as_member, aelis, troll
):
    conteur, encounter = fight_with(campaign, storyteller, as_member, aelis, troll, hidden=True)
    end_round(conteur, storyteller, encounter)
    line = TableEvent.objects.filter(summary__contains="Troll 1 régénère").get()
    assert line.visibility == Visibility.HIDDEN


def test_the_bestiary_keeps_the_regeneration_through_the_api(campaign, storyteller):
    client = APIClient()
    client.force_authenticate(storyteller)
    url = reverse("sessions_api:stat-block-list", args=[campaign.pk])
    made = client.post(url, {"name": "Hydre", "vitality_regeneration": 5}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["vitality_regeneration"] == 5
    assert StatBlock.objects.get(name="Hydre").vitality_regeneration == 5
    refused = client.post(url, {"name": "Ver", "energy_regeneration": -1}, format="json")
    assert refused.status_code == 400
