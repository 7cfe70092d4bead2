"""The check (§5): its inputs, the hope/despair options, and rolling it with an injected RNG."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any, Protocol

from rules.errors import RuleError, RuleViolation, raise_if
from rules.reference import SKILL_MAX

DIE_FACES = 10
EXPLODING_FACE = 10  # §5: explosions stay on natural 10s …
SUBTRACTING_FACE = 1  # … and natural 1s, whatever the critical faces.
DEFAULT_CRITICAL_SUCCESS_FACES = frozenset({10})
DEFAULT_CRITICAL_FAILURE_FACES = frozenset({1})

CRITICAL_SUCCESS = "critical_success"
SUCCESS = "success"
FAILURE = "failure"
CRITICAL_FAILURE = "critical_failure"
OUTCOME_LABELS = {
    CRITICAL_SUCCESS: "Réussite critique",
    SUCCESS: "Réussite",
    FAILURE: "Échec",
    CRITICAL_FAILURE: "Échec critique",
}


class RandomSource(Protocol):
    def randint(self, a: int, b: int) -> int: ...


def morale_points(
    *,
    hope: int = 0,
    cancel_critical_failure: bool = False,
    substitute: bool = False,
    narrow_success: bool = False,
    fury: bool = False,
    fortune_fate: bool = False,
) -> tuple[int, int]:
    """Return the (hope, despair) points a roll's declared options cost (§5): +1 to the result is
    one hope point each; cancelling a critical failure and Puissance or Harmonie in place of the
    characteristic one hope point each; entering Acharnement, the narrow success and Fortune for
    all (with Fatalité) one despair point each."""
    if hope < 0:
        raise RuleError.single("hope", "Le nombre de points d'espoir dépensés est positif.")
    return (
        hope + int(cancel_critical_failure) + int(substitute),
        int(narrow_success) + int(fury) + int(fortune_fate),
    )


def system_rng() -> RandomSource:
    """Return the production random source: the OS's, never seedable (§5 Product)."""
    return secrets.SystemRandom()


def combined_skill(*levels: int) -> int:
    """Return the level used when a roll needs several skills: the lowest one (§2)."""
    if not levels:
        return 0
    return min(levels)


def hope_substitute(kind: str, might: int, harmony: int) -> int:
    """Return the value a hope point puts in place of a characteristic (§5): Puissance for a main
    characteristic, Harmonie for a secondary one (a column or row score)."""
    if kind == "main":
        return might
    if kind == "secondary":
        return harmony
    raise RuleError.single("kind", "La caractéristique remplacée est principale ou secondaire.")


@dataclass(frozen=True)
class Check:
    """Everything the dice need to know. `characteristic` is already substituted by Puissance or
    Harmonie if hope was spent for that (§5); `hope` counts hope points spent for +1 each."""

    skill: int = 0
    complexity: int = 0
    characteristic: int = 0
    difficulty: int = 0
    expertise: bool = False
    boon: int = 0
    bane: int = 0
    hope: int = 0
    agony: int = 0
    critical_success_faces: frozenset[int] = DEFAULT_CRITICAL_SUCCESS_FACES
    critical_failure_faces: frozenset[int] = DEFAULT_CRITICAL_FAILURE_FACES
    cancel_critical_failure: bool = False  # hope option (§5)
    narrow_success: bool = False  # despair option (§5)

    def __post_init__(self) -> None:
        object.__setattr__(self, "critical_success_faces", frozenset(self.critical_success_faces))
        object.__setattr__(self, "critical_failure_faces", frozenset(self.critical_failure_faces))
        raise_if(check_violations(self))

    @property
    def advantage(self) -> int:
        """Pool advantage a (§5.1): each boon/bane die moves the pool one step (Reading)."""
        return pool_advantage(self.skill, self.complexity, self.boon, self.bane)

    @property
    def dice_count(self) -> int:
        """Number of d10 rolled (§5.2): |a| + 1."""
        return abs(self.advantage) + 1

    @property
    def keep_highest(self) -> bool:
        return self.advantage >= 0

    @property
    def target(self) -> int:
        """The number the total must reach: difficulty + Agonie (§5.5 Reading)."""
        return self.difficulty + self.agony

    @property
    def modifier(self) -> int:
        """Constant added to the die result: characteristic + 1 per hope spent (§5.4 Reading)."""
        return self.characteristic + self.hope


