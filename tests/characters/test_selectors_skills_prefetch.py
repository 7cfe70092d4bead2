"""A sheet's skills given from rows already read (`characters.selectors.with_skills_from`): read
by `.skills.all()` without a query, and still the character's own when a query filters them."""

import pytest

from characters.models import CharacterSkill
from characters.selectors import with_skills_from
from tests.character_fixtures import *  # noqa: F403 (fixtures: the sheet factories)

pytestmark = pytest.mark.django_db


def test_skills_given_from_rows_are_read_without_a_query_and_filter_as_the_characters(
    character, make_character, django_assert_num_queries
):
    make_character(name="Autre", skills=[("melee", 5)])  # the fixture's has melee 2, sport 1
    rows = [
        {"id": s.pk, "kind": s.kind, "key": s.key, "level": s.level, "expertises": s.expertises}
        for s in CharacterSkill.objects.filter(character=character)
    ]
    with_skills_from(character, rows)
    with django_assert_num_queries(0):
        skills = list(character.skills.all())
    assert [(s.key, s.level, s.character) for s in skills] == [
        ("melee", 2, character),
        ("sport", 1, character),
    ]
    # A query made from them is the character's: the other sheet's row is not in it.
    assert [s.level for s in character.skills.filter(key="melee")] == [2]
    assert character.skills.count() == 2
