"""Versioned writes to a sheet: history, conflicts, sub-resources, restore."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from campaigns.models import Species
from characters.models import CharacterChange
from characters.restore import character_change_restore
from characters.services import (
    SheetConflict,
    character_entries_set,
    character_language_set,
    character_skill_remove,
    character_skill_set,
    character_update,
    character_update_field,
)

pytestmark = pytest.mark.django_db


def test_an_edit_saves_bumps_the_version_and_records_old_and_new(character, player):
    updated = character_update_field(
        character=character, field="strength", value=3, version=1, by=player
    )
    assert updated.version == 2
    character.refresh_from_db()
    assert (character.strength, character.version, character.updated_by) == (3, 2, player)
    change = CharacterChange.objects.get(character=character)
    assert (change.field, change.old_value, change.new_value, change.by, change.version) == (
        "strength",
        2,
        3,
        player,
        2,
    )


def test_setting_the_same_value_changes_nothing(character, player):
    character_update_field(character=character, field="strength", value=2, version=1, by=player)
    character.refresh_from_db()
    assert character.version == 1
    assert not CharacterChange.objects.exists()


def test_a_stale_edit_of_the_same_field_is_refused_with_the_current_value_and_author(
    character, player, storyteller
):
    character_update_field(character=character, field="strength", value=4, version=1, by=player)
    with pytest.raises(SheetConflict) as caught:
        character_update_field(
            character=character, field="strength", value=3, version=1, by=storyteller
        )
    conflict = caught.value
    assert (conflict.field, conflict.current_value, conflict.by, conflict.version) == (
        "strength",
        4,
        player,
        2,
    )
    assert "Modifié entre-temps par aelis" in str(conflict)
    character.refresh_from_db()
    assert character.strength == 4


def test_stale_edits_of_different_fields_both_succeed(character, player, storyteller):
    character_update_field(character=character, field="strength", value=4, version=1, by=player)
    character_update_field(character=character, field="fortune", value=2, version=1, by=storyteller)
    character.refresh_from_db()
    assert (character.strength, character.fortune, character.version) == (4, 2, 3)


def test_a_stale_edit_after_a_long_history_names_the_newest_change_reading_one_row_per_field(
    character, player, storyteller, django_assert_max_num_queries
):
    for value in range(1, 60):  # a campaign's worth of edits of the same fields
        character_update(
            character=character,
            changes={"karma": value % 10, "fortune": value % 3},
            version=None,
            by=player,
        )
    character_update(character=character, changes={"karma": 7}, version=None, by=storyteller)
    character.refresh_from_db()
    read = []

    def count(execute, sql, params, many, context):
        if "characters_characterchange" in sql:
            read.append(sql)
        return execute(sql, params, many, context)

    with (
        connection.execute_wrapper(count),
        django_assert_max_num_queries(6),  # savepoint, lock, a read per field, rollback
        pytest.raises(SheetConflict) as caught,
    ):
        character_update(
            character=character, changes={"karma": 5, "fortune": 1}, version=2, by=player
        )
    conflict = caught.value
    assert (conflict.field, conflict.by, conflict.version) == ("karma", storyteller, 61)
    assert conflict.current_value == character.karma
    assert len(read) == 2 and all("LIMIT 1" in sql for sql in read)


def test_a_version_from_the_future_is_refused(character, player):
    with pytest.raises(ValidationError):
        character_update_field(character=character, field="fortune", value=1, version=9, by=player)


def test_fields_outside_the_table_cannot_be_set(character, player):
    with pytest.raises(ValidationError) as caught:
        character_update(character=character, changes={"version": 7}, version=1, by=player)
    assert "version" in caught.value.message_dict


def test_exaltation_is_the_storytellers(character, player, storyteller):
    with pytest.raises(ValidationError) as caught:
        character_update_field(
            character=character, field="exaltation", value=2, version=1, by=player
        )
    assert caught.value.message_dict["exaltation"] == ["Seul le Conteur peut modifier ce champ."]
    character_update_field(
        character=character,
        field="exaltation",
        value=2,
        version=1,
        by=storyteller,
        storyteller=True,
    )
    character.refresh_from_db()
    assert character.exaltation == 2


def test_species_must_belong_to_the_campaign(character, player, species, storyteller):
    from campaigns.services import campaign_create

    elsewhere = campaign_create(creator=storyteller, name="Ailleurs")
    foreign = Species.objects.create(campaign=elsewhere, name="Nain")
    with pytest.raises(ValidationError):
        character_update_field(
            character=character, field="species", value=foreign.pk, version=1, by=player
        )
    character_update_field(
        character=character, field="species", value=species.pk, version=1, by=player
    )
    change = CharacterChange.objects.get()
    assert change.new_value == {"id": species.pk, "name": "Elfe"}


def test_skill_set_adds_and_changes_rows_with_history(character, player):
    character_skill_set(
        character=character, key="tir", level=2, expertises=["Arcs", " "], version=1, by=player
    )
    row = character.skills.get(key="tir")
    assert (row.level, row.expertises) == (2, ["Arcs"])
    change = CharacterChange.objects.get()
    assert (change.field, change.old_value, change.new_value) == (
        "skills.tir",
        None,
        {"level": 2, "expertises": ["Arcs"]},
    )
    with pytest.raises(SheetConflict):
        character_skill_set(character=character, key="tir", level=3, version=1, by=player)
    # Another skill edited from the same stale version goes through.
    character_skill_set(character=character, key="melee", level=3, version=1, by=player)
    assert character.skills.get(key="melee").level == 3


def test_unknown_skill_and_language_are_refused(character, player):
    with pytest.raises(ValidationError):
        character_skill_set(character=character, key="jonglage", level=1, version=1, by=player)
    with pytest.raises(ValidationError):
        character_language_set(character=character, key="elfique", level=1, version=1, by=player)


def test_forgotten_domains_are_named_by_the_campaign(character, player):
    character_skill_set(
        character=character,
        key="Chants des abysses",
        kind="forgotten_domain",
        level=1,
        version=1,
        by=player,
    )
    assert character.skills.get(key="Chants des abysses").category == "forgotten_domain"


def test_language_set_records_level_and_writing(character, player):
    character_language_set(
        character=character, key="occidental", level=6, writing=True, version=1, by=player
    )
    row = character.languages.get(key="occidental")
    assert (row.level, row.writing) == (6, True)
    assert CharacterChange.objects.get().old_value == {"level": 5, "writing": False}


def test_entries_must_come_from_the_campaign(character, player, compendium):
    character_entries_set(
        character=character,
        relation="classes",
        ids=[compendium["class"].pk],
        version=1,
        by=player,
    )
    assert list(character.classes.all()) == [compendium["class"]]
    with pytest.raises(ValidationError):
        character_entries_set(
            character=character, relation="assets", ids=[987654], version=2, by=player
        )


def test_restore_puts_back_the_old_value_and_records_it(character, player, storyteller):
    character_update_field(character=character, field="karma", value=5, version=1, by=player)
    character_update_field(character=character, field="karma", value=9, version=2, by=player)
    first = CharacterChange.objects.get(version=2)
    character_change_restore(change=first, by=storyteller)
    character.refresh_from_db()
    assert character.karma == 0
    latest = CharacterChange.objects.first()
    assert (latest.action, latest.old_value, latest.new_value, latest.by) == (
        "restore",
        9,
        0,
        storyteller,
    )


def test_restore_of_a_removed_skill_brings_it_back(character, player, storyteller):
    character_skill_remove(character=character, key="melee", version=1, by=player)
    assert not character.skills.filter(key="melee").exists()
    character_change_restore(change=CharacterChange.objects.get(), by=storyteller)
    assert character.skills.get(key="melee").level == 2
