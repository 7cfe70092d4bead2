"""Sheet math (§1, §3, §6, §12): column and row scores, Puissance, Harmonie, gauge maxima,
personal morale caps and speeds, from plain frozen inputs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from math import ceil

from rules import reference as ref
from rules.errors import RuleError, RuleViolation, check_range, raise_if
from rules.french import de


@dataclass(frozen=True)
class Characteristics:
    """The nine main characteristics (§1); every one starts at 2 at creation."""

    strength: int = ref.CHARACTERISTIC_START
    vigor: int = ref.CHARACTERISTIC_START
    agility: int = ref.CHARACTERISTIC_START
    power: int = ref.CHARACTERISTIC_START
    charisma: int = ref.CHARACTERISTIC_START
    perception: int = ref.CHARACTERISTIC_START
    intellect: int = ref.CHARACTERISTIC_START
    will: int = ref.CHARACTERISTIC_START
    wisdom: int = ref.CHARACTERISTIC_START

    def value(self, name: str) -> int:
        return getattr(self, name)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def score(values: tuple[int, int, int]) -> int:
    """Reading (§1): a column or row score is floor(mean of its three characteristics)."""
    return sum(values) // 3


def column_score(chars: Characteristics, column: str) -> int:
    """Return the score of a column (body, soul, mind)."""
    return score(tuple(chars.value(c) for c in ref.COLUMNS[column]))


def row_score(chars: Characteristics, row: str) -> int:
    """Return the score of a row (impact, resilience, finesse)."""
    return score(tuple(chars.value(c) for c in ref.ROWS[row]))


def column_scores(chars: Characteristics) -> dict[str, int]:
    return {column: column_score(chars, column) for column in ref.COLUMNS}


def row_scores(chars: Characteristics) -> dict[str, int]:
    return {row: row_score(chars, row) for row in ref.ROWS}


def might(chars: Characteristics) -> int:
    """Return Puissance = highest column score + highest row score (§1)."""
    return max(column_scores(chars).values()) + max(row_scores(chars).values())


def harmony(chars: Characteristics) -> int:
    """Return Harmonie = lowest column score + lowest row score (§1)."""
    return min(column_scores(chars).values()) + min(row_scores(chars).values())


@dataclass(frozen=True)
class Premices:
    """The three prémices chosen at creation (§3 Reading): each ≥ 1, summing to 45."""

    vitality: int = 15
    energy: int = 15
    confidence: int = 15

    def __post_init__(self) -> None:
        raise_if(premice_violations(self))


def premice_violations(premices: Premices | Mapping[str, int]) -> list[RuleViolation]:
    """Return why these prémices are not allowed (each ≥ 1, sum 45), in French."""
    values = premices if isinstance(premices, Mapping) else asdict(premices)
    found = [
        RuleViolation(
            f"premices.{gauge}", f"La prémice {de(ref.LABELS[gauge])} doit valoir au moins 1."
        )
        for gauge in ref.GAUGES
        if values[gauge] < 1
    ]
    total = sum(values[gauge] for gauge in ref.GAUGES)
    if total != ref.PREMICE_TOTAL:
        found.append(
            RuleViolation(
                "premices",
                f"Les trois prémices doivent totaliser {ref.PREMICE_TOTAL} (actuellement {total}).",
            )
        )
    return found


def exaltation_bonus(exaltation: int) -> int:
    """Return the source's "Bonus total" for an Exaltation 1..9 (§3)."""
    if not ref.EXALTATION_MIN <= exaltation <= ref.EXALTATION_MAX:
        raise_if([RuleViolation("exaltation", "L'Exaltation doit être comprise entre 1 et 9.")])
    return ref.EXALTATION_BONUS_TOTAL[exaltation - 1]


def gauge_maximum(premice: int, exaltation: int) -> int:
    """Reading (§3): a gauge's maximum = prémice × Exaltation + bonus(Exaltation) / 3."""
    return premice * exaltation + exaltation_bonus(exaltation) // 3


def gauge_maxima(premices: Premices, exaltation: int) -> dict[str, int]:
    """Return the maxima of Vitalité, Énergie and Confiance (they sum to the source's table)."""
    return {g: gauge_maximum(getattr(premices, g), exaltation) for g in ref.GAUGES}


def personal_point_cap(exaltation: int) -> int:
    """Reading (§6): personal hope and despair are each capped at Exaltation / 2 rounded up."""
    return ceil(exaltation / 2)


