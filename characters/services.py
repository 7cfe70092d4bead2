"""Writes to character sheets: every page and API endpoint goes through these functions.

Each write locks the sheet row, checks the caller's version against the history of the fields it
touches (a stale edit of a field someone else changed meanwhile is a `SheetConflict`; edits of
different fields both succeed), asks the rules engine whether the new sheet is valid, saves only
the changed columns, bumps `version` and records old → new in `CharacterChange`.

Here: fields, skills, languages, compendium entries, restores, and that locked, versioned write
path itself. New sheets (creation, import) are in `characters.creation`; damage, rest and care
in `characters.condition`, both writing through `character_lock` and `character_record_changes`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.policy import ROW_ID_MAX
from characters import sheet
from characters.compendium_lookups import (
    COMPENDIUM_MODELS,
    entries_in_campaign,
    species_in_campaign,
)
from characters.fields import SHEET_FIELDS
from characters.models import (
    ChangeAction,
    Character,
    CharacterChange,
    CharacterLanguage,
    CharacterSkill,
    SkillKind,
)
from common import push
from rules import reference
from rules.errors import RuleError

# The sheet's rows kept by key; their history fields are "skills.<key>" and "languages.<key>".
ROW_RELATIONS = ("skills", "languages")

SheetRow = CharacterSkill | CharacterLanguage


class SheetConflict(Exception):
    """An edit made on a stale version of a field someone else changed in the meantime."""

    def __init__(
        self, *, field: str, current_value: Any, by, at: datetime | None, version: int
    ) -> None:
        self.field = field
        self.current_value = current_value
        self.by = by
        self.at = at
        self.version = version
        who = by.get_username() if by is not None else "?"
        super().__init__(
            _("Modifié entre-temps par %(who)s : valeur actuelle %(current_value)r.")
            % {"who": who, "current_value": current_value}
        )

    @property
    def by_name(self) -> str:
        return self.by.get_username() if self.by is not None else ""


def rule_error_to_validation_error(error: RuleError) -> ValidationError:
    """The one translation of the engine's French violations into a Django ValidationError."""
    messages: dict[str, list[str]] = {}
    for violation in error.violations:
        messages.setdefault(violation.field or "__all__", []).append(violation.message)
    return ValidationError(messages)


def validate_sheet(character: Character, *, skills=None, languages=None) -> None:
    """Raise ValidationError if the rules engine finds the sheet invalid."""
    try:
        sheet.validate(character, skills=skills, languages=languages)
    except RuleError as error:
        raise rule_error_to_validation_error(error) from error


# --- values as JSON: for history, export and restore ---------------------------------------


def field_value(character: Character, field: str) -> Any:
    """The JSON value of one editable field (history, conflicts, API)."""
    if field == "species":
        species = character.species
        return None if species is None else {"id": species.pk, "name": species.name}
    if field in COMPENDIUM_MODELS:
        return [{"id": e.pk, "name": e.name} for e in getattr(character, field).all()]
    row_field = row_field_of(field)
    if row_field is not None:
        relation, key = row_field
        return _row_value(_rows(character, relation).get(key))
    return getattr(character, field)


def row_field_of(field: str) -> tuple[str, str] | None:
    """("skills", "tir") for the history field "skills.tir"; None for a field that is no row."""
    relation, dot, key = field.partition(".")
    return (relation, key) if dot and relation in ROW_RELATIONS else None


def _rows(character: Character, relation: str) -> dict[str, SheetRow]:
    return {row.key: row for row in getattr(character, relation).all()}


def _row_value(row: SheetRow | None) -> dict[str, Any] | None:
    """A skill or language row as JSON, as the history and conflicts show it (None: no row)."""
    if row is None:
        return None
    if isinstance(row, CharacterSkill):
        return {"level": row.level, "expertises": list(row.expertises)}
    return {"level": row.level, "writing": row.writing}


# --- the locked, versioned, recorded write ---------------------------------------------------


def _check_version(
    *,
    character: Character,
    fields: list[str],
    version: int | None,
    asked: dict[str, Any] | None = None,
    by=None,
) -> None:
    """Refuse an edit made on `version` if one of `fields` changed after it — unless that change
    is `by`'s own, to the very value `asked` again (a retry after a lost answer)."""
    if version is None or version == character.version:
        return
    if version > character.version:
        raise ValidationError({"version": _("Version inconnue : rechargez la fiche.")})
    for change in _newest_changes(character, fields, after=version):
        if asked is None or not _is_own_retry(character, change, asked, by):
            raise SheetConflict(
                field=change.field,
                current_value=field_value(character, change.field),
                by=change.by,
                at=change.at,
                version=character.version,
            )


