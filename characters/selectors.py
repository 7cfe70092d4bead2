"""Permission-scoped reads of characters, on top of the campaign policy.

A non-member of the character's campaign gets 404 (the sheet's existence is never revealed); a
member reads every sheet of the campaign; only the owner and the Conteur edit (403 for the others).
"""

import json
from typing import NamedTuple

from django.core.exceptions import PermissionDenied
from django.db.models import (
    Aggregate,
    CharField,
    JSONField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    prefetch_related_objects,
)
from django.db.models.functions import JSONObject
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign
from campaigns.policy import ROW_ID_MAX, campaign_get_for_member, is_storyteller
from characters.models import Character, CharacterChange, CharacterSkill

HISTORY_PAGE = 100
SHEET_RELATIONS = ("skills", "languages", "classes", "branches", "abilities", "assets", "flaws")
ENTRY_RELATIONS = ("classes", "branches", "abilities", "assets", "flaws")


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
        raise Http404(_("Personnage introuvable."))
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
    if not user.is_authenticated or not 0 < pk <= ROW_ID_MAX:
        raise Http404(_("Personnage introuvable."))
    queryset = sheet_queryset() if queryset is None else queryset
    return _scoped(user=user, character=queryset.filter(pk=pk).first())


def character_get_for_sheet(*, user, pk: int) -> Character:
    """The character as its sheet page and the API show it, for a member (404 otherwise), in
    two queries: the row with its species, owner and last author; the viewer's membership
    (`campaigns.policy`). Its rows (skills, languages, `.entries`) are read by
    `character_load_rows` when something is drawn or serialized, not for a read the cache
    answers."""
    queryset = Character.objects.select_related("species", "owner", "updated_by")
    return character_get_for_viewer(user=user, pk=pk, queryset=queryset)


def character_sheet_after_write(character: Character, *, user, storyteller: bool) -> Character:
    """A sheet a write has just saved, as `character_get_for_sheet` gives it, without reading its
    row again: `character` is the write's locked row (`services.character_lock`: campaign,
    species, owner, last author), `storyteller` the viewer's role as read before the write.
    `.campaign.membership` is not set (nothing the API answers reads it)."""
    character.can_edit = storyteller or character.owner_id == user.pk
    character.viewer_is_storyteller = storyteller
    character.can_see_private = character.can_edit
    return character


def character_load_rows(character: Character) -> Character:
    """The character with its skills and languages prefetched and `.entries` read (three
    queries, none for what is already there). `.entries` maps each entry relation to its
    `Entry` (pk, name) rows, in the compendium's order."""
    prefetch_related_objects([character], "skills", "languages")
    if getattr(character, "entries", None) is None:
        character.entries = _entries(character.pk)
    return character


def _entries_query(pk: int) -> QuerySet:
    """A character's compendium entries, one UNION of (relation, pk, name) rows."""
    text = CharField()
    owned = [
        Character._meta.get_field(relation)
        .related_model.objects.filter(characters=pk)
        .annotate(source=Value(relation, output_field=text))
        .order_by()
        .values_list("source", "pk", "name")
        for relation in ENTRY_RELATIONS
    ]
    return owned[0].union(*owned[1:], all=True).order_by("name", "pk")


def _entries(pk: int) -> dict[str, list[Entry]]:
    entries: dict[str, list[Entry]] = {relation: [] for relation in ENTRY_RELATIONS}
    for source, entry_pk, name in _entries_query(pk):
        entries[source].append(Entry(entry_pk, name))
    return entries


def character_skills(character: Character) -> list[CharacterSkill]:
    """The character's skill rows: those `with_skills_from` gave it, else its (prefetched)
    relation."""
    given = getattr(character, "skill_list", None)
    if given is not None:
        return list(given)
    return list(character.skills.all())


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
    """`character.skill_list`: `skills_aggregate()`'s rows as skills, in the model's order
    (`character_skills` reads them)."""
    skills = []
    for row in sorted(rows or (), key=lambda r: (r["kind"], r["key"], r["id"])):
        values = dict(row)
        if isinstance(values["expertises"], str):  # SQLite nests a JSON column as its text
            values["expertises"] = json.loads(values["expertises"])
        skill = CharacterSkill(character=character, **values)
        skills.append(skill)
    character.skill_list = skills


EDITORS_ONLY = gettext_lazy("Seuls le joueur du personnage et le Conteur peuvent le modifier.")


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
