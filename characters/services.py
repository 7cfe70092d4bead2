"""Writes to character sheets: every page and API endpoint goes through these functions.

Each write locks the sheet row, checks the caller's version against the history of the fields it
touches (a stale edit of a field someone else changed meanwhile is a `SheetConflict`; edits of
different fields both succeed), asks the rules engine whether the new sheet is valid, saves only
the changed columns, bumps `version` and records old → new in `CharacterChange`.
"""

from __future__ import annotations

from dataclasses import replace as dataclass_replace
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import Ability, Asset, Branch, CharacterClass, Flaw, Species
from characters import sheet
from characters.fields import SHEET_FIELDS
from characters.models import (
    ChangeAction,
    Character,
    CharacterChange,
    CharacterLanguage,
    CharacterSkill,
    SkillKind,
)
from rules import gauges as gauges_rules
from rules import reference
from rules import rest as rest_rules
from rules import states as states_rules
from rules.errors import RuleError

COMPENDIUM_MODELS = {
    "classes": CharacterClass,
    "branches": Branch,
    "abilities": Ability,
    "assets": Asset,
    "flaws": Flaw,
}


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
        super().__init__(f"Modifié entre-temps par {who} : valeur actuelle {current_value!r}.")

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
    if field.startswith("skills."):
        row = _skill_rows(character).get(field.removeprefix("skills."))
        return None if row is None else {"level": row.level, "expertises": list(row.expertises)}
    if field.startswith("languages."):
        row = _language_rows(character).get(field.removeprefix("languages."))
        return None if row is None else {"level": row.level, "writing": row.writing}
    return getattr(character, field)


def _skill_rows(character: Character) -> dict[str, CharacterSkill]:
    return {row.key: row for row in character.skills.all()}


def _language_rows(character: Character) -> dict[str, CharacterLanguage]:
    return {row.key: row for row in character.languages.all()}


def _check_version(*, character: Character, fields: list[str], version: int | None) -> None:
    """Refuse an edit made on `version` if one of `fields` changed after it."""
    if version is None or version == character.version:
        return
    if version > character.version:
        raise ValidationError({"version": "Version inconnue : rechargez la fiche."})
    newer = (
        CharacterChange.objects.filter(character=character, field__in=fields, version__gt=version)
        .select_related("by")
        .order_by("-version", "-pk")
        .first()
    )
    if newer is not None:
        raise SheetConflict(
            field=newer.field,
            current_value=field_value(character, newer.field),
            by=newer.by,
            at=newer.at,
            version=character.version,
        )


def _lock(character: Character | int) -> Character:
    pk = character if isinstance(character, int) else character.pk
    return (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "species")
        .get(pk=pk)
    )


def _record(
    character: Character,
    *,
    changes: dict[str, tuple[Any, Any]],
    by,
    action: str,
    update_fields: list[str],
) -> Character:
    """Bump the version, save the changed columns and write one history row per field."""
    character.version += 1
    character.updated_by = by
    character.save(update_fields=[*update_fields, "version", "updated_by", "updated_at"])
    CharacterChange.objects.bulk_create(
        CharacterChange(
            character=character,
            version=character.version,
            field=field,
            old_value=old,
            new_value=new,
            action=action,
            by=by,
        )
        for field, (old, new) in changes.items()
    )
    return character


def _coerce_species(campaign_id: int, value: Any) -> Species | None:
    if value in (None, "", {}):
        return None
    pk = value.get("id") if isinstance(value, dict) else value
    species = Species.objects.filter(campaign_id=campaign_id, pk=pk).first()
    if species is None:
        raise ValidationError({"species": "Cette espèce n'existe pas dans la campagne."})
    return species


