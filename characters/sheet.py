"""The bridge between stored sheets and the rules engine: rows in, rules' frozen values out.

Nothing here decides a rule: it turns a `Character` into the engine's inputs (`Characteristics`,
`Premices`, `Gauge`…) and returns what the engine computes. Every derived value on a page or in
the API comes from `derive()`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules import creation
from rules import reference as ref
from rules import rest as rules_rest
from rules import sheet as rules_sheet
from rules import states as rules_states
from rules.check import Check
from rules.errors import raise_if
from rules.gauges import Gauge
from rules.odds import check_odds

GAUGE_ATTRS = ("current", "scars", "ephemeral", "stabilised", "peril")


def characteristics(character) -> rules_sheet.Characteristics:
    return rules_sheet.Characteristics(
        **{name: getattr(character, name) for name in ref.CHARACTERISTICS}
    )


def premices(character) -> rules_sheet.Premices:
    """The character's prémices; raises RuleError if they break §3."""
    return rules_sheet.Premices(
        **{gauge: getattr(character, f"premice_{gauge}") for gauge in ref.GAUGES}
    )


def gauges(character, maxima: dict[str, int] | None = None) -> dict[str, Gauge]:
    maxima = maxima if maxima is not None else gauge_maxima(character)
    return {
        name: Gauge(
            maximum=maxima[name],
            **{attr: getattr(character, f"{name}_{attr}") for attr in GAUGE_ATTRS},
        )
        for name in ref.GAUGES
    }


def gauge_maxima(character) -> dict[str, int]:
    return rules_sheet.gauge_maxima(premices(character), character.exaltation)


def store_gauges(character, new: dict[str, Gauge]) -> list[str]:
    """Copy the engine's gauges back onto the character; return the columns that changed."""
    changed = []
    for name, gauge in new.items():
        for attr in GAUGE_ATTRS:
            column = f"{name}_{attr}"
            if getattr(character, column) != getattr(gauge, attr):
                setattr(character, column, getattr(gauge, attr))
                changed.append(column)
    return changed


def condition(character) -> rules_states.Condition:
    state = None if character.special_state == "none" else character.special_state
    return rules_states.Condition(
        fragility=character.fragility,
        exhaustion=character.exhaustion,
        aggravation=character.aggravation,
        agony=character.agony,
        agony_locked=character.agony_locked,
        state=state,
        discouraged=character.discouraged,
    )


@dataclass(frozen=True)
class GaugeView:
    """A gauge with its column (§3: Vitalité is Corps's…) and what a normal rest restores."""

    key: str
    label: str
    gauge: Gauge
    column_label: str
    column_score: int
    rest_points: int


@dataclass(frozen=True)
class RestLine:
    key: str
    label: str
    points: int


@dataclass(frozen=True)
class Derived:
    """Every value the sheet shows but does not store, all from `rules`."""

    scores: rules_sheet.SheetScores
    maxima: dict[str, int]
    gauges: tuple[GaugeView, ...]
    personal_cap: int
    speeds: rules_sheet.Speeds
    outlook: rules_states.Outlook
    rest_table: tuple[RestLine, ...]

    @property
    def might(self) -> int:
        return self.scores.might

    @property
    def harmony(self) -> int:
        return self.scores.harmony

    def to_dict(self) -> dict[str, Any]:
        return {
            "columns": dict(self.scores.columns),
            "rows": dict(self.scores.rows),
            "might": self.scores.might,
            "harmony": self.scores.harmony,
            "gauge_maxima": dict(self.maxima),
            "wounds": {g.key: g.gauge.wounds for g in self.gauges},
            "personal_morale_cap": self.personal_cap,
            "speeds": self.speeds.__dict__.copy(),
            "dead": self.outlook.dead,
            "unconscious": self.outlook.unconscious,
            "discouraged": self.outlook.discouraged,
            "rest": {line.key: line.points for line in self.rest_table},
        }


def _outlook(character, current) -> rules_states.Outlook:
    """Dead, unconscious, discouraged (§8); Découragement from one big hit is kept on the sheet
    until the next rest (Reading §8)."""
    seen = rules_states.outlook(current, character.fragility, character.exhaustion)
    return replace(seen, discouraged=seen.discouraged or character.discouraged)


def derive(character) -> Derived:
    chars = characteristics(character)
    scores = rules_sheet.sheet_scores(chars)
    maxima = gauge_maxima(character)
    current = gauges(character, maxima)
    return Derived(
        scores=scores,
        maxima=maxima,
        gauges=tuple(
            GaugeView(
                key,
                ref.LABELS[key],
                gauge,
                ref.LABELS[ref.GAUGE_COLUMNS[key]],
                scores.columns[ref.GAUGE_COLUMNS[key]],
                rules_rest.points_restored(
                    ref.DEFAULT_REST_RANK, scores.might, scores.harmony, character.exhaustion
                ),
            )
            for key, gauge in current.items()
        ),
        personal_cap=rules_sheet.personal_point_cap(character.exaltation),
        speeds=rules_sheet.speeds(character.agility, character.vigor),
        outlook=_outlook(character, current),
        rest_table=tuple(
            RestLine(
                rank.key,
                rank.label,
                rules_rest.points_restored(
                    rank.key, scores.might, scores.harmony, character.exhaustion
                ),
            )
            for rank in ref.REST_RANKS
        ),
    )


