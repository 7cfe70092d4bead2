"""New character sheets: from the creation wizard within the campaign's budget (§9), or from a
sheet `character_export` wrote (import, matched by name in the campaign's compendium).

Either way the character, its skill and language rows and its compendium entries are saved in one
transaction, or nothing is, and its history opens with one row.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Species
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
from characters.services import (
    checked_skill_kind,
    clean_expertises,
    rule_error_to_validation_error,
    validate_sheet,
)
from rules import creation as rules_creation
from rules import reference
from rules.creation import CreationReport
from rules.errors import RuleError

EXPORT_FORMAT = "altherion.character/1"
# What a draft may buy (§9 prices no branch), and what it may buy only at the founding tier.
CREATION_RELATIONS = ("classes", "abilities", "assets", "flaws")
FOUNDING_ONLY = ("classes", "abilities")


def _save_rows_and_entries(
    character: Character,
    *,
    skills: list[CharacterSkill],
    languages: list[CharacterLanguage],
    entries: dict[str, list],
) -> None:
    """Store the new sheet's skill and language rows and give it its compendium entries."""
    CharacterSkill.objects.bulk_create(skills)
    CharacterLanguage.objects.bulk_create(languages)
    for relation, found in entries.items():
        getattr(character, relation).set(found)


def _open_history(character: Character, *, action: str, summary: dict[str, Any], by) -> None:
    CharacterChange.objects.create(
        character=character,
        version=character.version,
        field="character",
        old_value=None,
        new_value=summary,
        action=action,
        by=by,
    )


# --- creation (§9) ---------------------------------------------------------------------------


def _creation_entries(campaign_id: int, data: dict[str, Any]) -> dict[str, list]:
    """The compendium entries a draft buys; only founding classes and abilities are sold at
    creation (§9 prices nothing else)."""
    entries = {}
    for relation in CREATION_RELATIONS:
        entries[relation] = entries_in_campaign(campaign_id, relation, data.get(relation) or [])
    for relation in FOUNDING_ONLY:
        if any(e.tier != "founding" for e in entries[relation]):
            raise ValidationError(
                {
                    relation: _(
                        "À la création, seules les classes et aptitudes fondatrices s'achètent."
                    )
                }
            )
    return entries


def _draft(
    campaign, data: dict[str, Any]
) -> tuple[Species | None, dict[str, list], CreationReport]:
    """The draft's species, the entries it buys and the engine's report on it."""
    species = species_in_campaign(campaign.pk, data.get("species"))
    entries = _creation_entries(campaign.pk, data)
    report = sheet.creation_report(
        data, species=species, entries=entries, budget=campaign.creation_budget
    )
    return species, entries, report


def creation_report(*, campaign, data: dict[str, Any]) -> CreationReport:
    """Points per line, total, what remains and the engine's French errors for a draft sheet.

    Unknown species or entries raise ValidationError; everything else is the engine's report."""
    return _draft(campaign, data)[2]


def report_errors(report) -> ValidationError:
    """A creation report's French errors as one ValidationError."""
    return rule_error_to_validation_error(RuleError(report.errors))


def _drafted_character(
    *, campaign, owner, by, name: str, species: Species | None, data: dict[str, Any]
) -> Character:
    """The unsaved character a draft describes, its gauges and pools full (§3, §1)."""
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
    return character


def _drafted_rows(
    character: Character, data: dict[str, Any]
) -> tuple[list[CharacterSkill], list[CharacterLanguage]]:
    """The draft's skills and languages with a level (or expertises, or writing)."""
    skills = [
        CharacterSkill(
            character=character,
            key=key,
            level=value["level"],
            expertises=clean_expertises(value.get("expertises")),
        )
        for key, value in (data.get("skills") or {}).items()
        if value.get("level") or value.get("expertises")
    ]
    languages = [
        CharacterLanguage(
            character=character,
            key=key,
            level=value["level"],
            writing=bool(value.get("writing")),
        )
        for key, value in (data.get("languages") or {}).items()
        if value.get("level") or value.get("writing")
    ]
    return skills, languages


def unspent(report: CreationReport) -> list[str]:
    """The points a draft leaves unspent, per budget, in French (empty: all spent)."""
    return list(rules_creation.unspent(report))


