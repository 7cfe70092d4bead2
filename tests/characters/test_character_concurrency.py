"""Two clients write to the same sheet at once, against PostgreSQL: nothing is lost."""

import threading

import pytest
from django.db import connection

from characters.models import Character, CharacterChange
from characters.services import SheetConflict, character_update_field

pytestmark = pytest.mark.services


def _race(calls):
    """Run each call in its own thread and connection, released together; return outcomes."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except Exception as error:  # noqa: BLE001 - the outcome under test
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def test_same_field_from_the_same_version_exactly_one_wins(
    postgres, make_character, player, storyteller
):
    character = make_character()
    outcomes = _race(
        [
            lambda: character_update_field(
                character=character.pk, field="strength", value=4, version=1, by=player
            ),
            lambda: character_update_field(
                character=character.pk, field="strength", value=5, version=1, by=storyteller
            ),
        ]
    )
    winners = [o for o in outcomes if isinstance(o, Character)]
    conflicts = [o for o in outcomes if isinstance(o, SheetConflict)]
    assert len(winners) == 1 and len(conflicts) == 1, outcomes
    character.refresh_from_db()
    assert character.strength == winners[0].strength
    assert character.version == 2
    # The loser learns the winner's value and name.
    assert conflicts[0].current_value == character.strength
    assert conflicts[0].by == character.updated_by
    assert CharacterChange.objects.filter(character=character).count() == 1


def test_different_fields_from_the_same_version_both_win(
    postgres, make_character, player, storyteller
):
    character = make_character()
    outcomes = _race(
        [
            lambda: character_update_field(
                character=character.pk, field="strength", value=4, version=1, by=player
            ),
            lambda: character_update_field(
                character=character.pk, field="fortune", value=3, version=1, by=storyteller
            ),
        ]
    )
    assert all(isinstance(o, Character) for o in outcomes), outcomes
    character.refresh_from_db()
    assert (character.strength, character.fortune, character.version) == (4, 3, 3)
    assert sorted(CharacterChange.objects.values_list("version", flat=True)) == [2, 3]