def validate(character, *, skills=None, languages=None) -> None:
    """Raise rules.errors.RuleError if the stored sheet breaks a rule of play (the engine's
    `play_violations`)."""
    sheet = rules_sheet.PlaySheet(
        characteristics=characteristics(character),
        premices=premices_unchecked(character),
        exaltation=character.exaltation,
        gauges_current={g: getattr(character, f"{g}_current") for g in ref.GAUGES},
        pools={row: getattr(character, f"{row}_points") for row in ref.ROWS},
        personal_hope=character.personal_hope,
        personal_despair=character.personal_despair,
        languages=None if languages is None else {row.key: row.level for row in languages},
    )
    raise_if(rules_sheet.play_violations(sheet))


def lower_pools(character, *, keep=()) -> tuple[rules_sheet.PoolLowered, ...]:
    """§1: after a characteristic fell, bring each point pool (but those in `keep`, asked for
    explicitly) down to its row's new score, on the character; returns what was lowered."""
    pools = {
        row: getattr(character, f"{row}_points") for row in ref.ROWS if f"{row}_points" not in keep
    }
    _new, lowered = rules_sheet.pools_within_scores(characteristics(character), pools)
    for item in lowered:
        setattr(character, f"{item.row}_points", item.new)
    return lowered


def pools_lowered_messages(before, after) -> tuple[str, ...]:
    """What the player is told when a pool came down between two states of the sheet (§1)."""
    return tuple(
        rules_sheet.PoolLowered(row, old, new).message
        for row in ref.ROWS
        if (new := getattr(after, f"{row}_points")) < (old := getattr(before, f"{row}_points"))
    )


def premices_unchecked(character) -> dict[str, int]:
    """The prémices as a mapping, so their violations can be listed rather than raised."""
    return {g: getattr(character, f"premice_{g}") for g in ref.GAUGES}


@dataclass(frozen=True)
class SkillOdds:
    success: float
    critical_success: float
    critical_failure: float


def skill_odds(
    *,
    level: int,
    characteristic: int,
    complexity: int,
    difficulty: int,
    agony: int = 0,
    expertise: bool = False,
    boon: int = 0,
    bane: int = 0,
) -> SkillOdds:
    """Exact odds of a check with this skill level (rules.odds)."""
    odds = check_odds(
        Check(
            skill=level,
            complexity=complexity,
            characteristic=characteristic,
            difficulty=difficulty,
            agony=agony,
            expertise=expertise,
            boon=boon,
            bane=bane,
        )
    )
    return SkillOdds(odds.success, odds.critical_success, odds.critical_failure)


# --- actions on the sheet (§4, §8): rules in, new stored values out ------------------------


@dataclass(frozen=True)
class ActionOutcome:
    """What an action changed (columns to save) and what to tell the player."""

    columns: list[str]
    messages: tuple[str, ...] = ()


# --- creation (§9) -------------------------------------------------------------------------


def species_bonuses(species) -> tuple[dict[str, int], dict[str, int]]:
    """(bonuses and maluses, favourite bonuses) of a species, by the engine's reading."""
    if species is None:
        return {}, {}
    return creation.species_bonuses(
        species.modifiers or {}, species.favourite_characteristics or []
    )


def creation_draft(data: dict[str, Any], *, species, entries: dict, budget: int) -> creation.Draft:
    """The engine's Draft from the wizard's or the API's plain data."""
    skills = data.get("skills") or {}
    languages = data.get("languages") or {}
    expertises = tuple(
        f"{key}:{expertise}"
        for key, value in skills.items()
        for expertise in value.get("expertises") or []
    ) + tuple(f"{key}:écriture" for key, value in languages.items() if value.get("writing"))
    abilities = entries.get("abilities", [])
    bonuses, favourites = species_bonuses(species)
    return creation.Draft(
        characteristics=dict(data.get("characteristics") or {}),
        origin=data.get("origin", ref.CHARACTERISTIC_START),
        combativeness=data.get("combativeness", ref.COMBATIVENESS_START),
        premices=dict(data.get("premices") or {g: 15 for g in ref.GAUGES}),
        skills={key: value.get("level", 0) for key, value in skills.items()},
        languages={key: value.get("level", 0) for key, value in languages.items()},
        expertises=expertises,
        founding_classes=tuple(c.name for c in entries.get("classes", [])),
        founding_abilities=tuple(a.name for a in abilities if a.character_class_id),
        species_abilities=tuple(a.name for a in abilities if not a.character_class_id),
        assets={a.name: a.cost for a in entries.get("assets", [])},
        flaws={f.name: f.value for f in entries.get("flaws", [])},
        species_bonuses=bonuses,
        favourite_bonuses=favourites,
        budget=budget,
    )


def creation_report(data, *, species, entries, budget) -> creation.CreationReport:
    return creation.evaluate(creation_draft(data, species=species, entries=entries, budget=budget))


def fill_at_creation(character) -> None:
    """A new character starts with full gauges (§3) and full point pools (§1)."""
    maxima = gauge_maxima(character)
    for gauge in ref.GAUGES:
        setattr(character, f"{gauge}_current", maxima[gauge])
    rows = rules_sheet.row_scores(characteristics(character))
    for row in ref.ROWS:
        setattr(character, f"{row}_points", rows[row])
