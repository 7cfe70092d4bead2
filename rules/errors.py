"""The engine's one error type: a rule broken, tied to a field, explained in French."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class RuleViolation:
    """One broken rule: the input field at fault and a French sentence for the player."""

    field: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


class RuleError(ValueError):
    """Raised when inputs break the rules; carries every violation found, not just the first."""

    def __init__(self, violations: Iterable[RuleViolation]):
        self.violations: tuple[RuleViolation, ...] = tuple(violations)
        super().__init__(" ".join(v.message for v in self.violations))

    @classmethod
    def single(cls, field: str, message: str) -> RuleError:
        return cls([RuleViolation(field, message)])


def raise_if(violations: list[RuleViolation]) -> None:
    """Raise a RuleError carrying `violations` if there are any; return None otherwise."""
    if violations:
        raise RuleError(violations)


def check_range(
    violations: list[RuleViolation], field: str, label: str, value: int, low: int, high: int | None
) -> None:
    """Append a French violation if `value` lies outside low..high (high None = no upper bound)."""
    if value < low:
        violations.append(RuleViolation(field, f"{label} ne peut être inférieur(e) à {low}."))
    elif high is not None and value > high:
        violations.append(RuleViolation(field, f"{label} ne peut dépasser {high}."))