def _newest_changes(
    character: Character, fields: list[str], *, after: int
) -> list[CharacterChange]:
    """Each field's newest change after version `after`, newest first: one row per field read
    (a sheet's history grows all campaign long, a stale edit must not read it all)."""
    newer = (
        CharacterChange.objects.filter(character=character, version__gt=after)
        .select_related("by")
        .order_by("-version", "-pk")
    )
    found = [newer.filter(field=field).first() for field in dict.fromkeys(fields)]
    return sorted(
        (change for change in found if change is not None), key=lambda c: (-c.version, -c.pk)
    )


def _is_own_retry(character: Character, change: CharacterChange, asked: dict, by) -> bool:
    """The field's latest change is the caller's, and it holds the value asked again."""
    if change.by_id is None or change.by_id != getattr(by, "pk", None):
        return False
    field = change.field
    current = character.species_id if field == "species" else getattr(character, field, None)
    return asked[field] == current


def character_lock(character: Character | int) -> Character:
    """The character's row, locked until the end of the transaction, with its campaign, species,
    owner and last author (Character.DoesNotExist if there is none)."""
    pk = character if isinstance(character, int) else character.pk
    if not 0 < pk <= ROW_ID_MAX:
        raise Character.DoesNotExist("Character matching query does not exist.")
    return (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "species", "owner", "updated_by")
        .get(pk=pk)
    )


# A job locks its sheets by chunks of this many rows (one query each).
LOCK_CHUNK = 200


def characters_lock(queryset) -> dict[int, Character]:
    """Many sheets locked at once, for a job: in id order and by chunks of LOCK_CHUNK, so the
    job waits for the edits in progress and the edits wait for it. The rows as read under the
    lock (with what `queryset` selects and prefetches), by id."""
    rows = queryset.select_for_update(of=("self",)).order_by("pk")
    locked: dict[int, Character] = {}
    last = 0
    while chunk := list(rows.filter(pk__gt=last)[:LOCK_CHUNK]):
        locked.update((c.pk, c) for c in chunk)
        last = chunk[-1].pk
    return locked


def character_record_changes(
    character: Character,
    *,
    changes: dict[str, tuple[Any, Any]],
    by,
    action: str,
    update_fields: list[str],
    note: str = "",
) -> Character:
    """Bump the version, save the changed columns and write one history row per field;
    `note` says on each row what caused the change (« Une attaque »), blank if nothing."""
    character.version += 1
    character.updated_by = by
    character.save(update_fields=[*update_fields, "version", "updated_by", "updated_at"])
    CharacterChange.objects.bulk_create(
        _history(character, changes, by=by, action=action, note=note)
    )
    _publish_version(character)
    return character


def _publish_version(character: Character) -> None:
    """Tell the sheet's open pages (another tab, another player) that it has a new version."""
    if character.campaign_id is not None:
        push.publish_on_commit(
            push.campaign_channel(character.campaign_id),
            {"type": "sheet", "character": character.pk, "version": character.version},
        )


def characters_record_changes(
    characters: list[Character],
    *,
    changes: dict[int, dict[str, tuple[Any, Any]]],
    by,
    action: str,
    update_fields: set[str],
) -> None:
    """`character_record_changes` for many sheets locked by `characters_lock`, in bulk: each
    changed sheet gets its next version and one history row per field."""
    changed = [c for c in characters if changes.get(c.pk)]
    if not changed:
        return
    now = timezone.now()
    history: list[CharacterChange] = []
    for character in changed:
        character.version += 1
        character.updated_by = by
        character.updated_at = now
        history += _history(character, changes[character.pk], by=by, action=action)
    columns = {*update_fields, "version", "updated_by", "updated_at"}
    Character.objects.bulk_update(changed, sorted(columns))
    CharacterChange.objects.bulk_create(history)
    for character in changed:
        _publish_version(character)


def _history(
    character: Character,
    changes: dict[str, tuple[Any, Any]],
    *,
    by,
    action: str,
    note: str = "",
):
    return [
        CharacterChange(
            character=character,
            version=character.version,
            field=field,
            old_value=old,
            new_value=new,
            action=action,
            by=by,
            note=note[:120],
        )
        for field, (old, new) in changes.items()
    ]


# --- scalar fields ---------------------------------------------------------------------------


