"""The bridge between stored sheets and the rules engine: rows in, rules' frozen values out.

Nothing here decides a rule: it turns a `Character` (and its skill rows) into the engine's inputs
and returns what the engine computes. Every derived value on a page or in the API comes from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import reference
from rules.check import Check
from rules.odds import check_odds

try:  # the sheet math lands in rules/ in its own commit
    from rules import sheet as rules_sheet
except ImportError:  # pragma: no cover - transitional
    rules_sheet = None


def validate(character, *, skills=None, languages=None) -> None:
    """Raise rules.errors.RuleError if the sheet breaks a rule of play."""
    if rules_sheet is None:
        return


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
        )
    )
    return SkillOdds(odds.success, odds.critical_success, odds.critical_failure)


def characteristics(character) -> dict[str, int]:
    return {name: getattr(character, name) for name in reference.CHARACTERISTICS}


def derived(character) -> dict[str, Any]:
    """Every value the sheet shows but does not store."""
    return {}