def critical_faces(
    success_from: int = EXPLODING_FACE, failure_to: int = SUBTRACTING_FACE
) -> tuple[frozenset[int], frozenset[int]]:
    """Return the (critical success, critical failure) faces of a check whose ability widens its
    critical ranges (§5). Reading: a range widens from its own end, so a critical success on every
    face from `success_from` to 10 and a critical failure on every face from 1 to `failure_to`
    (default 10 and 1); the two ranges never meet."""
    found = []
    if not 2 <= success_from <= DIE_FACES:
        found.append(
            RuleViolation(
                "critical_success_from", "La réussite critique commence entre le 2 et le 10."
            )
        )
    if not 1 <= failure_to <= DIE_FACES - 1:
        found.append(
            RuleViolation("critical_failure_to", "L'échec critique s'arrête entre le 1 et le 9.")
        )
    if not found and failure_to >= success_from:
        found.append(
            RuleViolation(
                "critical_failure_to",
                f"L'échec critique (jusqu'au {failure_to}) ne peut pas rejoindre la réussite "
                f"critique (dès le {success_from}).",
            )
        )
    raise_if(found)
    return (
        frozenset(range(success_from, DIE_FACES + 1)),
        frozenset(range(1, failure_to + 1)),
    )


def pool_advantage(skill: int, complexity: int, boon: int = 0, bane: int = 0) -> int:
    """Return a = skill − complexity + boon − bane. Reading (§5.1): one boon die on a neutral roll
    gives two dice keep the highest, i.e. each surpuissance/impuissance die is one pool step."""
    return skill - complexity + boon - bane


def check_violations(check: Check) -> list[RuleViolation]:
    """Return the French reasons why `check` cannot be rolled (empty if it can)."""
    found: list[RuleViolation] = []
    for name, label in (
        ("boon", "Le nombre de dés de surpuissance"),
        ("bane", "Le nombre de dés d'impuissance"),
        ("hope", "Le nombre de points d'espoir dépensés"),
        ("agony", "L'Agonie"),
    ):
        if getattr(check, name) < 0:
            found.append(RuleViolation(name, f"{label} ne peut pas être négatif."))
    if check.skill < 0:
        found.append(RuleViolation("skill", "Le niveau de compétence ne peut pas être négatif."))
    elif check.skill > SKILL_MAX:
        found.append(RuleViolation("skill", f"Le niveau de compétence va de 0 à {SKILL_MAX}."))
    if check.complexity < 0:
        found.append(RuleViolation("complexity", "La complexité ne peut pas être négative."))
    for name, faces in (
        ("critical_success_faces", check.critical_success_faces),
        ("critical_failure_faces", check.critical_failure_faces),
    ):
        if not faces <= set(range(1, DIE_FACES + 1)):
            found.append(
                RuleViolation(name, "Les faces critiques doivent être comprises entre 1 et 10.")
            )
    if check.critical_success_faces & check.critical_failure_faces:
        found.append(
            RuleViolation(
                "critical_failure_faces",
                "Une face ne peut pas être à la fois réussite critique et échec critique.",
            )
        )
    return found


def classify(check: Check, kept: int, total: int) -> tuple[str, bool, bool, bool]:
    """Return (outcome, succeeded, narrow, cancelled) for a kept die and a total.

    A critical is decided by the kept die alone (§5: "a kept 10 is a critical success"); success by
    total ≥ target. Hope can cancel a critical failure (Reading §5: no chain, no critical); despair
    turns a failure into a narrow success (margin 0)."""
    cancelled = kept in check.critical_failure_faces and check.cancel_critical_failure
    reached = total >= check.target
    narrow = not reached and check.narrow_success
    succeeded = reached or narrow
    if kept in check.critical_success_faces:
        outcome = CRITICAL_SUCCESS
    elif kept in check.critical_failure_faces and not cancelled:
        outcome = CRITICAL_FAILURE
    else:
        outcome = SUCCESS if succeeded else FAILURE
    return outcome, succeeded, narrow, cancelled


def chain_starters(dice: tuple[int, ...], keep_highest: bool) -> tuple[int, int]:
    """Return (chains, sign) the kept die starts (§5.3).

    Keep-highest: every 10 starts an adding chain; all 1s start one subtracting chain. Keep-lowest:
    every 1 starts a subtracting chain; all 10s start one adding chain (Reading §5.3)."""
    kept = max(dice) if keep_highest else min(dice)
    if kept == EXPLODING_FACE:
        return (dice.count(EXPLODING_FACE) if keep_highest else 1), 1
    if kept == SUBTRACTING_FACE:
        return (1 if keep_highest else dice.count(SUBTRACTING_FACE)), -1
    return 0, 0