def _check_editable(changes: dict[str, Any], *, storyteller: bool) -> None:
    """Refuse fields that are not edited one at a time, and the Conteur's to anyone else."""
    unknown = [f for f in changes if f not in SHEET_FIELDS]
    if unknown:
        raise ValidationError({f: _("Ce champ ne peut pas être modifié ainsi.") for f in unknown})
    if not storyteller:
        reserved = [f for f in changes if SHEET_FIELDS[f].storyteller_only]
        if reserved:
            raise ValidationError(
                {f: _("Seul le Conteur peut modifier ce champ.") for f in reserved}
            )


@transaction.atomic
def character_update(
    *,
    character: Character | int,
    changes: dict[str, Any],
    version: int | None,
    by,
    action: str = ChangeAction.EDIT,
    storyteller: bool = False,
    note: str = "",
) -> Character:
    """Set several scalar fields at once (the API's PATCH, a sheet field, a restore).

    `version` None skips the stale check (restores); `note` is written on each history row
    (what caused the change, e.g. a blow's « Critique subi »). Returns the saved character;
    raises SheetConflict or ValidationError and changes nothing."""
    locked = character_lock(character)
    _check_editable(changes, storyteller=storyteller)
    _check_version(character=locked, fields=list(changes), version=version, asked=changes, by=by)
    diff: dict[str, tuple[Any, Any]] = {}
    for field, value in changes.items():
        old = field_value(locked, field)
        if field == "species":
            locked.species = species_in_campaign(locked.campaign_id, value)
        else:
            setattr(locked, field, _model_checked(field, value))
        new = field_value(locked, field)
        if new != old:
            diff[field] = (old, new)
    if any(field in reference.CHARACTERISTICS for field in diff):  # §1: pools follow their row
        for lowered in sheet.lower_pools(locked, keep=changes):
            diff[f"{lowered.row}_points"] = (lowered.old, lowered.new)
    if not diff:
        return locked
    validate_sheet(locked)
    saved = character_record_changes(
        locked,
        changes=diff,
        by=by,
        action=action,
        update_fields=list({**changes, **diff}),
        note=note,
    )
    if {"fragility", "exhaustion"} & diff.keys():
        for listener in _DEATH_LISTENERS:
            listener(saved)
    return saved


# Reading (§8): Fragilité or Épuisement reaching 6 kills at once, in or out of a fight. The fights
# live in the sessions app, one floor above: it registers a listener at start-up
# (`sessions.writes.fatal_in_fights`), told of every edit of those two tracks.
_DEATH_LISTENERS: list[Callable[[Character], None]] = []


def register_death_listener(listener: Callable[[Character], None]) -> None:
    """Let `listener(character)` hear of each change of Fragilité or Épuisement (one listener:
    registering again replaces it); it decides with the rules whether that is death."""
    _DEATH_LISTENERS[:] = [listener]


def _model_checked(field: str, value: Any) -> Any:
    """The value if the model's own field accepts it (not blank where a sheet needs it, within
    its length, one of its choices): the rules of creation hold for every later edit too."""
    try:
        return Character._meta.get_field(field).clean(value, None)
    except ValidationError as error:
        raise ValidationError({field: error.messages}) from error


def character_update_field(
    *, character: Character | int, field: str, value: Any, version: int | None, by, **kw
) -> Character:
    """Set one field of the sheet if `version` is current for it (see `character_update`)."""
    return character_update(
        character=character, changes={field: value}, version=version, by=by, **kw
    )


# --- skills and languages --------------------------------------------------------------------


def checked_skill_kind(key: str, kind: str) -> str:
    """`kind` if `key` fits it: a skill of the rules, or a forgotten domain not named like one."""
    if kind == SkillKind.SKILL and key not in reference.SKILLS_BY_KEY:
        raise ValidationError({"key": _("Cette compétence n'existe pas.")})
    if kind == SkillKind.FORGOTTEN_DOMAIN and key in reference.SKILLS_BY_KEY:
        raise ValidationError(
            {"key": _("Un domaine oublié ne peut pas porter le nom d'une compétence.")}
        )
    return kind


def clean_expertises(expertises) -> list[str]:
    """The expertises as stored: stripped, without blanks or repeats, 120 characters at most."""
    cleaned = []
    for item in expertises or []:
        text = str(item).strip()
        if text and text not in cleaned:
            cleaned.append(text[:120])
    return cleaned


