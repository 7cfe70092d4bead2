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


@pytest.fixture
def creation_data(compendium):
    """A sheet worth exactly 75 creation points (§9 costs): characteristics 26, Combativité 5,
    skills 26, Occidental 5 = 10, one expertise 1, a founding class 3 and ability 1, an asset 3."""
    return {
        "name": "Aelis",
        "characteristics": {
            "strength": 8,
            "vigor": 6,
            "agility": 6,
            "power": 4,
            "charisma": 4,
            "perception": 4,
            "intellect": 4,
            "will": 4,
            "wisdom": 4,
        },
        "origin": 2,
        "combativeness": 2,
        "premices": {"vitality": 20, "energy": 15, "confidence": 10},
        "skills": {
            "melee": {"level": 5, "expertises": ["Haches"]},
            "tir": {"level": 3, "expertises": []},
            "sport": {"level": 3, "expertises": []},
            "vigilance": {"level": 2, "expertises": []},
        },
        "languages": {"occidental": {"level": 5, "writing": False}},
        "classes": [compendium["class"].pk],
        "abilities": [compendium["ability"].pk],
        "assets": [compendium["asset"].pk],
        "flaws": [],
    }