@transaction.atomic
def character_update(
    *,
    character: Character | int,
    changes: dict[str, Any],
    version: int | None,
    by,
    action: str = ChangeAction.EDIT,
    storyteller: bool = False,
) -> Character:
    """Set several scalar fields at once (the API's PATCH, a sheet field, a restore).

    `version` None skips the stale check (restores). Returns the saved character; raises
    SheetConflict or ValidationError and changes nothing."""
    locked = _lock(character)
    unknown = [f for f in changes if f not in SHEET_FIELDS]
    if unknown:
        raise ValidationError({f: "Ce champ ne peut pas être modifié ainsi." for f in unknown})
    if not storyteller:
        reserved = [f for f in changes if SHEET_FIELDS[f].storyteller_only]
        if reserved:
            raise ValidationError({f: "Seul le Conteur peut modifier ce champ." for f in reserved})
    _check_version(character=locked, fields=list(changes), version=version)
    diff: dict[str, tuple[Any, Any]] = {}
    columns: list[str] = []
    for field, value in changes.items():
        old = field_value(locked, field)
        if field == "species":
            locked.species = _coerce_species(locked.campaign_id, value)
            columns.append("species")
        else:
            setattr(locked, field, value)
            columns.append(field)
        new = field_value(locked, field)
        if new != old:
            diff[field] = (old, new)
    if not diff:
        return locked
    validate_sheet(locked)
    return _record(locked, changes=diff, by=by, action=action, update_fields=columns)


def character_update_field(
    *, character: Character | int, field: str, value: Any, version: int | None, by, **kw
) -> Character:
    """Set one field of the sheet if `version` is current for it (see `character_update`)."""
    return character_update(
        character=character, changes={field: value}, version=version, by=by, **kw
    )


# --- skills, languages and compendium entries ----------------------------------------------


def _skill_kind(key: str, kind: str) -> str:
    if kind == SkillKind.SKILL and key not in reference.SKILLS_BY_KEY:
        raise ValidationError({"key": "Cette compétence n'existe pas."})
    if kind == SkillKind.FORGOTTEN_DOMAIN and key in reference.SKILLS_BY_KEY:
        raise ValidationError(
            {"key": "Un domaine oublié ne peut pas porter le nom d'une compétence."}
        )
    return kind


def _clean_expertises(expertises) -> list[str]:
    cleaned = []
    for item in expertises or []:
        text = str(item).strip()
        if text and text not in cleaned:
            cleaned.append(text[:120])
    return cleaned


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
    locked = _lock(character)
    field = f"skills.{key}"
    _check_version(character=locked, fields=[field], version=version)
    _skill_kind(key, kind)
    rows = _skill_rows(locked)
    row = rows.get(key) or CharacterSkill(character=locked, key=key, kind=kind)
    old = field_value(locked, field)
    row.level = level
    row.expertises = _clean_expertises(expertises if expertises is not None else row.expertises)
    rows[key] = row
    new = {"level": row.level, "expertises": row.expertises}
    if old == new:
        return row
    _validate_rows(locked, skills=list(rows.values()))
    row.full_clean(exclude=["character"])
    row.save()
    _record(locked, changes={field: (old, new)}, by=by, action=action, update_fields=[])
    return row


@transaction.atomic
def character_skill_remove(
    *, character: Character | int, key: str, version: int | None, by
) -> None:
    locked = _lock(character)
    field = f"skills.{key}"
    _check_version(character=locked, fields=[field], version=version)
    old = field_value(locked, field)
    if old is None:
        return
    locked.skills.filter(key=key).delete()
    _record(locked, changes={field: (old, None)}, by=by, action=ChangeAction.EDIT, update_fields=[])


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
    locked = _lock(character)
    field = f"languages.{key}"
    _check_version(character=locked, fields=[field], version=version)
    if key not in reference.LANGUAGES_BY_KEY:
        raise ValidationError({"key": "Cette langue n'existe pas."})
    rows = _language_rows(locked)
    row = rows.get(key) or CharacterLanguage(character=locked, key=key)
    old = field_value(locked, field)
    row.level, row.writing = level, writing
    rows[key] = row
    new = {"level": level, "writing": writing}
    if old == new:
        return row
    _validate_rows(locked, languages=list(rows.values()))
    row.full_clean(exclude=["character"])
    row.save()
    _record(locked, changes={field: (old, new)}, by=by, action=action, update_fields=[])
    return row


