"""Fixtures for character sheets: factories over the real services' models."""

import pytest

from campaigns.models import Ability, Asset, CharacterClass, Flaw, Species
from characters.models import Character, CharacterLanguage, CharacterSkill


@pytest.fixture
def species(campaign):
    return Species.objects.create(
        campaign=campaign,
        name="Elfe",
        favourite_characteristics=["agility", "perception"],
        modifiers={"agility": 1, "vigor": -1},
    )


@pytest.fixture
def compendium(campaign):
    """A small compendium: a founding class, an ability, an asset and a flaw."""
    cls = CharacterClass.objects.create(campaign=campaign, name="Lame")
    return {
        "class": cls,
        "ability": Ability.objects.create(
            campaign=campaign, name="Coup précis", character_class=cls, cost=1
        ),
        "asset": Asset.objects.create(campaign=campaign, name="Riche", cost=3),
        "flaw": Flaw.objects.create(campaign=campaign, name="Borgne", value=2),
    }


@pytest.fixture
def make_character(campaign, player):
    def make(*, owner=None, skills=(), languages=(), **fields) -> Character:
        fields.setdefault("name", "Aelis")
        character = Character.objects.create(campaign=campaign, owner=owner or player, **fields)
        for key, level in skills:
            CharacterSkill.objects.create(character=character, key=key, level=level)
        for key, level in languages:
            CharacterLanguage.objects.create(character=character, key=key, level=level)
        return character

    return make


@pytest.fixture
def character(make_character):
    return make_character(skills=[("melee", 2), ("sport", 1)], languages=[("occidental", 5)])
