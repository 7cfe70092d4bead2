"""Issue 39, a round's end and initiative through the app (RULES §8, §13): items 1, 7, 8, 9, 13,
14 and 19, each as a Conteur and players would meet it."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from characters.models import Character
from sessions.combat import fights as combat
from sessions.combat.regeneration import regeneration_force
from sessions.models import Combatant, Encounter, StatBlock, TableEvent
from tests.dice import Faces
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def conteur(campaign, storyteller, as_member):
    return as_member(campaign, storyteller)


@pytest.fixture
def wolf(campaign):
    return StatBlock.objects.create(campaign=campaign, name="Loup", agility=2, perception=2)


def start(conteur, storyteller, characters, blocks=(), faces=None) -> Encounter:
    """A fight opened with these characters and stat blocks; initiative rolled with `faces`."""
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Gué")
    joining = combat.party_joining(conteur, [c.pk for c in characters])
    for block in blocks:
        joining += combat.block_joining(conteur, block.pk, 1)
    combat.combatants_add(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, joining=joining
    )
    combat.initiative_roll(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, rng=faces or Faces(then=5)
    )
    encounter.refresh_from_db()
    return encounter


def end_round(conteur, storyteller, encounter, rng=None) -> None:
    """Pass every remaining action of the current round."""
    encounter.refresh_from_db()
    round_ = encounter.round
    while encounter.round == round_:
        combat.turn_next(
            campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn,
            rng=rng or Faces(then=5),
        )  # fmt: skip
        encounter.refresh_from_db()


def named(name) -> Combatant:
    return Combatant.objects.get(name=name)


def test_item_1_initiative_is_rolled_with_the_sheets_dice(conteur, storyteller, aelis, brann):
    """§13 Product: initiative is built like a table roll from the roller's sheet — Épuisement 2
    is two impuissance dice (keep the lowest of three), Zone one surpuissance die."""
    Character.objects.filter(pk=aelis.pk).update(exhaustion=2)
    Character.objects.filter(pk=brann.pk).update(special_state="zone")
    start(conteur, storyteller, [aelis, brann], faces=Faces(9, 8, 2, 3, 7, then=5))
    rolled = named("Aelis").initiative_breakdown
    assert (rolled["dice"], rolled["mode"], rolled["kept"]) == ([9, 8, 2], "lowest", 2)
    zone = named("Brann").initiative_breakdown
    assert (zone["dice"], zone["mode"], zone["kept"]) == ([3, 7], "highest", 7)


def test_item_7_the_peril_roll_counts_agony_and_the_sheets_dice(conteur, storyteller, aelis, brann):
    """§8 Péril against scars, §13 Product: with Épuisement 1 (two dice keep the lowest) and
    Agonie 2 (target 5 scars + 2)."""
    encounter = start(conteur, storyteller, [aelis, brann])
    Character.objects.filter(pk=aelis.pk).update(
        exhaustion=1, agony=2, energy_current=0, energy_peril=True, energy_scars=5
    )
    # Brann's turn-end has nothing to roll; Aelis: 6 and 4 → kept 4 + Résilience 2 = 6 vs 7.
    end_round(conteur, storyteller, encounter, rng=Faces(6, 4, then=None))
    aelis.refresh_from_db()
    assert aelis.energy_scars == 6
    line = TableEvent.objects.filter(summary__contains="Péril (Énergie)").get()
    assert "Aelis fait 6 contre 7, raté : 1 cicatrice de plus." in line.summary


def test_item_8_at_zero_vitality_when_round_1_begins_gains_agony_at_its_end(
    conteur, storyteller, aelis, brann
):
    """§8 Reading (Agonie in a fight): « a combatant already at 0 Vitalité when a round starts
    gains its point at that round's end (the round counts as "entier") »."""
    Character.objects.filter(pk=aelis.pk).update(vitality_current=0, agony=1)
    encounter = start(conteur, storyteller, [aelis, brann])
    end_round(conteur, storyteller, encounter)
    aelis.refresh_from_db()
    assert aelis.agony == 2
    brann.refresh_from_db()
    assert brann.agony == 0


def test_item_9_an_npcs_agony_counts_on_its_initiative_and_peril(conteur, storyteller, aelis, wolf):
    """§8 Reading: « NPCs' Agonie counts on their rolls too »."""
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Gué")
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk])
        + combat.block_joining(conteur, wolf.pk, 1),
    )
    npc = named("Loup 1")
    npc.agony = 2
    npc.profile["gauges"]["energy"] |= {"current": 0, "scars": 3, "peril": True}
    npc.save()
    combat.initiative_roll(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, rng=Faces(then=5)
    )
    assert named("Loup 1").initiative_breakdown["agony"] == 2
    # Péril at each round's start: Résilience 2 + die 5 (round 1), then die 4 (round 2), each
    # against 3 scars + Agonie 2.
    end_round(conteur, storyteller, encounter, rng=Faces(then=4))
    lines = TableEvent.objects.filter(summary__contains="Péril (Énergie)").order_by("pk")
    assert "Loup 1 fait 7 contre 5, réussi." in lines[0].summary
    assert "Loup 1 fait 6 contre 5, réussi." in lines[1].summary