def language_violations(levels: Mapping[str, int]) -> list[RuleViolation]:
    """§2: the Vrai Primordial's level may never exceed Primordial's."""
    primordial = levels.get(ref.PRIMORDIAL, 0)
    true_primordial = levels.get(ref.TRUE_PRIMORDIAL, 0)
    if true_primordial <= primordial:
        return []
    return [
        RuleViolation(
            f"languages.{ref.TRUE_PRIMORDIAL}",
            f"Le Vrai Primordial ({true_primordial}) ne peut dépasser le niveau de "
            f"Primordial ({primordial}).",
        )
    ]


POOL_LABELS = {
    "impact": "Le nombre de points d'Impact",
    "resilience": "Le nombre de points de Résilience",
    "finesse": "Le nombre de points de Finesse",
}


@dataclass(frozen=True)
class PlaySheet:
    """What a sheet holds during play that the rules bound (§1, §2, §3, §6)."""

    characteristics: Characteristics
    premices: Mapping[str, int]
    exaltation: int
    gauges_current: Mapping[str, int]
    pools: Mapping[str, int]
    personal_hope: int
    personal_despair: int
    languages: Mapping[str, int] | None = None


def play_violations(sheet: PlaySheet) -> list[RuleViolation]:
    """Return why a sheet in play breaks a rule, in French: prémices (§3), a gauge above its
    maximum (§3), a point pool above its row score (§1), personal hope or despair above the cap
    (§6), Vrai Primordial above Primordial (§2)."""
    found = premice_violations(sheet.premices)
    if found:
        return found
    maxima = gauge_maxima(Premices(**sheet.premices), sheet.exaltation)
    for gauge in ref.GAUGES:
        check_range(
            found,
            f"{gauge}_current",
            ref.LABELS[gauge],
            sheet.gauges_current[gauge],
            0,
            maxima[gauge],
        )
    rows = row_scores(sheet.characteristics)
    for row in ref.ROWS:
        label = POOL_LABELS[row]
        check_range(found, f"{row}_points", label, sheet.pools[row], 0, rows[row])
    cap = personal_point_cap(sheet.exaltation)
    check_range(found, "personal_hope", "L'espoir personnel", sheet.personal_hope, 0, cap)
    check_range(found, "personal_despair", "Le désespoir personnel", sheet.personal_despair, 0, cap)
    if sheet.languages is not None:
        found += language_violations(sheet.languages)
    return found


@dataclass(frozen=True)
class PoolLowered:
    """A point pool brought down to its row's new score (§1), and how to tell the player."""

    row: str
    old: int
    new: int

    @property
    def message(self) -> str:
        label = ref.LABELS[self.row]
        return (
            f"Points {de(label)} ramenés de {self.old} à {self.new} "
            f"(le score {de(label)} est maintenant {self.new})."
        )


def pools_within_scores(
    chars: Characteristics, pools: Mapping[str, int]
) -> tuple[dict[str, int], tuple[PoolLowered, ...]]:
    """§1: a row's pool holds current ≤ its score, so lowering a characteristic lowers the pool
    with it when the row's score falls below it (never raised). Returns (pools, what was lowered)."""
    rows = row_scores(chars)
    new = {row: min(value, rows[row]) for row, value in pools.items()}
    lowered = tuple(
        PoolLowered(row, pools[row], new[row]) for row in pools if new[row] < pools[row]
    )
    return new, lowered


@dataclass(frozen=True)
class Speeds:
    """Speeds from Agilité and Vigueur (§12): km/h for a duration, or metres per turn."""

    travel_kmh: int
    travel_hours: int
    run_kmh: int
    run_minutes: int
    sprint_kmh: int
    sprint_seconds: int
    combat_move_m: int
    combat_run_m: int


def impact_points_on_objective(points: int, score: int) -> int:
    """Return the Impact points after an important objective is reached or a new one appears
    (§1, the Conteur triggers it): all of them back, up to the Impact row's score."""
    if points < 0 or score < 0:
        raise RuleError.single("impact_points", "Les points d'Impact sont un nombre positif.")
    return max(points, score)


def speeds(agility: int, vigor: int) -> Speeds:
    """Return the §12 speeds: travel, run, sprint, combat move and combat run."""
    move = 2 * agility
    return Speeds(
        travel_kmh=agility,
        travel_hours=vigor,
        run_kmh=2 * agility,
        run_minutes=vigor,
        sprint_kmh=3 * agility,
        sprint_seconds=5 * vigor,
        combat_move_m=move,
        combat_run_m=2 * move,
    )


@dataclass(frozen=True)
class SheetScores:
    """Everything derived from the characteristics, for a sheet page or an API."""

    columns: dict[str, int]
    rows: dict[str, int]
    might: int
    harmony: int

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def sheet_scores(chars: Characteristics) -> SheetScores:
    """Return the six secondary scores with Puissance and Harmonie."""
    return SheetScores(column_scores(chars), row_scores(chars), might(chars), harmony(chars))