@transaction.atomic
def character_language_remove(
    *, character: Character | int, key: str, version: int | None, by
) -> None:
    locked = _lock(character)
    field = f"languages.{key}"
    _check_version(character=locked, fields=[field], version=version)
    old = field_value(locked, field)
    if old is None:
        return
    locked.languages.filter(key=key).delete()
    _record(locked, changes={field: (old, None)}, by=by, action=ChangeAction.EDIT, update_fields=[])


def _validate_rows(character: Character, *, skills=None, languages=None) -> None:
    validate_sheet(character, skills=skills, languages=languages)


def _entries(campaign_id: int, relation: str, ids) -> list:
    model = COMPENDIUM_MODELS[relation]
    wanted = {int(i.get("id") if isinstance(i, dict) else i) for i in ids or []}
    found = list(model.objects.filter(campaign_id=campaign_id, pk__in=wanted))
    if len(found) != len(wanted):
        raise ValidationError({relation: "Certaines entrées n'existent pas dans la campagne."})
    return found


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
        raise ValidationError({"relation": "Type d'entrée inconnu."})
    locked = _lock(character)
    _check_version(character=locked, fields=[relation], version=version)
    entries = _entries(locked.campaign_id, relation, ids)
    old = field_value(locked, relation)
    getattr(locked, relation).set(entries)
    new = field_value(locked, relation)
    if old == new:
        return locked
    validate_sheet(locked)
    return _record(locked, changes={relation: (old, new)}, by=by, action=action, update_fields=[])


# --- history --------------------------------------------------------------------------------


@transaction.atomic
def character_change_restore(*, change: CharacterChange, by) -> Character:
    """Put back the value a field had before `change` (the Conteur's undo); recorded too."""
    field, value = change.field, change.old_value
    character = change.character_id
    if field in SHEET_FIELDS:
        return character_update(
            character=character,
            changes={field: value},
            version=None,
            by=by,
            action=ChangeAction.RESTORE,
            storyteller=True,
        )
    if field in COMPENDIUM_MODELS:
        return character_entries_set(
            character=character,
            relation=field,
            ids=value or [],
            version=None,
            by=by,
            action=ChangeAction.RESTORE,
        )
    if field.startswith("skills."):
        key = field.removeprefix("skills.")
        if value is None:
            character_skill_remove(character=character, key=key, version=None, by=by)
        else:
            kind = SkillKind.SKILL if key in reference.SKILLS_BY_KEY else SkillKind.FORGOTTEN_DOMAIN
            character_skill_set(
                character=character,
                key=key,
                kind=kind,
                level=value["level"],
                expertises=value["expertises"],
                version=None,
                by=by,
                action=ChangeAction.RESTORE,
            )
        return Character.objects.get(pk=character)
    if field.startswith("languages."):
        key = field.removeprefix("languages.")
        if value is None:
            character_language_remove(character=character, key=key, version=None, by=by)
        else:
            character_language_set(
                character=character,
                key=key,
                level=value["level"],
                writing=value["writing"],
                version=None,
                by=by,
                action=ChangeAction.RESTORE,
            )
        return Character.objects.get(pk=character)
    raise ValidationError("Cette modification ne peut pas être restaurée.")


# --- actions on the sheet (§4, §8): each through the rules engine, each in the history ------


def _snapshot(character: Character, columns) -> dict[str, Any]:
    return {column: getattr(character, column) for column in columns}


def _record_columns(character: Character, *, before: dict[str, Any], by, action: str) -> Character:
    diff = {
        column: (old, getattr(character, column))
        for column, old in before.items()
        if getattr(character, column) != old
    }
    if not diff:
        return character
    validate_sheet(character)
    return _record(character, changes=diff, by=by, action=action, update_fields=list(diff))


ACTION_COLUMNS = (
    *(f"{gauge}_{attr}" for gauge in reference.GAUGES for attr in sheet.GAUGE_ATTRS),
    "agony",
    "aggravation",
    "special_state",
    "resilience_points",
)


def _gauge_label(gauge: str) -> str:
    return reference.LABELS[gauge]


