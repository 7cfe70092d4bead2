"""A sheet's skills given from rows already read (`characters.selectors.with_skills_from`): read
by `character_skills` without a query, each the character's own."""

import pytest

from characters.models import CharacterSkill
from characters.selectors import character_skills, with_skills_from
from tests.character_fixtures import *  # noqa: F403 (fixtures: the sheet factories)

pytestmark = pytest.mark.django_db


def test_skills_given_from_rows_are_read_without_a_query(
    character, make_character, django_assert_num_queries
):
    make_character(name="Autre", skills=[("melee", 5)])  # the fixture's has melee 2, sport 1
    rows = [
        {"id": s.pk, "kind": s.kind, "key": s.key, "level": s.level, "expertises": s.expertises}
        for s in CharacterSkill.objects.filter(character=character)
    ]
    with_skills_from(character, list(reversed(rows)))
    with django_assert_num_queries(0):
        skills = character_skills(character)
    assert [(s.key, s.level, s.character) for s in skills] == [
        ("melee", 2, character),
        ("sport", 1, character),
    ]


def test_without_given_rows_the_skills_are_the_characters(character, make_character):
    make_character(name="Autre", skills=[("melee", 5)])
    assert [(s.key, s.level) for s in character_skills(character)] == [("melee", 2), ("sport", 1)]
