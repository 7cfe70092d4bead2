"""Permission-scoped reads of characters, on top of the campaign policy.

A non-member of the character's campaign gets 404 (the sheet's existence is never revealed); a
member reads every sheet of the campaign; only the owner and the Conteur edit (403 for the others).
"""

import functools
import json
from typing import NamedTuple

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import (
    Aggregate,
    BooleanField,
    CharField,
    F,
    IntegerField,
    JSONField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import JSONObject
from django.http import Http404

from campaigns.models import Campaign, Membership, Role
from campaigns.policy import ROW_ID_MAX, campaign_get_for_member, is_storyteller
from characters.models import Character, CharacterChange, CharacterLanguage, CharacterSkill
from common.precompiled import Precompiled

HISTORY_PAGE = 100
SHEET_RELATIONS = ("skills", "languages", "classes", "branches", "abilities", "assets", "flaws")
ENTRY_RELATIONS = ("classes", "branches", "abilities", "assets", "flaws")
LANGUAGE_COLUMNS = ("id", "character_id", "key", "level", "writing")


class Entry(NamedTuple):
    """A compendium entry a sheet owns, as the sheet and the API show it."""

    pk: int
    name: str


def sheet_queryset() -> QuerySet[Character]:
    """Characters with everything a sheet shows loaded in a fixed number of queries."""
    return Character.objects.select_related("species", "owner", "updated_by").prefetch_related(
        *SHEET_RELATIONS
    )


def can_edit(*, user, character: Character, campaign: Campaign) -> bool:
    """The owner and the campaign's Conteur edit a sheet; other members only read it."""
    return character.owner_id == user.pk or is_storyteller(campaign)


def _scoped(*, user, character: Character | None) -> Character:
    if character is None:
        raise Http404("Personnage introuvable.")
    campaign = campaign_get_for_member(user=user, pk=character.campaign_id)
    return _with_rights(user=user, character=character, campaign=campaign)


def _with_rights(*, user, character: Character, campaign: Campaign) -> Character:
    """The character with its campaign (`.membership` the user's) and what the user may do."""
    character.campaign = campaign
    character.can_edit = can_edit(user=user, character=character, campaign=campaign)
    character.viewer_is_storyteller = is_storyteller(campaign)
    # Private notes are for the owner and the Conteur only.
    character.can_see_private = character.can_edit
    return character


def character_get_for_viewer(*, user, pk: int, queryset: QuerySet | None = None) -> Character:
    """The character with `.campaign.membership`, `.can_edit`; 404 unless the user is a member."""
    if not user.is_authenticated:
        raise Http404("Personnage introuvable.")
    queryset = sheet_queryset() if queryset is None else queryset
    return _scoped(user=user, character=queryset.filter(pk=pk).first())


def _sheet_row(user: int, pk: int) -> QuerySet[Character]:
    return (
        Character.objects.select_related("campaign", "species", "owner", "updated_by")
        .filter(pk=pk, campaign__memberships__user=user)
        .annotate(
            viewer_membership_id=F("campaign__memberships__id"),
            viewer_role=F("campaign__memberships__role"),
            viewer_joined_at=F("campaign__memberships__joined_at"),
        )
        .order_by("pk")[:1]
    )


def _languages_and_entries_query(pk: int) -> QuerySet:
    """A character's languages and compendium entries, one UNION of (source, pk, name or key,
    level, writing) rows in the models' own order."""
    text, number, flag = CharField(), IntegerField(), BooleanField()
    languages = (
        CharacterLanguage.objects.filter(character_id=pk)
        .annotate(source=Value("languages", output_field=text))
        .order_by()
        .values_list("source", "pk", "key", "level", "writing")
    )
    owned = [
        Character._meta.get_field(relation)
        .related_model.objects.filter(characters=pk)
        .annotate(
            source=Value(relation, output_field=text),
            level=Value(None, output_field=number),
            writing=Value(None, output_field=flag),
        )
        .order_by()
        .values_list("source", "pk", "name", "level", "writing")
        for relation in ENTRY_RELATIONS
    ]
    return languages.union(*owned, all=True).order_by("key", "pk")


# Compiled once: every sheet read (page or API) asks these three (common/precompiled.py).
_SHEET_ROW = Precompiled(_sheet_row, -2, -1)
_SKILLS = Precompiled(lambda pk: CharacterSkill.objects.filter(character_id=pk), -1)
_LANGUAGES_AND_ENTRIES = Precompiled(_languages_and_entries_query, -1)


def character_get_for_sheet(*, user, pk: int) -> Character:
    """The character as its sheet page shows it, in three queries, for a member (404 otherwise):
    the row with its campaign, species, owner and the viewer's membership; its skills; its
    languages with its compendium entries (one UNION). `.entries` maps each entry relation to
    its `Entry` (pk, name) rows, in the compendium's order; `.skills.all()` and
    `.languages.all()` need no query."""
    found = []
    if user.is_authenticated and 0 < pk <= ROW_ID_MAX:
        found = _SHEET_ROW.objects(user.pk, pk)
    if not found:
        raise Http404("Personnage introuvable.")
    character = found[0]
    campaign = character.campaign
    campaign.membership = Membership(
        pk=character.viewer_membership_id,
        campaign=campaign,
        user_id=user.pk,
        role=character.viewer_role,
        joined_at=character.viewer_joined_at,
    )
    _with_rights(user=user, character=character, campaign=campaign)
    return _with_rows(character)


def character_sheet_after_write(character: Character, *, user, storyteller: bool) -> Character:
    """A sheet a write has just saved, as `character_get_for_sheet` gives it, without reading its
    row again: `character` is the write's locked row (`services.character_lock`: campaign,
    species, owner, last author), `storyteller` the viewer's role as the probe that let the write
    through read it. Two queries: the skills, the languages with the compendium entries.
    `.campaign.membership` is not set (nothing the API answers reads it)."""
    character.can_edit = storyteller or character.owner_id == user.pk
    character.viewer_is_storyteller = storyteller
    character.can_see_private = character.can_edit
    return _with_rows(character)


def _with_rows(character: Character) -> Character:
    """The character with its skills, languages and `.entries` read (two queries)."""
    skills = _SKILLS.objects(character.pk)
    for skill in skills:
        skill.character = character
    _prefetched(character, "skills", skills)
    languages, character.entries = _languages_and_entries(character)
    _prefetched(character, "languages", languages)
    return character


def character_skills(character: Character) -> list[CharacterSkill]:
    """The character's skill rows: its prefetched ones, else one query compiled once."""
    prefetched = getattr(character, "_prefetched_objects_cache", {}).get("skills")
    if prefetched is not None:
        return list(prefetched)
    return _SKILLS.objects(character.pk)


class _JSONRows(Aggregate):
    """The group's rows as one JSON array (PostgreSQL's JSONB_AGG, SQLite's JSON_GROUP_ARRAY)."""

    function = "JSON_GROUP_ARRAY"
    output_field = JSONField()

    def as_postgresql(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="JSONB_AGG", **extra_context)


SKILL_FIELDS = ("id", "kind", "key", "level", "expertises")


def skills_aggregate() -> Subquery:
    """A character's skill rows as one JSON array, to annotate a query of characters with (a
    locking read that then needs no query of its own for them: `with_skills_from`)."""
    rows = (
        CharacterSkill.objects.filter(character_id=OuterRef("pk"))
        .order_by()
        .values("character_id")
        .annotate(rows=_JSONRows(JSONObject(**{name: name for name in SKILL_FIELDS})))
        .values("rows")
    )
    return Subquery(rows, output_field=JSONField())


def with_skills_from(character: Character, rows: list[dict] | None) -> None:
    """`character.skills.all()` made of `skills_aggregate()`'s rows, in the model's order."""
    skills = []
    for row in sorted(rows or (), key=lambda r: (r["kind"], r["key"], r["id"])):
        values = dict(row)
        if isinstance(values["expertises"], str):  # SQLite nests a JSON column as its text
            values["expertises"] = json.loads(values["expertises"])
        skill = CharacterSkill.from_db("default", SKILL_FIELDS, [values[n] for n in SKILL_FIELDS])
        skill.character_id = character.pk
        skill.character = character
        skills.append(skill)
    _prefetched(character, "skills", skills)


def _prefetched(character: Character, relation: str, rows: list) -> None:
    """What `prefetch_related(relation)` would have left: `.<relation>.all()` reads `rows`.

    The queryset is the one the related manager makes (its filter on the character deferred,
    as the manager defers it, the character known to its rows), built without the manager: a
    roll's cached roller gets its skills this way, and a manager's making was most of it."""
    link = character._meta.get_field(relation).field
    queryset = QuerySet(model=link.model, hints={"instance": character})
    queryset._deferred_filter = (False, (), {link.name: character})
    queryset._known_related_objects = {link: {character.pk: character}}
    queryset._result_cache, queryset._prefetch_done = rows, True
    character.__dict__.setdefault("_prefetched_objects_cache", {})[relation] = queryset


def _languages_and_entries(character: Character):
    """([CharacterLanguage], {relation: [Entry]}) of a character, in one query."""
    found: list[CharacterLanguage] = []
    entries: dict[str, list[Entry]] = {relation: [] for relation in ENTRY_RELATIONS}
    for source, pk, name, level, writing in _LANGUAGES_AND_ENTRIES.rows(character.pk):
        if source == "languages":
            language = CharacterLanguage.from_db(
                "default", LANGUAGE_COLUMNS, (pk, character.pk, name, level, writing)
            )
            language.character = character
            found.append(language)
        else:
            entries[source].append(Entry(pk, name))
    return found, entries


EDITORS_ONLY = "Seuls le joueur du personnage et le Conteur peuvent le modifier."


def character_get_for_editor(*, user, pk: int, queryset: QuerySet | None = None) -> Character:
    """As `character_get_for_viewer`, and 403 for a member who may only read the sheet."""
    character = character_get_for_viewer(user=user, pk=pk, queryset=queryset)
    if not character.can_edit:
        raise PermissionDenied(EDITORS_ONLY)
    return character


def character_history(*, character: Character, limit: int = HISTORY_PAGE) -> list[CharacterChange]:
    """The latest changes of a sheet, newest first, with their authors (one query)."""
    changes = CharacterChange.objects.filter(character=character).select_related("by")
    return list(changes[:limit])


def characters_for_campaign(*, campaign: Campaign, user) -> list[Character]:
    """The characters of a campaign that this member may see, for the dashboard (one query).

    Every member sees every sheet of the campaign; `campaign.membership` must be the user's."""
    characters = list(
        Character.objects.filter(campaign=campaign).select_related("owner", "species")
    )
    if getattr(campaign, "membership", None) is None:
        campaign = campaign_get_for_member(user=user, pk=campaign.pk)
    storyteller = is_storyteller(campaign)
    for character in characters:
        character.can_edit = storyteller or character.owner_id == user.pk
    return characters


def characters_for_user(*, user) -> QuerySet[Character]:
    """Every character in the campaigns the user belongs to (for the API list)."""
    return sheet_queryset().filter(campaign__memberships__user=user).distinct()


PROBE_FIELDS = (
    "pk",
    "name",
    "version",
    "owner_id",
    "owner__username",
    "campaign_id",
    "campaign__name",
    "campaign__revision",
    "campaign__memberships__role",
)


@functools.cache
def _probe_sql() -> str:
    """The probe's SQL, compiled by the ORM once: every sheet read asks it, and compiling it
    costs several times what PostgreSQL takes to answer. The user comes first, the character
    second (checked where it is built)."""
    user, pk = -2, -1  # markers that tell the parameters apart
    query = (
        Character.objects.filter(pk=pk, campaign__memberships__user=user)
        .values(*PROBE_FIELDS)
        .order_by()
        .query
    )
    sql, params = query.sql_with_params()
    if tuple(params) != (user, pk):
        raise RuntimeError(f"The sheet probe's parameters changed order: {params}")
    return sql


def sheet_probe(*, user, pk: int) -> dict:
    """What decides how a sheet looks to this user, in one query — its version, the campaign's
    compendium revision, the viewer's role — for the page cache; 404 unless the user is a
    member of the character's campaign."""
    row = None
    if user.is_authenticated and 0 < pk <= ROW_ID_MAX:
        with connection.cursor() as cursor:
            cursor.execute(_probe_sql(), [user.pk, pk])
            found = cursor.fetchone()
        row = dict(zip(PROBE_FIELDS, found, strict=True)) if found else None
    if row is None:
        raise Http404("Personnage introuvable.")
    row["storyteller"] = row.pop("campaign__memberships__role") == Role.STORYTELLER
    row["can_edit"] = row["storyteller"] or row["owner_id"] == user.pk
    return row


def sheet_rights_for_editor(*, user, pk: int) -> dict:
    """`sheet_probe`'s row for a write that locks the sheet itself: 404 for a non-member, 403
    for a member who may only read the sheet (one query)."""
    row = sheet_probe(user=user, pk=pk)
    if not row["can_edit"]:
        raise PermissionDenied(EDITORS_ONLY)
    return row