@transaction.atomic
def character_damage(
    *, character: Character | int, gauge: str, amount: int, scars: int = 0, by
) -> list[str]:
    """Deal `amount` damage to a gauge (ephemeral points first, §3), `scars` of it serious;
    reaching 0 Vitalité gives Agonie and péril (§8). Returns French notes for the player."""
    if gauge not in reference.GAUGES:
        raise ValidationError({"gauge": "Cette constitution n'existe pas."})
    if scars > amount:
        raise ValidationError(
            {"scars": "Les blessures graves ne peuvent dépasser les dégâts infligés."}
        )
    locked = _lock(character)
    before = _snapshot(locked, ACTION_COLUMNS)
    current = sheet.gauges(locked)
    hit = current[gauge]
    after = gauges_rules.take_damage(hit, amount)
    if scars:
        after = dataclass_replace(after, scars=after.scars + scars)
    current[gauge] = after
    notes = [
        f"{_gauge_label(gauge)} : {hit.current} → {after.current}"
        + (f", éphémère {hit.ephemeral} → {after.ephemeral}" if hit.ephemeral else "")
        + (f", cicatrices {hit.scars} → {after.scars}" if scars else "")
        + "."
    ]
    if gauge == "vitality" and after.current == 0 and hit.current > 0:
        locked.agony = states_rules.agony_at_zero(locked.agony)
    if after.peril and not hit.peril:
        notes.append(f"{_gauge_label(gauge)} en péril jusqu'à stabilisation.")
    sheet.store_gauges(locked, current)
    outlook = states_rules.outlook(
        current, locked.fragility, locked.exhaustion, hits={gauge: amount}
    )
    if outlook.dead:
        notes.append("Le personnage meurt.")
    elif outlook.unconscious:
        notes.append("Le personnage perd connaissance.")
    elif outlook.discouraged:
        notes.append("Le personnage est découragé.")
    _record_columns(locked, before=before, by=by, action=ChangeAction.DAMAGE)
    return notes


@transaction.atomic
def character_rest(
    *, character: Character | int, rank: str, rib_cage: bool = False, by
) -> list[str]:
    """Take a rest of `rank` (§4): gauges restored by the rules, Résilience points back after a
    rest with no scars and no wounds, a full rest clears Aggravation and Descente (§7, §8)."""
    locked = _lock(character)
    before = _snapshot(locked, ACTION_COLUMNS)
    scores = sheet.rules_sheet.sheet_scores(sheet.characteristics(locked))
    harder = ()
    if rib_cage:
        rib = next(e for e in reference.AGGRAVATION_TABLE[4] if e.key == "rib_cage")
        harder = rib.harder_rest_gauges
    try:
        result = rest_rules.rest(
            sheet.gauges(locked),
            rank,
            might=scores.might,
            harmony=scores.harmony,
            exhaustion=locked.exhaustion,
            harder_gauges=harder,
        )
    except RuleError as error:
        raise rule_error_to_validation_error(error) from error
    sheet.store_gauges(locked, result.gauges)
    if result.resilience_refilled:
        locked.resilience_points = scores.rows["resilience"]
    if result.full_rest:
        after = states_rules.after_full_rest(
            sheet.condition(locked), stable=not locked.vitality_peril
        )
        locked.aggravation, locked.agony = after.aggravation, after.agony
        locked.special_state = after.state or "none"
    label = next(r.label for r in reference.REST_RANKS if r.key == rank)
    notes = [
        f"Repos {label} : "
        + ", ".join(
            f"{_gauge_label(g)} {before[f'{g}_current']} → {getattr(locked, f'{g}_current')}"
            for g in reference.GAUGES
        )
        + "."
    ]
    _record_columns(locked, before=before, by=by, action=ChangeAction.REST)
    return notes


@transaction.atomic
def character_stabilise(*, character: Character | int, gauge: str, by) -> list[str]:
    """Stabilise a gauge after care (§3, §8): it leaves péril."""
    if gauge not in reference.GAUGES:
        raise ValidationError({"gauge": "Cette constitution n'existe pas."})
    locked = _lock(character)
    before = _snapshot(locked, ACTION_COLUMNS)
    current = sheet.gauges(locked)
    current[gauge] = gauges_rules.stabilise(current[gauge])
    sheet.store_gauges(locked, current)
    _record_columns(locked, before=before, by=by, action=ChangeAction.STABILISE)
    return [f"{_gauge_label(gauge)} stabilisée."]


