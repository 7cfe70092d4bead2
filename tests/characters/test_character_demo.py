"""seed_demo's characters: complete, valid, created once."""

import pytest

from characters.creation import creation_report
from characters.demo import DEMO_SHEETS, demo_characters_seed
from characters.models import Character

pytestmark = pytest.mark.django_db


def test_each_demo_player_gets_one_valid_character(campaign, player, other_player, storyteller):
    users = {"aelis": player, "brann": other_player, "conteur": storyteller}
    demo_characters_seed(campaign=campaign, users=users)
    demo_characters_seed(campaign=campaign, users=users)
    characters = Character.objects.filter(campaign=campaign).order_by("name")
    assert [c.owner.get_username() for c in characters] == ["aelis", "brann"]
    for username, data in DEMO_SHEETS.items():
        assert creation_report(campaign=campaign, data=data).valid
        character = characters.get(owner__username=username)
        assert character.skills.exists() and character.languages.exists()


def test_with_the_example_compendium(campaign, player, other_player, storyteller):
    from campaigns.services import compendium_examples_load

    compendium_examples_load(campaign=campaign)
    demo_characters_seed(campaign=campaign, users=[player, other_player])
    assert Character.objects.filter(campaign=campaign).count() == 2
