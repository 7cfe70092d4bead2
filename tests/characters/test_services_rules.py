"""Issue 13 §9 on the sheet: scars on damage, Agonie at 0 Vitalité and the Résilience refill are
the engine's (rules.gauges, rules.states, rules.rest); Vrai Primordial's own purchase base (§2)."""

import pytest
from django.core.exceptions import ValidationError

from characters.condition import character_damage, character_rest
from characters.creation import creation_report
from characters.models import Character, CharacterChange
from tests.character_fixtures import *  # noqa: F403 (fixtures: the sheet factories)

pytestmark = pytest.mark.django_db


def test_serious_wounds_become_scars_and_never_exceed_the_damage(character, player):
    # §3: "serious wounds (blessures/dégâts graves) = scars".
    character_damage(character=character, gauge="energy", amount=5, scars=2, by=player)
    character.refresh_from_db()
    assert character.energy_scars == 2
    with pytest.raises(ValidationError) as refused:
        character_damage(character=character, gauge="energy", amount=1, scars=2, by=player)
    assert refused.value.message_dict == {
        "scars": ["Les blessures graves ne peuvent dépasser les dégâts infligés."]
    }


def test_reaching_zero_vitality_gives_one_agony_once(character, player):
    # §8: "Agonie: reaching 0 Vitalité gives 1 (if 0)".
    character_damage(character=character, gauge="vitality", amount=99, by=player)
    character.refresh_from_db()
    assert character.agony == 1
    character_damage(character=character, gauge="vitality", amount=3, by=player)  # already 0
    character.refresh_from_db()
    assert character.agony == 1


def test_resilience_points_all_come_back_after_a_rest_without_scars_or_wounds(character, player):
    # §4: "Résilience points all come back on a rest with no scars and no wounds."
    Character.objects.filter(pk=character.pk).update(resilience_points=0)
    character_rest(character=character, rank="normal", by=player)
    character.refresh_from_db()
    assert character.resilience_points == 2  # the Résilience row's score at 2 everywhere
    assert CharacterChange.objects.filter(
        character=character, field="resilience_points", new_value=2
    ).exists()


def test_a_wounded_rest_gives_no_resilience_back(character, player):
    Character.objects.filter(pk=character.pk).update(resilience_points=0)
    character_damage(character=character, gauge="vitality", amount=1, by=player)
    character_rest(character=character, rank="impossible", by=player)
    character.refresh_from_db()
    assert character.resilience_points == 0


def test_vrai_primordial_has_its_own_purchase_base_at_creation(campaign, creation_data):
    # §2: "Vrai Primordial: … its own purchase base, its level may never exceed Primordial's"
    # (« possède sa propre base d'achat »); Reading: +1 = 4, a language's +1 = 2.
    creation_data["languages"] = {
        "occidental": {"level": 1, "writing": False},
        "primordial": {"level": 1, "writing": False},
        "vrai_primordial": {"level": 1, "writing": False},
    }
    report = creation_report(campaign=campaign, data=creation_data)
    costs = {line.field: line.points for line in report.lines if line.field.startswith("languages")}
    assert costs == {
        "languages.occidental": 2,
        "languages.primordial": 2,
        "languages.vrai_primordial": 4,
    }
