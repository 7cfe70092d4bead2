"""A precompiled queryset (common/precompiled.py) gives what the ORM gives: the same instances,
their `select_related` rows, annotations and converted fields, for each new set of values; and
the sheet's reads built on it show the sheet as the ORM's queries did."""

import pytest
from django.db import connection
from django.db.models import F

from characters import selectors
from characters.models import Character, CharacterSkill
from common.precompiled import Precompiled
from tests.character_fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def _row(user, pk):
    return (
        Character.objects.select_related("campaign", "species", "owner", "updated_by")
        .filter(pk=pk, campaign__memberships__user=user)
        .annotate(role=F("campaign__memberships__role"))
        .order_by("pk")
    )


def _seen(character):
    return (
        {f.attname: getattr(character, f.attname) for f in Character._meta.concrete_fields},
        character.campaign.name,
        character.campaign.revision,
        character.species.name if character.species_id else None,
        character.owner.username,
        character.updated_by_id and character.updated_by.username,
        character.role,
    )


def test_the_instances_are_the_orm_s(make_character, species, player, storyteller, other_player):
    first = make_character(species=species, notes="Née <à> l'aube", karma=3)
    second = make_character(name="Brann", owner=other_player, updated_by=storyteller)
    precompiled = Precompiled(_row, -2, -1)
    for user in (player, storyteller, other_player):
        for character in (first, second):
            ours = precompiled.objects(user.pk, character.pk)
            orm = list(_row(user.pk, character.pk))
            assert [_seen(c) for c in ours] == [_seen(c) for c in orm]
            assert len(ours) == 1
    assert precompiled.objects(-5, first.pk) == []  # no such member: nothing


def test_converted_fields_come_converted(character):
    CharacterSkill.objects.filter(key="melee").update(expertises=["Lames", "Dagues"])
    skills = Precompiled(lambda pk: CharacterSkill.objects.filter(character_id=pk), -1)
    ours = skills.objects(character.pk)
    assert [(s.key, s.expertises) for s in ours] == [("melee", ["Lames", "Dagues"]), ("sport", [])]
    assert ours[0].pk == CharacterSkill.objects.get(key="melee").pk


def test_a_query_that_ignores_a_marker_is_refused():
    unused = Precompiled(lambda pk, other: CharacterSkill.objects.filter(character_id=pk), -1, -9)
    with pytest.raises(RuntimeError, match="markers"):
        unused.objects(1, 2)


def test_the_sheet_reads_show_the_sheet(character, compendium, player):
    character.classes.add(compendium["class"])
    character.abilities.add(compendium["ability"])
    character.flaws.add(compendium["flaw"])
    loaded = selectors.character_get_for_sheet(user=player, pk=character.pk)
    assert [(s.key, s.level) for s in loaded.skills.all()] == [("melee", 2), ("sport", 1)]
    assert [(x.key, x.level) for x in loaded.languages.all()] == [("occidental", 5)]
    assert loaded.entries["classes"] == [(compendium["class"].pk, "Lame")]
    assert loaded.entries["abilities"] == [(compendium["ability"].pk, "Coup précis")]
    assert loaded.entries["flaws"] == [(compendium["flaw"].pk, "Borgne")]
    assert loaded.entries["assets"] == []
    assert loaded.campaign.membership.role == "player" and loaded.can_edit
    assert all(s.character is loaded for s in loaded.skills.all())


def test_a_locking_read_compiles_outside_a_transaction(postgres, character):
    """A fresh process's first locking read may be compiled where no transaction is open (it
    then runs in a statement of its own: common.precompiled.insert_pair_locked)."""
    locking = Precompiled(lambda pk: Character.objects.select_for_update().filter(pk=pk), -1)
    assert "FOR UPDATE" in locking.sql(connection)
