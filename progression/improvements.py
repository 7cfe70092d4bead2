"""Applying a bought or trained improvement to the sheet (§10), and saving what it changed: for one
character right away (spending now), or for a whole campaign in bulk (an ellipse's advance).

Applying changes the in-memory sheet only and refuses what would leave it impossible; saving
writes the changed columns, skill rows and relations, a new version and one history row a field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from characters import sheet
from characters.models import (
    ChangeAction,
    Character,
    CharacterSkill,
    SkillKind,
)
from characters.services import (
    character_record_changes,
    characters_record_changes,
    validate_sheet,
)
from progression.errors import refusal
from rules import experience as rules_xp
from rules.errors import RuleError

RELATIONS = {"ability": "abilities", "class": "classes", "branch": "branches"}
# The column of the other end of each relation's through table.
THROUGH_TARGETS = {"abilities": "ability_id", "classes": "characterclass_id"}


@dataclass
class Applied:
    """What applying an improvement changed: history rows and the columns to save."""

    changes: dict[str, tuple[Any, Any]]
    columns: list[str]
    skill_rows: list[CharacterSkill]
    m2m: list[tuple[str, int]]  # (relation, entry id) to add


def apply_improvement(
    character: Character,
    *,
    kind: str,
    target: str,
    detail: str = "",
    skills: dict[str, CharacterSkill] | None = None,
) -> Applied:
    """Change the in-memory sheet for a finished improvement (nothing is saved here); raise
    ValidationError if it would leave the sheet impossible. `skills` are the character's rows."""
    skills = {s.key: s for s in character.skills.all()} if skills is None else skills
    applied = Applied({}, [], [], [])
    if kind == "characteristic":
        _favoured, favourites = sheet.species_bonuses(character.species)
        _raise_column(character, applied, target, kind, favourites.get(target, 0))
    elif kind == "combativeness":
        _raise_column(character, applied, kind, kind, 0)
    elif kind in ("skill", "forgotten_domain", "specialty"):
        _improve_skill(character, applied, skills, kind=kind, target=target, detail=detail)
    elif kind in RELATIONS:
        relation = RELATIONS[kind]
        applied.changes[relation] = (None, {"id": int(target), "name": detail})
        applied.m2m.append((relation, int(target)))
    else:
        raise refusal(_("Ce type d'amélioration n'existe pas."), "kind")
    validate_sheet(character)
    return applied


def _raise_column(
    character: Character, applied: Applied, column: str, kind: str, favourite_bonus: int
) -> None:
    """One point more in a column of the sheet, up to the rules' maximum (§1: a characteristic
    8 + the species' favourite bonus, Combativité 5)."""
    old = getattr(character, column)
    try:
        new = rules_xp.raised(kind, old, favourite_bonus=favourite_bonus)
    except RuleError as error:
        raise refusal([v.message for v in error.violations]) from error
    setattr(character, column, new)
    applied.changes[column] = (old, new)
    applied.columns.append(column)


def _improve_skill(
    character: Character,
    applied: Applied,
    skills: dict[str, CharacterSkill],
    *,
    kind: str,
    target: str,
    detail: str,
) -> None:
    """A level more in a skill or a forgotten domain, or a new specialty of a skill (its row is
    made when the character has none)."""
    row = skills.get(target)
    if row is None:
        skill_kind = SkillKind.FORGOTTEN_DOMAIN if kind == "forgotten_domain" else SkillKind.SKILL
        row = CharacterSkill(character=character, key=target, kind=skill_kind, level=0)
        skills[target] = row
    old = {"level": row.level, "expertises": list(row.expertises)}
    if kind == "specialty":
        name = (detail or "").strip()[:120]
        if not name:
            raise refusal(_("Nommez la spécialité."), "detail")
        if name in row.expertises:
            raise refusal(_("Le personnage a déjà cette spécialité."), "detail")
        row.expertises = [*row.expertises, name]
    else:
        try:
            row.level = rules_xp.raised(kind, row.level)
        except RuleError as error:
            raise refusal([v.message for v in error.violations]) from error
    applied.changes[f"skills.{target}"] = (
        old,
        {"level": row.level, "expertises": list(row.expertises)},
    )
    applied.skill_rows.append(row)


def save_applied(character: Character, applied: Applied, *, by) -> None:
    """Write one character's applied improvement: columns, skill row, relation, version, history."""
    for row in applied.skill_rows:
        row.save()
    for relation, pk in applied.m2m:
        getattr(character, relation).add(pk)
    character_record_changes(
        character,
        changes=applied.changes,
        by=by,
        action=ChangeAction.EDIT,
        update_fields=applied.columns,
    )


@dataclass
class SheetChanges:
    """The sheet changes of many characters, gathered in memory and saved in bulk: the number of
    queries does not grow with the number of characters. A field changed twice keeps its first
    old value."""

    changes: dict[int, dict[str, tuple[Any, Any]]] = field(default_factory=dict)
    columns: dict[int, set[str]] = field(default_factory=dict)
    skill_rows: dict[int, CharacterSkill] = field(default_factory=dict)  # by id(): each row once
    m2m: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def _record(self, character_id: int, name: str, old: Any, new: Any) -> None:
        fields = self.changes.setdefault(character_id, {})
        fields[name] = (fields.get(name, (old,))[0], new)

    def add(self, character_id: int, applied: Applied) -> None:
        """Gather one applied improvement of this character."""
        for name, (old, new) in applied.changes.items():
            self._record(character_id, name, old, new)
        self.columns.setdefault(character_id, set()).update(applied.columns)
        for row in applied.skill_rows:
            self.skill_rows[id(row)] = row
        for relation, pk in applied.m2m:
            self.m2m.setdefault(relation, []).append((character_id, pk))

    def set_column(self, character: Character, column: str, value: Any) -> None:
        """Set one column of the in-memory sheet, to be saved with the rest."""
        self._record(character.pk, column, getattr(character, column), value)
        setattr(character, column, value)
        self.columns.setdefault(character.pk, set()).add(column)

    def save(self, characters: dict[int, Character], *, by) -> None:
        """Write every gathered change to the sheets `characters_lock` locked: each changed
        sheet's next version and history, skill rows and relations."""
        characters_record_changes(
            list(characters.values()),
            changes=self.changes,
            by=by,
            action=ChangeAction.EDIT,
            update_fields=set().union(*self.columns.values()),
        )
        new_rows = [r for r in self.skill_rows.values() if r.pk is None]
        old_rows = [r for r in self.skill_rows.values() if r.pk is not None]
        if new_rows:
            CharacterSkill.objects.bulk_create(new_rows)
        if old_rows:
            CharacterSkill.objects.bulk_update(old_rows, ["level", "expertises"])
        for relation, pairs in self.m2m.items():
            through = getattr(Character, relation).through
            target = THROUGH_TARGETS.get(relation, "branch_id")
            through.objects.bulk_create(
                [through(character_id=c, **{target: t}) for c, t in pairs], ignore_conflicts=True
            )