# --- creation (§9) and import ---------------------------------------------------------------


def _creation_entries(campaign_id: int, data: dict[str, Any]) -> dict[str, list]:
    """The compendium entries a draft buys; only founding classes and abilities are sold at
    creation (§9 prices nothing else)."""
    entries = {}
    for relation in ("classes", "abilities", "assets", "flaws"):
        entries[relation] = _entries(campaign_id, relation, data.get(relation) or [])
    for relation in ("classes", "abilities"):
        if any(e.tier != "founding" for e in entries[relation]):
            raise ValidationError(
                {relation: "À la création, seules les classes et aptitudes fondatrices s'achètent."}
            )
    return entries


def _species(campaign_id: int, value: Any) -> Species | None:
    return _coerce_species(campaign_id, value)


def creation_report(*, campaign, data: dict[str, Any]) -> sheet.creation.CreationReport:
    """Points per line, total, what remains and the engine's French errors for a draft sheet.

    Unknown species or entries raise ValidationError; everything else is the engine's report."""
    species = _species(campaign.pk, data.get("species"))
    entries = _creation_entries(campaign.pk, data)
    return sheet.creation_report(
        data, species=species, entries=entries, budget=campaign.creation_budget
    )


def report_errors(report) -> ValidationError:
    return rule_error_to_validation_error(RuleError(report.errors))


@transaction.atomic
def character_create(*, campaign, owner, by, data: dict[str, Any]) -> Character:
    """Create a character within the campaign's creation budget (§9); a sheet that breaks a
    creation rule is refused with every French error, and nothing is saved."""
    name = (data.get("name") or "").strip()
    if not name:
        raise ValidationError({"name": "Donnez un nom au personnage."})
    species = _species(campaign.pk, data.get("species"))
    entries = _creation_entries(campaign.pk, data)
    report = sheet.creation_report(
        data, species=species, entries=entries, budget=campaign.creation_budget
    )
    if not report.valid:
        raise report_errors(report)
    character = Character(
        campaign=campaign,
        owner=owner,
        name=name[:120],
        species=species,
        lineage=(data.get("lineage") or "")[:120],
        notes=data.get("notes") or "",
        origin=data.get("origin", reference.CHARACTERISTIC_START),
        combativeness=data.get("combativeness", reference.COMBATIVENESS_START),
        updated_by=by,
    )
    for name_, value in (data.get("characteristics") or {}).items():
        if name_ in reference.CHARACTERISTICS:
            setattr(character, name_, value)
    for gauge, value in (data.get("premices") or {}).items():
        setattr(character, f"premice_{gauge}", value)
    sheet.fill_at_creation(character)
    character.full_clean(exclude=["owner", "campaign"])
    character.save()
    CharacterSkill.objects.bulk_create(
        CharacterSkill(
            character=character,
            key=key,
            level=value["level"],
            expertises=_clean_expertises(value.get("expertises")),
        )
        for key, value in (data.get("skills") or {}).items()
        if value.get("level") or value.get("expertises")
    )
    CharacterLanguage.objects.bulk_create(
        CharacterLanguage(
            character=character,
            key=key,
            level=value["level"],
            writing=bool(value.get("writing")),
        )
        for key, value in (data.get("languages") or {}).items()
        if value.get("level") or value.get("writing")
    )
    for relation, found in entries.items():
        getattr(character, relation).set(found)
    CharacterChange.objects.create(
        character=character,
        version=character.version,
        field="character",
        old_value=None,
        new_value={"name": character.name, "creation_points": report.total},
        action=ChangeAction.CREATE,
        by=by,
    )
    return character


EXPORT_FORMAT = "altherion.character/1"


