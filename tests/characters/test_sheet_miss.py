"""A sheet page drawn afresh (a page-cache miss) stays cheap (issue 15 §2): the character is
loaded in three queries whatever it owns, and the sheet's forms show the same widgets as Django's
own templates draw."""

import json

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.urls import reverse
from rest_framework.renderers import JSONRenderer

from campaigns.models import Ability, Asset, Branch, CharacterClass, Flaw, Species
from characters import api_cache, page_cache
from characters import forms as sheet_forms
from characters.fields import SHEET_FIELDS
from characters.models import CharacterLanguage, CharacterSkill
from characters.selectors import character_get_for_sheet
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
    request, client, persona, rich_character, monkeypatch, django_assert_max_num_queries
):
    client.force_login(request.getfixturevalue(persona))
    url = reverse("characters:sheet", args=[rich_character.pk])
    client.get(url)  # the session lands in its cache
    monkeypatch.setattr(page_cache, "cached", lambda key, render: render())  # every read misses
    # The user, the probe that keys the page cache, then the character in three queries.
    with django_assert_max_num_queries(5):
        page = client.get(url).content.decode()
    assert "Runes anciennes" in page and "Coup précis, Esquive" in page
    assert "Oriental" in page or reference.LANGUAGES[1].label in page


def test_the_sheet_loader_reads_everything_the_sheet_shows_in_three_queries(
    player, rich_character, django_assert_num_queries
):
    with django_assert_num_queries(3):
        character = character_get_for_sheet(user=player, pk=rich_character.pk)
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


def _widgets(form: forms.Form) -> list[str]:
    return [str(field) for field in form]


def _sheet_forms(campaign):
    """The sheet's forms, blank, bound with errors and bound with good values."""
    yield sheet_forms.OddsForm()
    yield sheet_forms.OddsForm({"characteristic": "x<y", "complexity": "99", "difficulty": "a"})
    yield sheet_forms.SkillAddForm(owned={"melee"}, initial={"version": 3})
    yield sheet_forms.SkillAddForm({"skill-add-level": "99"}, owned=())
    yield sheet_forms.LanguageAddForm({"language-add-writing": "on", "language-add-level": "2"})
    for form_class in (
        sheet_forms.DamageForm,
        sheet_forms.RestForm,
        sheet_forms.HealForm,
        sheet_forms.StabiliseForm,
    ):
        yield form_class()
        yield form_class({})
    for spec in SHEET_FIELDS.values():
        yield sheet_forms.FieldForm(spec, initial={"value": 'A "b" & <c>', "version": 1})
        yield sheet_forms.FieldForm(spec, {"value": "", "version": "x"}, campaign=campaign)


def test_the_sheet_forms_widgets_are_django_s_own_html(campaign, make_character):
    Species.objects.create(campaign=campaign, name="Nain <des monts>")
    django_renderer = DjangoTemplates()
    for form in _sheet_forms(campaign):
        ours = _widgets(form)
        form.renderer = django_renderer
        assert ours == _widgets(form), type(form).__name__


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
    shown = character_out(character_get_for_sheet(user=user, pk=rich_character.pk))
    expected = CharacterOut(character_get_for_viewer(user=user, pk=rich_character.pk)).data

    def dumped(data):
        return json.dumps(data, cls=JSONEncoder, ensure_ascii=False)

    assert dumped(shown) == dumped(expected)
    assert ("private_notes" in shown) == (persona != "other_player")


def test_an_api_detail_miss_costs_the_probe_and_three_queries(
    client, player, rich_character, monkeypatch, django_assert_max_num_queries
):
    client.force_login(player)
    url = reverse("characters_api:detail", args=[rich_character.pk])
    assert client.get(url, HTTP_ACCEPT="application/json").status_code == 200
    monkeypatch.setattr(
        api_cache, "detail_body", lambda pk, tag, serialize: JSONRenderer().render(serialize())
    )
    # The probe that keys the cache, then the character in three queries (the user is cached).
    with django_assert_max_num_queries(4):
        answer = client.get(url, HTTP_ACCEPT="application/json")
    assert answer.json()["abilities"] == [
        {"id": rich_character.abilities.get(name="Coup précis").pk, "name": "Coup précis"},
        {"id": rich_character.abilities.get(name="Esquive").pk, "name": "Esquive"},
    ]