@dataclass(frozen=True)
class Breakdown:
    """Everything one roll did, in order, serialisable with `to_dict()`."""

    advantage: int
    keep_highest: bool
    dice: tuple[int, ...]
    kept_index: int
    kept: int
    chain_sign: int  # +1 adding chains, −1 subtracting chains, 0 none
    chains: tuple[tuple[int, ...], ...]
    die_result: int
    expertise_die: int | None
    modifiers: tuple[tuple[str, int], ...]
    total: int
    difficulty: int
    agony: int
    target: int
    margin: int
    outcome: str
    succeeded: bool
    narrow_success: bool
    critical_failure_cancelled: bool
    zone: bool

    @property
    def critical(self) -> bool:
        return self.outcome in (CRITICAL_SUCCESS, CRITICAL_FAILURE)

    def to_dict(self) -> dict[str, Any]:
        """Return plain JSON-ready data (lists, ints, strings, bools) for logs and the API."""
        return {
            "advantage": self.advantage,
            "mode": "highest" if self.keep_highest else "lowest",
            "dice": list(self.dice),
            "kept_index": self.kept_index,
            "kept": self.kept,
            "chain_sign": self.chain_sign,
            "chains": [list(c) for c in self.chains],
            "die_result": self.die_result,
            "expertise_die": self.expertise_die,
            "modifiers": [{"source": s, "value": v} for s, v in self.modifiers],
            "total": self.total,
            "difficulty": self.difficulty,
            "agony": self.agony,
            "target": self.target,
            "margin": self.margin,
            "outcome": self.outcome,
            "outcome_label": OUTCOME_LABELS[self.outcome],
            "succeeded": self.succeeded,
            "narrow_success": self.narrow_success,
            "critical_failure_cancelled": self.critical_failure_cancelled,
            "zone": self.zone,
        }


def _roll_chain(rng: RandomSource) -> tuple[int, ...]:
    dice = [rng.randint(1, DIE_FACES)]
    while dice[-1] == EXPLODING_FACE:
        dice.append(rng.randint(1, DIE_FACES))
    return tuple(dice)


def is_zone(check: Check, kept: int, chains: tuple[tuple[int, ...], ...]) -> bool:
    """Reading (§7 Zone): the roll had at least one surpuissance die, the kept die is 10 and its
    first explosion die is 10."""
    return check.boon >= 1 and kept == EXPLODING_FACE and bool(chains) and chains[0][0] == 10


def roll_check(check: Check, rng: RandomSource | None = None) -> Breakdown:
    """Roll `check` with `rng` (seedable `random.Random` in tests, the OS source by default) and
    return the full breakdown: dice, kept die, chains, expertise die, modifiers, margin, outcome."""
    rng = rng if rng is not None else system_rng()
    n, high = check.dice_count, check.keep_highest
    dice = tuple(rng.randint(1, DIE_FACES) for _ in range(n))
    kept = max(dice) if high else min(dice)
    kept_index = dice.index(kept)
    count, sign = chain_starters(dice, high)
    cancelled_chain = (
        sign < 0 and check.cancel_critical_failure and kept in (check.critical_failure_faces)
    )
    if cancelled_chain:
        count, sign = 0, 0
    chains = tuple(_roll_chain(rng) for _ in range(count))
    die_result = kept + sign * sum(sum(c) for c in chains)
    expertise_die = rng.randint(1, DIE_FACES) if check.expertise else None
    modifiers: list[tuple[str, int]] = [("characteristic", check.characteristic)]
    if check.hope:
        modifiers.append(("hope", check.hope))
    if expertise_die is not None:
        modifiers.append(("expertise", expertise_die))
    total = die_result + sum(v for _, v in modifiers)
    outcome, succeeded, narrow, cancelled = classify(check, kept, total)
    margin = 0 if narrow else total - check.target
    return Breakdown(
        advantage=check.advantage,
        keep_highest=high,
        dice=dice,
        kept_index=kept_index,
        kept=kept,
        chain_sign=sign,
        chains=chains,
        die_result=die_result,
        expertise_die=expertise_die,
        modifiers=tuple(modifiers),
        total=total,
        difficulty=check.difficulty,
        agony=check.agony,
        target=check.target,
        margin=margin,
        outcome=outcome,
        succeeded=succeeded,
        narrow_success=narrow,
        critical_failure_cancelled=cancelled,
        zone=is_zone(check, kept, chains),
    )


def roll_totals(check: Check, count: int, seed: int | None = None) -> list[int]:
    """Return `count` totals of `check`, from a seeded `random.Random` (or the OS if no seed)."""
    rng = random.Random(seed) if seed is not None else system_rng()
    return [roll_check(check, rng).total for _ in range(count)]