def character_export(character: Character) -> dict[str, Any]:
    """The whole sheet as JSON: every stored value, skills, languages and entries by name."""
    data: dict[str, Any] = {"format": EXPORT_FORMAT}
    for field in SHEET_FIELDS:
        if field == "species":
            data["species"] = character.species.name if character.species else None
        else:
            data[field] = getattr(character, field)
    data["premices"] = {g: getattr(character, f"premice_{g}") for g in reference.GAUGES}
    data["skills"] = [
        {"kind": r.kind, "key": r.key, "level": r.level, "expertises": list(r.expertises)}
        for r in character.skills.all()
    ]
    data["languages"] = [
        {"key": r.key, "level": r.level, "writing": r.writing} for r in character.languages.all()
    ]
    for relation in COMPENDIUM_MODELS:
        data[relation] = sorted(e.name for e in getattr(character, relation).all())
    return data


@transaction.atomic
def character_import(*, campaign, owner, by, data: dict[str, Any]) -> Character:
    """Create a character from `character_export` JSON in `campaign`; species and entries are
    matched by name in that campaign. The sheet must satisfy the rules of play (not the
    creation budget: an imported character may have lived)."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValidationError({"format": f"Format inconnu : attendu « {EXPORT_FORMAT} »."})
    character = Character(campaign=campaign, owner=owner, updated_by=by)
    errors: dict[str, list[str]] = {}
    for field in SHEET_FIELDS:
        if field not in data:
            continue
        value = data[field]
        if field == "species":
            species = (
                Species.objects.filter(campaign=campaign, name=value).first() if value else None
            )
            if value and species is None:
                errors.setdefault("species", []).append(
                    f"L'espèce « {value} » n'existe pas dans cette campagne."
                )
            character.species = species
            continue
        setattr(character, field, value)
    for gauge, value in (data.get("premices") or {}).items():
        if gauge in reference.GAUGES:
            setattr(character, f"premice_{gauge}", value)
    entries = {}
    for relation, model in COMPENDIUM_MODELS.items():
        names = list(data.get(relation) or [])
        found = list(model.objects.filter(campaign=campaign, name__in=names))
        missing = sorted(set(names) - {e.name for e in found})
        if missing:
            errors.setdefault(relation, []).append(
                "Absent du compendium de la campagne : " + ", ".join(missing) + "."
            )
        entries[relation] = found
    if errors:
        raise ValidationError(errors)
    try:
        character.full_clean(exclude=["owner", "campaign"])
    except ValidationError as error:
        raise ValidationError(error.message_dict) from error
    skills = [
        CharacterSkill(
            kind=_skill_kind(s["key"], s.get("kind", SkillKind.SKILL)),
            key=s["key"],
            level=s["level"],
            expertises=_clean_expertises(s.get("expertises")),
        )
        for s in data.get("skills") or []
    ]
    languages = [
        CharacterLanguage(key=lang["key"], level=lang["level"], writing=bool(lang.get("writing")))
        for lang in data.get("languages") or []
    ]
    validate_sheet(character, skills=skills, languages=languages)
    character.save()
    for row in (*skills, *languages):
        row.character = character
        row.full_clean()
    CharacterSkill.objects.bulk_create(skills)
    CharacterLanguage.objects.bulk_create(languages)
    for relation, found in entries.items():
        getattr(character, relation).set(found)
    CharacterChange.objects.create(
        character=character,
        version=character.version,
        field="character",
        new_value={"name": character.name},
        action=ChangeAction.IMPORT,
        by=by,
    )
    return character


@transaction.atomic
def character_delete(*, character: Character) -> None:
    character.delete()


@transaction.atomic
def character_heal(*, character: Character | int, gauge: str, points: int, by) -> list[str]:
    """Restore `points` to a gauge (care, a healing spell's result), never above its maximum."""
    if gauge not in reference.GAUGES:
        raise ValidationError({"gauge": "Cette constitution n'existe pas."})
    locked = _lock(character)
    before = _snapshot(locked, ACTION_COLUMNS)
    current = sheet.gauges(locked)
    healed = gauges_rules.heal(current[gauge], points)
    current[gauge] = healed
    sheet.store_gauges(locked, current)
    _record_columns(locked, before=before, by=by, action=ChangeAction.HEAL)
    return [f"{_gauge_label(gauge)} : {before[f'{gauge}_current']} → {healed.current}."]
