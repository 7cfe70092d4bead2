"""Every public function and class of `rules/` has a caller in the app code (issue 13, item 10).

A rule the engine states but no page, service or task calls is a rule the game does not play. The
test walks every public module-level function and class of `rules/*.py` and looks for references
to it in the app code — every `.py` outside `rules/` and `tests/` (and `bench/`, whose
benchmarks time the engine but are not the game), read with `ast`: `from rules.x import name`,
`module_alias.name` after `from rules import x as module_alias` or `import rules.x`. It fails,
listing the uncalled ones, except:

- a module wired later by its issue (`WIRED_LATER_MODULES`; none now);
- a function or class whose docstring says why it is kept, in a line starting with "Kept:";
- `NOT_WIRED_YET`, each with a one-line comment: what wires it, or why nothing outside calls it.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
NOT_APP_CODE = {"rules", "tests", "bench", ".venv", "staticfiles", "var", "node_modules"}

# Every module is wired: rules/combat.py by sessions/combat/, rules/magic.py by
# sessions/combat/spells.py (issue 14 §5).
WIRED_LATER_MODULES: frozenset[str] = frozenset()

# Public names with no caller in the app, and why. "engine-internal": a step or result type of an
# engine function the app does call (public because its tests read it); the others are rules no
# page, service or task plays yet.
NOT_WIRED_YET: dict[str, str] = {
    "check.chain_starters": "engine-internal: a step of roll_check",
    "check.check_violations": "engine-internal: Check's own validation",
    "check.classify": "engine-internal: a step of roll_check",
    "check.is_zone": "engine-internal: a step of roll_check",
    "check.pool_advantage": "engine-internal: Check's pool size",
    "check.roll_totals": "no caller: seeded totals for a histogram no page shows (no item yet)",
    "cli.build_parser": "the `python -m rules` command line (rules/__main__.py), not the site",
    "cli.main": "the `python -m rules` command line (rules/__main__.py), not the site",
    "creation.CostLine": "engine-internal: the lines of CreationReport (characters/creation.py)",
    "creation.characteristic_maximum": "engine-internal: §1 maximum, checked by evaluate",
    "creation.language_cost": "engine-internal: the language lines of evaluate (the wizard's)",
    "ellipse.Advanced": "engine-internal: advance()'s result (progression/advances.py)",
    "ellipse.Completion": "engine-internal: advance()'s result (progression/advances.py)",
    "ellipse.EllipseRest": "engine-internal: ellipse_rest()'s result (progression/advances.py)",
    "ellipse.exhaustion_after_rest_days": "engine-internal: the minor-ellipse rest of ellipse_rest",
    "ellipse.threshold_reductions": "engine-internal: the Fragilité lowered by ellipse_rest",
    "errors.RuleViolation": "engine-internal: what RuleError carries (translated by services)",
    "errors.check_range": "engine-internal: used by sheet.play_violations",
    "experience.AwardLine": "engine-internal: the lines of award()'s Award",
    "experience.checklist_violations": "engine-internal: award() checks the checklist with it",
    "experience.opposition_level_for": "engine-internal: can_spend's opposition condition",
    "experience.improvement_maximum": "engine-internal: the caps raised() applies",
    "combat.Blow": "engine-internal: blow()'s result (sessions/combat/blows.py)",
    "gauges.full_gauge": "no caller: a gauge at its maximum; the sheet stores its own (no item)",
    "odds.Odds": "engine-internal: check_odds's result (characters/sheet.py, sessions)",
    "odds.TableRow": "engine-internal: odds_table's rows",
    "odds.clear_caches": "bench/odds.py's cold-cache timings; no app caller",
    "odds.die_result_mean": "engine-internal: used by the pool totals of check_odds",
    "odds.kept_die_distribution": "engine-internal: the kept die behind check_odds",
    "odds.odds_table": "bench/odds.py only: the sheet shows check_odds per roll (no item yet)",
    "reference.ChecklistItem": "engine-internal: rows of the checklist tables the app reads",
    "reference.HealingThreshold": (
        "engine-internal: rows of HEALING_THRESHOLDS, read by magic.healing_scar_complexity"
    ),
    "reference.Language": "engine-internal: rows of LANGUAGES, which the app reads",
    "reference.RestRank": "engine-internal: rows of REST_RANKS, which the app reads",
    "reference.language_by_name": "no caller: finding a language by name or alias (no item yet)",
    "rest.RestResult": "engine-internal: rest()'s result (characters/condition.py)",
    "rest.is_full_rest": "engine-internal: rest() says whether the rest was full with it",
    "rest.rank_points": "engine-internal: used by points_restored",
    "rest.rest_gauge": "engine-internal: rest() restores each gauge with it",
    "rest.shift_rank": "engine-internal: rank shifts inside rest() and rest_rank",
    "sheet.column_scores": "engine-internal: used by might, harmony and sheet_scores",
    "sheet.exaltation_bonus": "engine-internal: used by gauge_maximum",
    "sheet.language_violations": "engine-internal: used by play_violations and creation",
    "sheet.premice_violations": "engine-internal: used by Premices and play_violations",
    "sheet.score": "engine-internal: used by column_score and row_score",
    "states.add_exhaustion": "to wire: nothing at the table gives Épuisement yet (no item yet)",
    "states.agony_at_zero": "engine-internal: agony_after_hit's first Agonie point",
    "states.exhaustion_recovered": (
        "engine-internal: ellipse_rest's minor-ellipse rest (progression/advances.py)"
    ),
    "states.fortune_for_all": "to wire: the §5 despair option, 1 Fortune to every character (no item yet)",
}


def _rules_modules() -> list[str]:
    return sorted(p.stem for p in RULES.glob("*.py") if not p.stem.startswith("_"))


def public_definitions() -> dict[str, ast.AST]:
    """Every public module-level function and class of rules/*.py, as "module.name"."""
    found: dict[str, ast.AST] = {}
    for module in _rules_modules():
        tree = ast.parse((RULES / f"{module}.py").read_text(encoding="utf-8"))
        for node in tree.body:
            defines = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            if isinstance(node, defines) and not node.name.startswith("_"):
                found[f"{module}.{node.name}"] = node
    return found


def app_files() -> Iterator[Path]:
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] not in NOT_APP_CODE and not any(p.startswith(".") for p in parts):
            yield path


def _references(tree: ast.AST, modules: set[str]) -> set[str]:
    """The "module.name" of rules/ this file refers to."""
    aliases: dict[str, str] = {}  # local name → rules module
    dotted: set[str] = set()  # `import rules.x`: rules.x.name is spelt out
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "rules":
                for alias in node.names:
                    if alias.name in modules:
                        aliases[alias.asname or alias.name] = alias.name
            elif node.module.startswith("rules."):
                module = node.module.removeprefix("rules.")
                found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("rules."):
                    module = alias.name.removeprefix("rules.")
                    if alias.asname:
                        aliases[alias.asname] = module
                    else:
                        dotted.add(module)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in aliases:
            found.add(f"{aliases[owner.id]}.{node.attr}")
        elif (
            isinstance(owner, ast.Attribute)
            and isinstance(owner.value, ast.Name)
            and owner.value.id == "rules"
            and owner.attr in dotted
        ):
            found.add(f"{owner.attr}.{node.attr}")
    return found


def app_references() -> set[str]:
    modules = set(_rules_modules())
    found: set[str] = set()
    for path in app_files():
        found |= _references(ast.parse(path.read_text(encoding="utf-8")), modules)
    return found


def _kept(node: ast.AST) -> bool:
    doc = ast.get_docstring(node) or ""  # type: ignore[arg-type]
    return any(line.strip().startswith("Kept:") for line in doc.splitlines())


def uncalled() -> list[str]:
    """The public functions and classes of rules/ the app never refers to, minus the exceptions."""
    called = app_references()
    return sorted(
        name
        for name, node in public_definitions().items()
        if name not in called
        and name.split(".")[0] not in WIRED_LATER_MODULES
        and name not in NOT_WIRED_YET
        and not _kept(node)
    )


def test_every_public_rule_has_a_caller_in_the_app():
    missing = uncalled()
    assert not missing, (
        "These functions or classes of rules/ have no caller outside rules/ and tests/: wire "
        "them, or say why they are kept in their docstring (a line 'Kept: …'), or list them in "
        "NOT_WIRED_YET with the issue item that wires them:\n  " + "\n  ".join(missing)
    )


def test_the_exception_list_names_only_what_exists_and_is_still_uncalled():
    """An entry that is now called, or gone, is a stale excuse: remove it."""
    definitions = public_definitions()
    called = app_references()
    assert not [n for n in NOT_WIRED_YET if n not in definitions]
    assert not [n for n in NOT_WIRED_YET if n in called]
    assert all(reason.strip() for reason in NOT_WIRED_YET.values())


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from rules.states import end_state\n", {"states.end_state"}),
        ("from rules import states as s\ns.after_rest(c)\n", {"states.after_rest"}),
        ("from rules import states\nstates.end_state(c)\n", {"states.end_state"}),
        ("import rules.states\nrules.states.end_state(c)\n", {"states.end_state"}),
        ("import rules.states as s\ns.outlook(g)\n", {"states.outlook"}),
        ("end_state(c)\nx.end_state(c)\n", set()),  # a bare name is not a reference to rules
    ],
)
def test_references_are_read_from_imports_and_module_attributes(source, expected):
    assert _references(ast.parse(source), {"states"}) == expected


def test_a_kept_docstring_is_a_line_starting_with_kept():
    def kept():
        """Return nothing.

        Kept: the CLI's entry point."""

    def mentioned():
        """Return nothing; it is kept for later."""

    assert _kept(ast.parse(inspect.getsource(kept).strip()).body[0])
    assert not _kept(ast.parse(inspect.getsource(mentioned).strip()).body[0])
