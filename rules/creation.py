"""Character creation (§9): the budget calculator and validator, with French errors per field."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field

from rules import reference as ref
from rules.errors import RuleViolation
from rules.french import plural
from rules.sheet import language_violations, premice_violations

_START = ref.CHARACTERISTIC_START
CHARACTERISTIC_MINIMUM = 1  # Reading (§1): a species malus may lower a characteristic to 1.
TIER_AVERAGE_CHARACTERISTIC = {"heritage": 3, "hero": 5}  # Reading (§9): tiers, for display


@dataclass(frozen=True)
class Draft:
    """A sheet being created. Costs of assets and flaws come from the campaign's compendium;
    species bonuses (or negative maluses) and favourite bonuses are plain dicts."""

    characteristics: Mapping[str, int] = field(default_factory=dict)
    origin: int = _START
    combativeness: int = ref.COMBATIVENESS_START
    premices: Mapping[str, int] = field(
        default_factory=lambda: {"vitality": 15, "energy": 15, "confidence": 15}
    )
    skills: Mapping[str, int] = field(default_factory=dict)
    languages: Mapping[str, int] = field(default_factory=dict)
    expertises: tuple[str, ...] = ()
    founding_classes: tuple[str, ...] = ()
    founding_abilities: tuple[str, ...] = ()
    species_abilities: tuple[str, ...] = ()  # acquired, not innate
    assets: Mapping[str, int] = field(default_factory=dict)  # name → cost
    flaws: Mapping[str, int] = field(default_factory=dict)  # name → points refunded
    species_bonuses: Mapping[str, int] = field(default_factory=dict)
    favourite_bonuses: Mapping[str, int] = field(default_factory=dict)
    budget: int = ref.CREATION_BUDGET


@dataclass(frozen=True)
class CostLine:
    field: str
    label: str
    points: int


@dataclass(frozen=True)
class CreationReport:
    """Points per line, total, remaining budget, and every French error tied to its field."""

    lines: tuple[CostLine, ...]
    total: int
    budget: int
    errors: tuple[RuleViolation, ...]

    @property
    def remaining(self) -> int:
        return self.budget - self.total

    @property
    def over(self) -> int:
        """Points spent beyond the budget (0 within it)."""
        return max(0, self.total - self.budget)

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["remaining"] = self.remaining
        data["valid"] = self.valid
        return data


def species_bonuses(
    modifiers: Mapping[str, int], favourites: Iterable[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """Return (bonuses and maluses, favourite bonuses) of a species. Reading (§1, §9): a favourite
    characteristic's bonus is the species' modifier for it, so its cap is 8 + that modifier."""
    bonuses = {name: int(value) for name, value in modifiers.items()}
    return bonuses, {name: bonuses.get(name, 0) for name in favourites}


def characteristic_maximum(favourite_bonus: int) -> int:
    """§1: a main characteristic may not exceed 8 + the species' favourite bonus for it."""
    return ref.CHARACTERISTIC_BASE_MAX + max(favourite_bonus, 0)


def _characteristic_lines(draft: Draft, errors: list[RuleViolation]) -> list[CostLine]:
    lines = []
    cost = ref.CREATION_COSTS["characteristic"]
    for name in (*ref.CHARACTERISTICS, "origin"):
        label = ref.LABELS[name]
        value = draft.origin if name == "origin" else draft.characteristics.get(name, _START)
        start = _START + draft.species_bonuses.get(name, 0)
        bonus = draft.favourite_bonuses.get(name, 0)
        highest = characteristic_maximum(bonus) if name != "origin" else ref.CHARACTERISTIC_BASE_MAX
        if value > highest:
            detail = f" (8 + {bonus} de bonus d'espèce)" if bonus > 0 and name != "origin" else ""
            errors.append(RuleViolation(name, f"{label} ne peut dépasser {highest}{detail}."))
        if value < CHARACTERISTIC_MINIMUM:
            errors.append(RuleViolation(name, f"{label} ne peut pas descendre sous 1."))
        elif value < start:
            errors.append(
                RuleViolation(
                    name,
                    f"{label} ne peut pas descendre sous sa valeur de départ ({start}) : "
                    "les points de création ne se récupèrent pas ainsi.",
                )
            )
        bought = max(value - start, 0)
        if bought:
            lines.append(CostLine(name, f"{label} +{bought}", bought * cost))
    return lines


def language_cost(key: str) -> int:
    """Return the creation points one level of a language costs. Reading (§2): a language is
    bought like a skill (+1 = 2), but Vrai Primordial has its own purchase base (« sa propre base
    d'achat »): +1 = 4, twice a language's, for the language « extrêmement difficile à
    apprendre »."""
    if key == ref.TRUE_PRIMORDIAL:
        return ref.CREATION_COSTS["true_primordial"]
    return ref.CREATION_COSTS["language"]


