"""Damage, rest, care and objectives (§1, §3, §4, §8): what play does to a character's gauges,
pools and condition.

Each action locks the sheet, lets the rules engine compute the new gauges and states, checks the
whole sheet, records every changed column in the history under one version and returns French
notes for the player. A `version` (the API's) is checked against the columns the action may
change, as for any sheet write; the pages send none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters import sheet
from characters.models import ChangeAction, Character
from characters.services import (
    _check_version,
    character_lock,
    character_record_changes,
    rule_error_to_validation_error,
    validate_sheet,
)
from rules import gauges as gauges_rules
from rules import reference
from rules import rest as rest_rules
from rules import sheet as rules_sheet
from rules import states as states_rules
from rules.errors import RuleError
from rules.gauges import Gauge

# The columns an action may change; the history records those that did.
ACTION_COLUMNS = (
    *(f"{gauge}_{attr}" for gauge in reference.GAUGES for attr in sheet.GAUGE_ATTRS),
    "agony",
    "aggravation",
    "special_state",
    "resilience_points",
    "discouraged",
)
# The most points one action deals or restores: far beyond any gauge, the forms' and API's bound.
POINTS_MAX = 10_000


def _gauge_label(gauge: str) -> str:
    return reference.LABELS[gauge]


def _check_gauge(gauge: str) -> None:
    if gauge not in reference.GAUGES:
        raise ValidationError({"gauge": _("Cette constitution n'existe pas.")})


def _gauge_columns(gauge: str) -> list[str]:
    return [f"{gauge}_{attr}" for attr in sheet.GAUGE_ATTRS]


def _locked(character: Character | int, *, columns: list[str], version: int | None) -> Character:
    """The locked sheet, once `version` is current for `columns` (None: no check, the pages)."""
    locked = character_lock(character)
    _check_version(character=locked, fields=columns, version=version)
    return locked


def _snapshot(character: Character) -> dict[str, Any]:
    return {column: getattr(character, column) for column in ACTION_COLUMNS}


def _record_columns(
    character: Character, *, before: dict[str, Any], by, action: str, note: str = ""
) -> Character:
    """Check the sheet and record the columns that differ from `before` (nothing if none do),
    each history row with `note`."""
    diff = {
        column: (old, getattr(character, column))
        for column, old in before.items()
        if getattr(character, column) != old
    }
    if not diff:
        return character
    validate_sheet(character)
    return character_record_changes(
        character, changes=diff, by=by, action=action, update_fields=list(diff), note=note
    )


# --- damage ----------------------------------------------------------------------------------


@transaction.atomic
def character_damage(
    *,
    character: Character | int,
    gauge: str,
    amount: int,
    scars: int = 0,
    by,
    version: int | None = None,
    note: str = "",
) -> list[str]:
    """Deal `amount` damage to a gauge (ephemeral points first, §3), `scars` of it serious;
    reaching 0 Vitalité gives Agonie and péril (§8). `note`: what dealt it, kept in the sheet's
    history (a fight's blow: « Une attaque », « Attaque de Brann »). Returns French notes for
    the player."""
    _check_gauge(gauge)
    columns = [*_gauge_columns(gauge), *(["agony"] if gauge == "vitality" else [])]
    locked = _locked(character, columns=columns, version=version)
    before = _snapshot(locked)
    current = sheet.gauges(locked)
    hit = current[gauge]
    try:
        after = gauges_rules.take_damage(hit, amount, serious=scars)
    except RuleError as error:
        raise rule_error_to_validation_error(error) from error
    current[gauge] = after
    if gauge == "vitality":
        locked.agony = states_rules.agony_after_hit(locked.agony, hit, after)
    sheet.store_gauges(locked, current)
    outlook = states_rules.outlook(
        current, locked.fragility, locked.exhaustion, hits={gauge: amount}
    )
    notes = _damage_notes(gauge, hit, after, scars=scars, outlook=outlook)
    _record_columns(locked, before=before, by=by, action=ChangeAction.DAMAGE, note=note)
    return notes


def _damage_notes(
    gauge: str, hit: Gauge, after: Gauge, *, scars: int, outlook: states_rules.Outlook
) -> list[str]:
    """What the player reads after a hit: the gauge before → after, péril, and what follows."""
    label = _gauge_label(gauge)
    notes = [
        f"{label} : {hit.current} → {after.current}"
        + (
            _(", éphémère %(before)s → %(after)s")
            % {"before": hit.ephemeral, "after": after.ephemeral}
            if hit.ephemeral
            else ""
        )
        + (
            _(", cicatrices %(before)s → %(after)s") % {"before": hit.scars, "after": after.scars}
            if scars
            else ""
        )
        + "."
    ]
    if after.peril and not hit.peril:
        notes.append(_("%(label)s en péril jusqu'à stabilisation.") % {"label": label})
    if outlook.dead:
        notes.append(_("Le personnage meurt."))
    elif outlook.unconscious:
        notes.append(_("Le personnage perd connaissance."))
    elif outlook.discouraged:
        notes.append(_("Le personnage est découragé."))
    return notes


# --- rest ------------------------------------------------------------------------------------


# The Aggravation effects (keys of `AGGRAVATION_TABLE`) a character still carries, unhealed (§8):
# the sessions app records injuries and sits above this one, so it registers the reader at
# start-up (sessions/injury_rest.py). A rest asks it inside its transaction; unregistered, none.
_INJURY_READERS: list[Callable[[int], Sequence[str]]] = []


def register_injury_reader(reader: Callable[[int], Sequence[str]]) -> None:
    """Let `reader(character_id)` tell a rest which unhealed injuries a character carries (one
    reader: registering again replaces it)."""
    _INJURY_READERS[:] = [reader]


def _open_injury_effects(character: Character) -> list[str]:
    return [key for reader in _INJURY_READERS for key in reader(character.pk)]


@transaction.atomic
def character_rest(
    *,
    character: Character | int,
    rank: str = reference.DEFAULT_REST_RANK,
    slept_badly: bool = False,
    ate_badly: bool = False,
    whole_day_of_rest: bool = False,
    by,
    version: int | None = None,
) -> list[str]:
    """Take a rest (§4): its rank from `rank` (Normale unless the Conteur says otherwise) shifted
    by bad sleep, bad food and a whole day of rest, by the rules; the unhealed injuries that make
    a gauge harder to restore (a rib cage) read from the character's record. Gauges restored by
    the rules, Résilience points back after a rest with no scars and no wounds, Agonie lost if
    stable, a full rest also clears Aggravation and Descente (§7, §8)."""
    locked = _locked(character, columns=list(ACTION_COLUMNS), version=version)
    before = _snapshot(locked)
    scores = sheet.rules_sheet.sheet_scores(sheet.characteristics(locked))
    effects = _open_injury_effects(locked)
    try:
        taken = rest_rules.rest_rank(
            base=rank,
            slept_badly=slept_badly,
            ate_badly=ate_badly,
            whole_day_of_rest=whole_day_of_rest,
        )
        harder = rest_rules.injury_harder_gauges(effects)
        result = rest_rules.rest(
            sheet.gauges(locked),
            taken,
            might=scores.might,
            harmony=scores.harmony,
            exhaustion=locked.exhaustion,
            harder_gauges=harder,
        )
    except RuleError as error:
        raise rule_error_to_validation_error(error) from error
    sheet.store_gauges(locked, result.gauges)
    locked.resilience_points = result.resilience_points(
        locked.resilience_points, scores.rows["resilience"]
    )
    _condition_after_rest(locked, full=result.full_rest)
    reasons = [
        text
        for flag, text in (
            (slept_badly, _("mal dormi")),
            (ate_badly, _("mal mangé")),
            (whole_day_of_rest, _("journée entière de repos")),
        )
        if flag
    ]
    notes = [_rest_note(taken, reasons=reasons, before=before, character=locked)]
    if harder:
        notes.append(_injury_note(effects, harder))
    if before["agony"] and not locked.agony:
        notes.append(_("Stable : l'Agonie est perdue."))
    _record_columns(locked, before=before, by=by, action=ChangeAction.REST)
    return notes


def _injury_note(effects: Sequence[str], harder: Sequence[str]) -> str:
    """« Cage thoracique : Vitalité et Énergie restaurées un cran plus dur. »"""
    labels = [
        e.label
        for row in reference.AGGRAVATION_TABLE.values()
        for e in row
        if e.key in effects and e.harder_rest_gauges
    ]
    gauges = " et ".join(_gauge_label(g) for g in harder)
    return _("%(injuries)s : %(gauges)s restaurées un cran plus dur.") % {
        "injuries": ", ".join(dict.fromkeys(labels)),
        "gauges": gauges,
    }


def _condition_after_rest(character: Character, *, full: bool) -> None:
    """Agonie after any rest, Aggravation and Descente after a full one, by the rules (§7, §8)."""
    after = states_rules.after_rest(
        sheet.condition(character), full=full, stable=not character.vitality_peril
    )
    character.aggravation, character.agony = after.aggravation, after.agony
    character.special_state = after.state or "none"
    character.discouraged = after.discouraged


def _rest_note(
    rank: str, *, reasons: Sequence[str], before: dict[str, Any], character: Character
) -> str:
    """« Repos Difficile (mal dormi) : Vitalité 3 → 8, … »: the rank taken, what shifted it and
    every gauge before → after the rest."""
    label = next(r.label for r in reference.REST_RANKS if r.key == rank)
    if reasons:
        label = f"{label} ({', '.join(reasons)})"
    gauges = ", ".join(
        f"{_gauge_label(g)} {before[f'{g}_current']} → {getattr(character, f'{g}_current')}"
        for g in reference.GAUGES
    )
    return _("Repos %(label)s : %(gauges)s.") % {"label": label, "gauges": gauges}


# --- care ------------------------------------------------------------------------------------


def _tend_gauge(
    *,
    character: Character | int,
    gauge: str,
    tend: Callable[[Gauge], Gauge],
    by,
    action: str,
    version: int | None,
) -> tuple[int, Gauge]:
    """Replace one gauge by `tend(gauge)` and record it; returns (current before, new gauge)."""
    _check_gauge(gauge)
    locked = _locked(character, columns=_gauge_columns(gauge), version=version)
    before = _snapshot(locked)
    current = sheet.gauges(locked)
    current[gauge] = tend(current[gauge])
    sheet.store_gauges(locked, current)
    _record_columns(locked, before=before, by=by, action=action)
    return before[f"{gauge}_current"], current[gauge]


@transaction.atomic
def character_stabilise(
    *, character: Character | int, gauge: str, by, version: int | None = None
) -> list[str]:
    """Stabilise a gauge after care (§3, §8): it leaves péril."""
    _tend_gauge(
        character=character,
        gauge=gauge,
        tend=gauges_rules.stabilise,
        by=by,
        action=ChangeAction.STABILISE,
        version=version,
    )
    return [_("%(gauge)s stabilisée.") % {"gauge": _gauge_label(gauge)}]


@transaction.atomic
def character_heal(
    *, character: Character | int, gauge: str, points: int, by, version: int | None = None
) -> list[str]:
    """Restore `points` to a gauge (care, a healing spell's result), never above its maximum."""
    was, healed = _tend_gauge(
        character=character,
        gauge=gauge,
        tend=lambda current: gauges_rules.heal(current, points),
        by=by,
        action=ChangeAction.HEAL,
        version=version,
    )
    return [f"{_gauge_label(gauge)} : {was} → {healed.current}."]


# --- objectives (§1) -------------------------------------------------------------------------


def objective_impact_gain(character: Character) -> int:
    """The Impact points an objective reached now would give back (0: the pool is full)."""
    score = rules_sheet.sheet_scores(sheet.characteristics(character)).rows["impact"]
    points = character.impact_points
    return rules_sheet.impact_points_on_objective(points, score) - points


@transaction.atomic
def character_objective_reached(
    *, character: Character | int, by, version: int | None = None
) -> list[str]:
    """An important objective is reached or a new one appears, as the Conteur says (§1): every
    Impact point comes back, up to the Impact score. A full pool changes nothing."""
    locked = _locked(character, columns=["impact_points"], version=version)
    before = locked.impact_points
    try:
        gain = objective_impact_gain(locked)
    except RuleError as error:
        raise rule_error_to_validation_error(error) from error
    if not gain:
        return [_("Objectif atteint : les points d'Impact sont déjà au complet.")]
    locked.impact_points = before + gain
    validate_sheet(locked)
    character_record_changes(
        locked,
        changes={"impact_points": (before, locked.impact_points)},
        by=by,
        action=ChangeAction.EDIT,
        update_fields=["impact_points"],
    )
    return [
        ngettext(
            "Objectif atteint : +%(gain)s point d'Impact (%(before)s → %(after)s).",
            "Objectif atteint : +%(gain)s points d'Impact (%(before)s → %(after)s).",
            gain,
        )
        % {"gain": gain, "before": before, "after": locked.impact_points}
    ]