@transaction.atomic
def character_create(
    *, campaign, owner, by, data: dict[str, Any], accept_unspent: bool = False
) -> Character:
    """Create a character within the campaign's creation budget (§9); a sheet that breaks a
    creation rule is refused with every French error, and nothing is saved. A sheet that leaves
    points unspent is refused too (`unspent`, what is left per budget) unless `accept_unspent`:
    the wizard asks its player first, the API accepts and says so. The new character's
    `unspent` holds those sentences (empty when every point was spent)."""
    name = (data.get("name") or "").strip()
    if not name:
        raise ValidationError({"name": _("Donnez un nom au personnage.")})
    species, entries, report = _draft(campaign, data)
    if not report.valid:
        raise report_errors(report)
    left = unspent(report)
    if left and not accept_unspent:
        raise ValidationError({"unspent": [ValidationError(m, code="unspent") for m in left]})
    character = _drafted_character(
        campaign=campaign, owner=owner, by=by, name=name, species=species, data=data
    )
    character.full_clean(exclude=["owner", "campaign"])
    character.save()
    skills, languages = _drafted_rows(character, data)
    _save_rows_and_entries(character, skills=skills, languages=languages, entries=entries)
    _open_history(
        character,
        action=ChangeAction.CREATE,
        summary={"name": character.name, "creation_points": report.total},
        by=by,
    )
    character.unspent = left
    return character


# --- export and import -----------------------------------------------------------------------


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


def _exported_character(
    *, campaign, owner, by, data: dict[str, Any], errors: dict[str, list[str]]
) -> Character:
    """The unsaved character an export describes; a species the campaign lacks goes to `errors`."""
    character = Character(campaign=campaign, owner=owner, updated_by=by)
    for field in SHEET_FIELDS:
        if field not in data:
            continue
        value = data[field]
        if field != "species":
            setattr(character, field, value)
            continue
        species = Species.objects.filter(campaign=campaign, name=value).first() if value else None
        if value and species is None:
            errors.setdefault("species", []).append(
                _("L'espèce « %(value)s » n'existe pas dans cette campagne.") % {"value": value}
            )
        character.species = species
    for gauge, value in (data.get("premices") or {}).items():
        if gauge in reference.GAUGES:
            setattr(character, f"premice_{gauge}", value)
    return character


def _exported_entries(campaign, data: dict[str, Any], errors: dict[str, list[str]]) -> dict:
    """The campaign's entries named in an export; the names it lacks go to `errors`."""
    entries = {}
    for relation, model in COMPENDIUM_MODELS.items():
        names = list(data.get(relation) or [])
        found = list(model.objects.filter(campaign=campaign, name__in=names))
        missing = sorted(set(names) - {e.name for e in found})
        if missing:
            errors.setdefault(relation, []).append(
                _("Absent du compendium de la campagne : %(names)s.")
                % {"names": ", ".join(missing)}
            )
        entries[relation] = found
    return entries


def _exported_rows(data: dict[str, Any]) -> tuple[list[CharacterSkill], list[CharacterLanguage]]:
    """The export's skill and language rows, not yet given their character."""
    skills = [
        CharacterSkill(
            kind=checked_skill_kind(s["key"], s.get("kind", SkillKind.SKILL)),
            key=s["key"],
            level=s["level"],
            expertises=clean_expertises(s.get("expertises")),
        )
        for s in data.get("skills") or []
    ]
    languages = [
        CharacterLanguage(key=lang["key"], level=lang["level"], writing=bool(lang.get("writing")))
        for lang in data.get("languages") or []
    ]
    return skills, languages


@transaction.atomic
def character_import(*, campaign, owner, by, data: dict[str, Any]) -> Character:
    """Create a character from `character_export` JSON in `campaign`; species and entries are
    matched by name in that campaign. The sheet must satisfy the rules of play (not the
    creation budget: an imported character may have lived)."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValidationError(
            {"format": _("Format inconnu : attendu « %(format)s ».") % {"format": EXPORT_FORMAT}}
        )
    errors: dict[str, list[str]] = {}
    character = _exported_character(campaign=campaign, owner=owner, by=by, data=data, errors=errors)
    entries = _exported_entries(campaign, data, errors)
    if errors:
        raise ValidationError(errors)
    try:
        character.full_clean(exclude=["owner", "campaign"])
    except ValidationError as error:
        raise ValidationError(error.message_dict) from error
    skills, languages = _exported_rows(data)
    validate_sheet(character, skills=skills, languages=languages)
    character.save()
    for row in (*skills, *languages):
        row.character = character
        row.full_clean()
    _save_rows_and_entries(character, skills=skills, languages=languages, entries=entries)
    _open_history(character, action=ChangeAction.IMPORT, summary={"name": character.name}, by=by)
    return character