def _leveled_lines(
    entries: Mapping[str, int], kind: str, errors: list[RuleViolation]
) -> list[CostLine]:
    lines = []
    for key, level in entries.items():
        cost = language_cost(key) if kind == "language" else ref.CREATION_COSTS[kind]
        if kind == "skill":
            known = ref.SKILLS_BY_KEY.get(key)
            label = known.label if known else key
            noun = "La compétence"
        else:
            known = ref.LANGUAGES_BY_KEY.get(key)
            label = known.label if known else key
            noun = "La langue"
        fname = f"{kind}s.{key}"
        if known is None:
            errors.append(RuleViolation(fname, f"{noun} « {key} » n'existe pas."))
            continue
        if not ref.SKILL_MIN <= level <= ref.SKILL_MAX:
            errors.append(
                RuleViolation(fname, f"{noun} {label} doit avoir un niveau entre 0 et 10.")
            )
            continue
        if level:
            lines.append(CostLine(fname, f"{label} {level}", level * cost))
    return lines


def evaluate(draft: Draft) -> CreationReport:
    """Return the cost of every line of `draft`, the total against its budget, and every broken
    creation rule as a French sentence tied to a field (never an exception)."""
    errors: list[RuleViolation] = []
    lines = _characteristic_lines(draft, errors)
    lines += _leveled_lines(draft.skills, "skill", errors)
    lines += _leveled_lines(draft.languages, "language", errors)
    errors += language_violations(draft.languages)
    if draft.expertises:
        n = len(draft.expertises)
        lines.append(
            CostLine(
                "expertises",
                f"{n} {plural(n, 'expertise', 'expertises')}",
                n * ref.CREATION_COSTS["expertise"],
            )
        )
    combat = draft.combativeness
    if not ref.COMBATIVENESS_START <= combat <= ref.COMBATIVENESS_MAX:
        errors.append(
            RuleViolation("combativeness", "La Combativité doit être comprise entre 1 et 5.")
        )
    elif combat > ref.COMBATIVENESS_START:
        bought = combat - ref.COMBATIVENESS_START
        lines.append(
            CostLine(
                "combativeness",
                f"Combativité +{bought}",
                bought * ref.CREATION_COSTS["combativeness"],
            )
        )
    for fname, items, kind, label in (
        ("founding_classes", draft.founding_classes, "founding_class", "Classe fondatrice"),
        ("founding_abilities", draft.founding_abilities, "founding_ability", "Aptitude fondatrice"),
        ("species_abilities", draft.species_abilities, "species_ability", "Aptitude d'espèce"),
    ):
        lines += [CostLine(fname, f"{label} : {item}", ref.CREATION_COSTS[kind]) for item in items]
    for name, cost in draft.assets.items():
        if cost < 0:
            errors.append(RuleViolation("assets", f"Le coût de l'atout « {name} » est négatif."))
        lines.append(CostLine("assets", f"Atout : {name}", cost))
    for name, refund in draft.flaws.items():
        if refund < 0:
            errors.append(
                RuleViolation("flaws", f"Le handicap « {name} » rembourse un nombre négatif.")
            )
        lines.append(CostLine("flaws", f"Handicap : {name}", -refund))
    errors += _premice_errors(draft.premices)
    total = sum(line.points for line in lines)
    if total > draft.budget:
        errors.append(
            RuleViolation(
                "budget",
                f"Le budget de création est dépassé de {total - draft.budget} "
                f"{plural(total - draft.budget, 'point', 'points')} "
                f"({total} dépensés sur {draft.budget}).",
            )
        )
    return CreationReport(tuple(lines), total, draft.budget, tuple(errors))


def unspent(report: CreationReport) -> tuple[str, ...]:
    """What is left to spend, per budget, as French sentences (none once every point is spent).
    Not an error: a sheet may keep points, but its player should know before it is created that
    they do not carry over."""
    left = report.remaining
    if left <= 0:
        return ()
    return (
        f"Il reste {left} {plural(left, 'point', 'points')} de création à dépenser "
        f"({report.total} sur {report.budget}) : une fois le personnage créé, "
        f"{plural(left, 'il ne servira plus', 'ils ne serviront plus')}.",
    )


def _premice_errors(premices: Mapping[str, int]) -> list[RuleViolation]:
    if set(premices) != set(ref.GAUGES):
        return [
            RuleViolation("premices", "Il faut trois prémices : Vitalité, Énergie et Confiance.")
        ]
    return premice_violations(premices)