def test_item_13_only_a_regenerated_gauge_can_be_forced_by_at_most_its_points(
    conteur, storyteller, aelis, brann
):
    """§13 Reading: « only a gauge the combatant regenerates can be forced, by at most that
    regeneration's points » (today 15 → 45 Vitalité by anyone)."""
    encounter = start(conteur, storyteller, [aelis, brann])
    acting = Combatant.objects.get(pk=encounter.order[0]["combatant"])
    hero = Character.objects.get(pk=acting.character_id)
    Character.objects.filter(pk=hero.pk).update(vitality_current=5)
    with pytest.raises(ValidationError, match="ne régénère pas cette constitution"):
        regeneration_force(
            campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn,
            gauge="vitality", points=30,
        )  # fmt: skip
    Character.objects.filter(pk=hero.pk).update(vitality_regeneration=3)
    with pytest.raises(ValidationError, match="de 1 à 3 points"):
        regeneration_force(
            campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn,
            gauge="vitality", points=4,
        )  # fmt: skip
    hero.refresh_from_db()
    assert (hero.vitality_current, hero.vitality_scars) == (5, 0)  # nothing changed
    regeneration_force(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn,
        gauge="vitality", points=3,
    )  # fmt: skip
    hero.refresh_from_db()
    assert (hero.vitality_current, hero.vitality_scars) == (8, 3)


def test_item_14_a_one_round_knock_out_costs_the_next_rounds_action(
    conteur, storyteller, aelis, brann
):
    """§8 Reading: a knock-out « makes the combatant miss its next max(Aggravation, Agonie)
    rounds »: knocked out for 1 in round 1, Brann is not in round 2's order, back in round 3."""
    encounter = start(conteur, storyteller, [aelis, brann])
    Combatant.objects.filter(name="Brann").update(status="unconscious", unconscious_turns=1)
    brann_pk = named("Brann").pk
    end_round(conteur, storyteller, encounter)
    encounter.refresh_from_db()
    assert encounter.round == 2
    assert brann_pk not in [slot["combatant"] for slot in encounter.order]
    assert named("Brann").status == "unconscious"
    end_round(conteur, storyteller, encounter)
    encounter.refresh_from_db()
    assert named("Brann").status == "active"
    assert brann_pk in [slot["combatant"] for slot in encounter.order]
    assert TableEvent.objects.filter(summary__contains="Brann reprend connaissance").exists()


def test_item_19_characters_regenerate_at_round_end_like_npcs(
    campaign, conteur, storyteller, player, aelis, brann
):
    """§13 Reading: « characters carry per-gauge regeneration values on the sheet (0 by
    default) and regenerate at round end exactly as NPCs do »; the Conteur sets them."""
    assert aelis.vitality_regeneration == 0
    client = APIClient()
    url = reverse("characters_api:detail", args=[aelis.pk])
    client.force_authenticate(player)
    refused = client.patch(url, {"energy_regeneration": 2, "version": 1}, format="json")
    assert refused.status_code == 400
    assert "Seul le Conteur" in str(refused.json()), refused.json()
    client.force_authenticate(storyteller)
    saved = client.patch(url, {"energy_regeneration": 2, "version": 1}, format="json")
    assert saved.status_code == 200, saved.json()
    assert client.get(url).json()["energy_regeneration"] == 2
    Character.objects.filter(pk=aelis.pk).update(energy_current=10, energy_scars=1)
    encounter = start(conteur, storyteller, [aelis, brann])
    end_round(conteur, storyteller, encounter)
    aelis.refresh_from_db()
    assert (aelis.energy_current, aelis.energy_scars) == (12, 1)
    assert TableEvent.objects.filter(summary__contains="Aelis régénère : +2 Énergie.").exists()


def test_item_7_peril_is_rolled_at_the_first_rounds_start_too(conteur, storyteller, aelis, brann):
    """§8 Reading: « at each turn start, for each gauge in péril » — round 1 included."""
    Character.objects.filter(pk=aelis.pk).update(
        vitality_current=0, vitality_peril=True, vitality_scars=4, agony=1
    )
    # Initiatives: Aelis 5, Brann 5; then Aelis's Péril: 1 − 2 + 2 = 1 against 4 + Agonie 1.
    start(conteur, storyteller, [aelis, brann], faces=Faces(5, 5, 1, 2, then=None))
    aelis.refresh_from_db()
    assert aelis.vitality_scars == 8
    line = TableEvent.objects.filter(summary__contains="Péril (Vitalité)").get()
    assert "Aelis fait 1 contre 5, raté : 4 cicatrices de plus." in line.summary
