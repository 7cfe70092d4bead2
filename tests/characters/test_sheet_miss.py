"""A sheet page drawn afresh (a fragment-cache miss) stays cheap: the character and the viewer's
membership, then its rows in three queries, whatever it owns."""

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from campaigns.models import Ability, Asset, Branch, CharacterClass, Flaw, Species
from characters.models import CharacterLanguage, CharacterSkill
from characters.selectors import character_get_for_sheet, character_load_rows
from rules import reference

pytestmark = pytest.mark.django_db


@pytest.fixture
def rich_character(make_character, campaign):
    """A sheet that owns something of everything: 20 skills, languages, compendium entries."""
    character = make_character(languages=[("occidental", 5), (reference.LANGUAGES[1].key, 2)])
    CharacterSkill.objects.bulk_create(
        CharacterSkill(character=character, key=skill.key, level=3, expertises=["Lames"])
        for skill in reference.SKILLS[:19]
    )
    CharacterSkill.objects.create(
        character=character, key="Runes anciennes", kind="forgotten_domain", level=2
    )
    guild = CharacterClass.objects.create(campaign=campaign, name="Lame")
    character.classes.add(guild)
    character.branches.add(
        Branch.objects.create(campaign=campaign, name="Duel", character_class=guild)
    )
    character.abilities.add(
        Ability.objects.create(campaign=campaign, name="Esquive", cost=1),
        Ability.objects.create(campaign=campaign, name="Coup précis", cost=1),
    )
    character.assets.add(Asset.objects.create(campaign=campaign, name="Riche", cost=3))
    character.flaws.add(Flaw.objects.create(campaign=campaign, name="Borgne", value=2))
    return character


@pytest.mark.parametrize("persona", ["player", "storyteller", "other_player"])
def test_a_sheet_miss_costs_a_fixed_handful_of_queries(
    request, client, persona, rich_character, django_assert_max_num_queries
):
    client.force_login(request.getfixturevalue(persona))
    url = reverse("characters:sheet", args=[rich_character.pk])
    client.get(url)  # the session lands in its cache
    cache.clear()  # the body is drawn again (the session is read from the database)
    # The session and the user, the character and the membership, the skills, the languages
    # and the compendium entries (one UNION).
    with django_assert_max_num_queries(7):
        page = client.get(url).content.decode()
    assert "Runes anciennes" in page and "Coup précis, Esquive" in page
    assert "Oriental" in page or reference.LANGUAGES[1].label in page


def test_the_sheet_loader_reads_everything_the_sheet_shows_in_five_queries(
    player, rich_character, django_assert_num_queries
):
    with django_assert_num_queries(5):
        character = character_load_rows(character_get_for_sheet(user=player, pk=rich_character.pk))
        skills = list(character.skills.all())
        languages = list(character.languages.all())
    assert len(skills) == 20 and [row.key for row in languages] == sorted(
        ["occidental", reference.LANGUAGES[1].key]
    )
    assert {k: [e.name for e in v] for k, v in character.entries.items()} == {
        "classes": ["Lame"],
        "branches": ["Duel"],
        "abilities": ["Coup précis", "Esquive"],
        "assets": ["Riche"],
        "flaws": ["Borgne"],
    }
    assert character.can_edit and not character.viewer_is_storyteller
    assert character.campaign.membership.user_id == player.pk
    assert isinstance(languages[0], CharacterLanguage) and languages[0].level_meaning


def test_the_sheet_loader_refuses_a_stranger(outsider, rich_character):
    from django.http import Http404

    with pytest.raises(Http404):
        character_get_for_sheet(user=outsider, pk=rich_character.pk)


@pytest.mark.parametrize("persona", ["player", "storyteller", "other_player"])
def test_the_api_detail_is_the_model_serializer_s_json_key_for_key(
    request, persona, rich_character, campaign
):
    from rest_framework.utils.encoders import JSONEncoder

    from characters.selectors import character_get_for_viewer
    from characters.serializers import CharacterOut, character_out

    user = request.getfixturevalue(persona)
    rich_character.species = Species.objects.create(campaign=campaign, name="Elfe")
    rich_character.private_notes = "Secret"
    rich_character.save()
    shown = character_out(
        character_load_rows(character_get_for_sheet(user=user, pk=rich_character.pk))
    )
    expected = CharacterOut(character_get_for_viewer(user=user, pk=rich_character.pk)).data

    def dumped(data):
        return json.dumps(data, cls=JSONEncoder, ensure_ascii=False)

    assert dumped(shown) == dumped(expected)
    assert ("private_notes" in shown) == (persona != "other_player")


def test_an_api_detail_miss_costs_the_access_check_and_three_queries(
    client, player, rich_character, django_assert_max_num_queries
):
    client.force_login(player)
    url = reverse("characters_api:detail", args=[rich_character.pk])
    assert client.get(url, HTTP_ACCEPT="application/json").status_code == 200
    cache.clear()
    # The session and the user, the character and the membership, then its rows in three.
    with django_assert_max_num_queries(7):
        answer = client.get(url, HTTP_ACCEPT="application/json")
    assert answer.json()["abilities"] == [
        {"id": rich_character.abilities.get(name="Coup précis").pk, "name": "Coup précis"},
        {"id": rich_character.abilities.get(name="Esquive").pk, "name": "Esquive"},
    ]