def _rows_locked(
    character: Character | int, *, relation: str, key: str, version: int | None
) -> tuple[Character, dict[str, SheetRow]]:
    """The locked sheet and its rows of `relation` by key, once `version` is current for `key`."""
    locked = character_lock(character)
    _check_version(character=locked, fields=[f"{relation}.{key}"], version=version)
    return locked, _rows(locked, relation)


def _row_save(
    locked: Character,
    row: SheetRow,
    *,
    relation: str,
    rows: dict[str, SheetRow],
    old: dict[str, Any] | None,
    by,
    action: str,
) -> SheetRow:
    """Save the changed `row` if the sheet stays valid with it, and record old → new."""
    rows[row.key] = row
    new = _row_value(row)
    if old == new:
        return row
    validate_sheet(locked, **{relation: list(rows.values())})
    row.full_clean(exclude=["character"])
    row.save()
    character_record_changes(
        locked,
        changes={f"{relation}.{row.key}": (old, new)},
        by=by,
        action=action,
        update_fields=[],
    )
    return row


def _row_remove(
    *, character: Character | int, relation: str, key: str, version: int | None, by
) -> None:
    locked, rows = _rows_locked(character, relation=relation, key=key, version=version)
    old = _row_value(rows.get(key))
    if old is None:
        return
    getattr(locked, relation).filter(key=key).delete()
    character_record_changes(
        locked,
        changes={f"{relation}.{key}": (old, None)},
        by=by,
        action=ChangeAction.EDIT,
        update_fields=[],
    )


@transaction.atomic
def character_skill_set(
    *,
    character: Character | int,
    key: str,
    level: int,
    expertises: list[str] | None = None,
    kind: str = SkillKind.SKILL,
    version: int | None,
    by,
    action: str = ChangeAction.EDIT,
) -> CharacterSkill:
    """Add or change a skill (or forgotten domain) of the sheet; returns the saved row."""
    locked, rows = _rows_locked(character, relation="skills", key=key, version=version)
    checked_skill_kind(key, kind)
    old = _row_value(rows.get(key))
    row = rows.get(key) or CharacterSkill(character=locked, key=key, kind=kind)
    row.level = level
    row.expertises = clean_expertises(expertises if expertises is not None else row.expertises)
    return _row_save(locked, row, relation="skills", rows=rows, old=old, by=by, action=action)


@transaction.atomic
def character_skill_remove(
    *, character: Character | int, key: str, version: int | None, by
) -> None:
    """Take a skill off the sheet (nothing to do if it has none by that key)."""
    _row_remove(character=character, relation="skills", key=key, version=version, by=by)


@transaction.atomic
def character_language_set(
    *,
    character: Character | int,
    key: str,
    level: int,
    writing: bool = False,
    version: int | None,
    by,
    action: str = ChangeAction.EDIT,
) -> CharacterLanguage:
    """Add or change a language of the sheet; returns the saved row."""
    locked, rows = _rows_locked(character, relation="languages", key=key, version=version)
    if key not in reference.LANGUAGES_BY_KEY:
        raise ValidationError({"key": _("Cette langue n'existe pas.")})
    old = _row_value(rows.get(key))
    row = rows.get(key) or CharacterLanguage(character=locked, key=key)
    row.level, row.writing = level, writing
    return _row_save(locked, row, relation="languages", rows=rows, old=old, by=by, action=action)


@transaction.atomic
def character_language_remove(
    *, character: Character | int, key: str, version: int | None, by
) -> None:
    """Take a language off the sheet (nothing to do if it has none by that key)."""
    _row_remove(character=character, relation="languages", key=key, version=version, by=by)


# --- compendium entries ----------------------------------------------------------------------


@transaction.atomic
def character_entries_set(
    *,
    character: Character | int,
    relation: str,
    ids,
    version: int | None,
    by,
    action: str = ChangeAction.EDIT,
) -> Character:
    """Replace the owned classes, branches, abilities, assets or flaws of the sheet."""
    if relation not in COMPENDIUM_MODELS:
        raise ValidationError({"relation": _("Type d'entrée inconnu.")})
    locked = character_lock(character)
    _check_version(character=locked, fields=[relation], version=version)
    entries = entries_in_campaign(locked.campaign_id, relation, ids)
    old = field_value(locked, relation)
    getattr(locked, relation).set(entries)
    new = field_value(locked, relation)
    if old == new:
        return locked
    validate_sheet(locked)
    return character_record_changes(
        locked, changes={relation: (old, new)}, by=by, action=action, update_fields=[]
    )


@transaction.atomic
def character_delete(*, character: Character) -> None:
    character.delete()
