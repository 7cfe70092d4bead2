"""The Conteur's undo of one sheet change (the history's « Restaurer »): the value a field had
before it is written back through the same locked, versioned services as any edit, recorded as a
restore."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from characters.compendium_lookups import COMPENDIUM_MODELS
from characters.fields import SHEET_FIELDS
from characters.models import ChangeAction, Character, CharacterChange, SkillKind
from characters.services import (
    character_entries_set,
    character_language_remove,
    character_language_set,
    character_skill_remove,
    character_skill_set,
    character_update,
    row_field_of,
)
from rules import reference


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
    row_field = row_field_of(field)
    if row_field is None:
        raise ValidationError(_("Cette modification ne peut pas être restaurée."))
    _row_restore(character, *row_field, value=value, by=by)
    return Character.objects.get(pk=character)


def _row_restore(character: int, relation: str, key: str, *, value, by) -> None:
    """Put a skill or language row back as the history's `value` (None: there was none)."""
    if value is None:
        remove = character_skill_remove if relation == "skills" else character_language_remove
        remove(character=character, key=key, version=None, by=by)
    elif relation == "skills":
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
