"""Damage, rest and care through the service: the rules decide, the notes say what happened."""

import pytest
from django.core.exceptions import ValidationError

from characters.condition import (
    character_damage,
    character_heal,
    character_rest,
    character_stabilise,
)
from characters.models import Character, CharacterChange

pytestmark = pytest.mark.django_db


def test_a_hit_says_the_gauge_before_and_after_and_its_scars(character, player):
    notes = character_damage(character=character, gauge="vitality", amount=7, scars=1, by=player)
    assert notes == ["Vitalité : 15 → 8, cicatrices 0 → 1."]
    character.refresh_from_db()
    assert (character.vitality_current, character.vitality_scars, character.version) == (8, 1, 2)
    changed = set(CharacterChange.objects.values_list("field", "action"))
    assert changed == {("vitality_current", "damage"), ("vitality_scars", "damage")}


@pytest.mark.parametrize(
    ("gauge", "outcome"),
    [
        ("vitality", "Le personnage meurt."),
        ("energy", "Le personnage perd connaissance."),
        ("confidence", "Le personnage est découragé."),
    ],
)
def test_a_gauge_at_zero_is_in_peril_and_the_notes_say_what_follows(
    character, player, gauge, outcome
):
    notes = character_damage(character=character, gauge=gauge, amount=30, by=player)
    assert notes[1:] == [f"{notes[0].split(' :')[0]} en péril jusqu'à stabilisation.", outcome]


def test_stabilised_then_rested_every_gauge_is_reported(character, player):
    character_damage(character=character, gauge="vitality", amount=20, by=player)
    assert character_stabilise(character=character, gauge="vitality", by=player) == [
        "Vitalité stabilisée."
    ]
    notes = character_rest(character=character, rank="normal", by=player)
    assert notes == [
        "Repos Normale : Vitalité 0 → 4, Énergie 15 → 15, Confiance 15 → 15.",
        "Stable : l'Agonie est perdue.",
    ]
    character.refresh_from_db()
    assert character.agony == 0  # a full rest while stable clears it


@pytest.mark.parametrize("rank", ["hard", "very_hard", "impossible"])
def test_agony_is_lost_after_a_rest_of_any_rank_if_stable(character, player, rank):
    """Source: « Vous perdez votre Agonie après un repos si vous êtes stable ». RULES.md §8:
    "Agonie: … lost after a rest if stable". Aggravation ("Reading: back to 0 after a full
    rest") and Descente ("until a full rest", §7) wait for a full rest (Normale or easier)."""
    character_damage(character=character, gauge="vitality", amount=20, by=player)
    character_stabilise(character=character, gauge="vitality", by=player)
    Character.objects.filter(pk=character.pk).update(aggravation=2, special_state="comedown")
    notes = character_rest(character=character, rank=rank, by=player)
    character.refresh_from_db()
    assert character.agony == 0 and notes[-1] == "Stable : l'Agonie est perdue."
    assert (character.aggravation, character.special_state) == (2, "comedown")
    lost = CharacterChange.objects.get(character=character, field="agony", action="rest")
    assert (lost.old_value, lost.new_value) == (1, 0)


def test_agony_stays_after_a_rest_while_in_peril(character, player):
    """Not stable (Vitalité in péril, §8): no rest takes the Agonie away, even a full one."""
    character_damage(character=character, gauge="vitality", amount=20, by=player)
    Character.objects.filter(pk=character.pk).update(aggravation=1)
    character_rest(character=character, rank="normal", by=player)
    character.refresh_from_db()
    assert (character.agony, character.aggravation) == (1, 0)


def test_healing_stops_at_the_maximum(character, player):
    character_damage(character=character, gauge="energy", amount=10, by=player)
    assert character_heal(character=character, gauge="energy", points=40, by=player) == [
        "Énergie : 5 → 15."
    ]


@pytest.mark.parametrize(
    "action",
    [
        lambda c, u: character_damage(character=c, gauge="mana", amount=1, by=u),
        lambda c, u: character_heal(character=c, gauge="mana", points=1, by=u),
        lambda c, u: character_stabilise(character=c, gauge="mana", by=u),
        lambda c, u: character_rest(character=c, rank="forever", by=u),
        lambda c, u: character_damage(character=c, gauge="energy", amount=1, scars=2, by=u),
    ],
)
def test_an_impossible_action_is_refused_and_nothing_is_recorded(character, player, action):
    with pytest.raises(ValidationError):
        action(character, player)
    assert not CharacterChange.objects.exists()
