"""The sheet's body drawn part by part (characters/sheet_parts.py): after any change, a page built
from parts drawn for earlier versions equals a page drawn from nothing, and a write draws again
only the parts that show what it changed."""

import re

import pytest
from django.db.models import F
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from campaigns.models import CharacterClass, Species
from campaigns.services import entry_save
from characters import page_cache, probe_cache, sheet_parts
from characters.fields import PREMICE_FIELDS, SHEET_FIELDS
from characters.models import Character, CharacterLanguage, CharacterSkill, SpecialState
from characters.selectors import character_get_for_sheet
from characters.sheet_page import sheet_context
from common import content_cache

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]

# A CSRF token in a page: 64 letters and digits (masked anew for every page).
TOKEN = re.compile(r"\b[A-Za-z0-9]{64}\b")


def sheet(client, character, query: str = "") -> str:
    response = client.get(reverse("characters:sheet", args=[character.pk]) + query)
    assert response.status_code == 200
    return TOKEN.sub("TOKEN", response.content.decode())


def drawn_from_nothing(client, character, query: str = "") -> str:
    from django.core.cache import cache

    cache.clear()
    content_cache.clear_local()
    return sheet(client, character, query)


def moved(character: Character, **values) -> None:
    """A change of the sheet behind the services' back: its columns and a new version, and the
    sheet's counter moved, as every write of the row moves it (a save's signal, or by hand)."""
    Character.objects.filter(pk=character.pk).update(version=F("version") + 1, **values)
    probe_cache.sheet_moved(character.pk)


def another_value(character: Character, name: str, campaign):
    spec = SHEET_FIELDS[name]
    old = getattr(character, name)
    if spec.kind == "bool":
        return not old
    if spec.kind in ("text", "longtext"):
        return f"{old} et autre chose"
    if spec.kind == "choice":
        return next(value for value, _label in SpecialState.choices if value != old)
    if spec.kind == "species":
        return Species.objects.create(campaign=campaign, name="Nain").pk
    return old - 1 if old > (spec.low or 0) else old + 1


@pytest.fixture
def rich_character(make_character, storyteller):
    character = make_character(
        skills=[("melee", 2), ("sport", 1), ("stealth", 3)],
        languages=[("occidental", 5)],
        vitality_current=10,
        energy_current=8,
        confidence_current=6,
        impact_points=1,
        fortune=2,
        notes="Des notes",
        private_notes="Un secret",
    )
    character.classes.add(CharacterClass.objects.create(campaign=character.campaign, name="Lame"))
    return character


@pytest.mark.parametrize("persona", ["player", "storyteller", "other_player"])
@pytest.mark.parametrize("query", ["", "?edit=karma", "?characteristic=agility&complexity=2"])
def test_the_parts_glued_are_the_template_s_whole_body(
    request, persona, query, rich_character, rf: RequestFactory
):
    user = request.getfixturevalue(persona)
    asked = rf.get("/" + query)
    asked.user = user
    character = character_get_for_sheet(user=user, pk=rich_character.pk)
    context = sheet_context(asked, character, csrf_token=page_cache.CSRF_PLACEHOLDER)
    whole = render_to_string("characters/sheet.html#sheet-body", context, request=asked)
    character = character_get_for_sheet(user=user, pk=rich_character.pk)
    probe = {"pk": character.pk, "version": 1, "campaign__revision": 0}
    probe |= {"owner__username": "x", "storyteller": False, "can_edit": False}
    parts = sheet_parts.body(asked, character, page_cache.parts_key(probe, asked))
    assert parts == whole
    assert 'data-version="1"' in parts and sheet_parts.VERSION_PLACEHOLDER not in parts


@pytest.mark.parametrize("persona", ["player", "storyteller"])
def test_after_a_change_of_any_field_the_page_is_the_one_drawn_from_nothing(
    request, client, persona, rich_character, campaign
):
    client.force_login(request.getfixturevalue(persona))
    for name in SHEET_FIELDS:
        before = sheet(client, rich_character)  # every part in the cache
        rich_character.refresh_from_db()
        column = "species_id" if name == "species" else name
        moved(rich_character, **{column: another_value(rich_character, name, campaign)})
        after = sheet(client, rich_character)
        assert after != before, name
        assert after == drawn_from_nothing(client, rich_character), name


def test_after_a_change_of_the_premices_or_the_owned_rows_the_page_is_the_one_drawn_from_nothing(
    client, player, rich_character, campaign
):
    client.force_login(player)
    first, second = PREMICE_FIELDS[:2]
    changes = [
        lambda: moved(rich_character, **{first: F(first) + 1, second: F(second) - 1}),
        lambda: CharacterSkill.objects.filter(key="melee").update(level=4),
        lambda: CharacterSkill.objects.filter(key="sport").update(expertises=["Nage"]),
        lambda: CharacterSkill.objects.create(character=rich_character, key="survival", level=1),
        lambda: CharacterLanguage.objects.filter(key="occidental").update(writing=True),
        lambda: rich_character.classes.clear(),
    ]
    for change in changes:
        before = sheet(client, rich_character)
        change()
        moved(rich_character)
        after = sheet(client, rich_character)
        assert after != before
        assert after == drawn_from_nothing(client, rich_character)


def test_a_compendium_rename_draws_the_parts_that_name_it(client, player, rich_character):
    client.force_login(player)
    assert "Lame" in sheet(client, rich_character)
    lame = CharacterClass.objects.get(name="Lame")
    lame.name = "Lame-Vive"
    entry_save(entry=lame)
    after = sheet(client, rich_character)
    assert "Lame-Vive" in after and after == drawn_from_nothing(client, rich_character)


def test_a_karma_edit_draws_the_moral_section_alone(client, player, rich_character, drawn_parts):
    client.force_login(player)
    sheet(client, rich_character)
    drawn_parts.clear()
    moved(rich_character, karma=F("karma") + 3)
    page = sheet(client, rich_character)
    assert drawn_parts == ["sec-morale"]
    assert 'data-version="2"' in page and "version 2" in page
    assert 'name="version" value="2"' in page and 'name="version" value="1"' not in page
