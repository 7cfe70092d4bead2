"""Creation within the budget (§9), through the service: the rules engine decides."""

import copy

import pytest
from django.core.exceptions import ValidationError

from characters.creation import character_create, creation_report
from characters.models import CharacterChange
from rules import sheet as rules_sheet

pytestmark = pytest.mark.django_db


def test_a_sheet_at_exactly_75_points_is_created_full(campaign, player, creation_data):
    report = creation_report(campaign=campaign, data=creation_data)
    assert (report.total, report.remaining, report.valid) == (75, 0, True)
    character = character_create(campaign=campaign, owner=player, by=player, data=creation_data)
    assert character.strength == 8 and character.combativeness == 2
    maxima = rules_sheet.gauge_maxima(rules_sheet.Premices(20, 15, 10), 1)
    assert character.vitality_current == maxima["vitality"] == 20
    assert character.skills.get(key="melee").expertises == ["Haches"]
    assert character.languages.get(key="occidental").level == 5
    assert character.classes.count() == character.abilities.count() == 1
    assert CharacterChange.objects.get(character=character).action == "create"


def test_one_point_over_the_budget_is_refused_and_nothing_is_saved(campaign, player, creation_data):
    creation_data["characteristics"]["wisdom"] = 5
    with pytest.raises(ValidationError) as caught:
        character_create(campaign=campaign, owner=player, by=player, data=creation_data)
    assert caught.value.message_dict["budget"] == [
        "Le budget de création est dépassé de 1 point (76 dépensés sur 75)."
    ]
    assert not campaign.characters.exists()


def test_a_characteristic_above_its_cap_is_refused(campaign, player, creation_data):
    creation_data["characteristics"]["strength"] = 9
    creation_data["characteristics"]["vigor"] = 5
    with pytest.raises(ValidationError) as caught:
        character_create(campaign=campaign, owner=player, by=player, data=creation_data)
    assert caught.value.message_dict["strength"] == ["Force ne peut dépasser 8."]


def test_a_favourite_characteristic_may_go_higher(campaign, player, creation_data, species):
    data = copy.deepcopy(creation_data)
    data["species"] = species.pk
    data["characteristics"].update(agility=9, strength=6, vigor=4)
    report = creation_report(campaign=campaign, data=data)
    assert report.valid, report.errors


def test_a_flaw_refunds_its_value(campaign, player, creation_data, compendium):
    creation_data["characteristics"]["wisdom"] = 6  # 77 points…
    creation_data["flaws"] = [compendium["flaw"].pk]  # …minus 2
    report = creation_report(campaign=campaign, data=creation_data)
    assert (report.total, report.valid) == (75, True)
    character = character_create(campaign=campaign, owner=player, by=player, data=creation_data)
    assert list(character.flaws.all()) == [compendium["flaw"]]


def test_the_campaign_budget_overrides_75(campaign, player, creation_data):
    creation_data["characteristics"]["wisdom"] = 8
    campaign.creation_budget = 80
    campaign.save()
    assert creation_report(campaign=campaign, data=creation_data).valid


def test_entries_of_another_tier_are_not_sold_at_creation(campaign, player, creation_data):
    from campaigns.models import CharacterClass

    superior = CharacterClass.objects.create(campaign=campaign, name="Maître", tier="superior")
    creation_data["classes"] = [superior.pk]
    with pytest.raises(ValidationError) as caught:
        character_create(campaign=campaign, owner=player, by=player, data=creation_data)
    assert "classes" in caught.value.message_dict


def test_points_left_unspent_are_refused_unless_accepted_and_said_either_way(
    campaign, player, creation_data
):
    """One rule for the wizard and the API: a sheet leaving points is refused with what is left
    (the wizard then asks), or accepted when the caller says so, the sentences kept for its
    answer."""
    creation_data["skills"]["vigilance"]["level"] = 0  # 4 points left
    with pytest.raises(ValidationError) as refused:
        character_create(campaign=campaign, owner=player, by=player, data=creation_data)
    assert refused.value.message_dict == {
        "unspent": [
            "Il reste 4 points de création à dépenser (71 sur 75) : "
            "une fois le personnage créé, ils ne serviront plus."
        ]
    }
    character = character_create(
        campaign=campaign, owner=player, by=player, data=creation_data, accept_unspent=True
    )
    assert character.unspent == refused.value.message_dict["unspent"]
    assert character.skills.filter(key="vigilance").count() == 0
