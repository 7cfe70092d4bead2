"""Command line for Conteurs and scripts: `python -m rules odds|roll …` (§5), and
`python -m rules readings` (the Markdown of docs/rules.md)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence

from rules.check import OUTCOME_LABELS, Check, roll_check, roll_totals, system_rng
from rules.errors import RuleError
from rules.odds import check_odds
from rules.readings import document


def _add_check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--skill", type=int, required=True, help="niveau de compétence")
    parser.add_argument("--complexity", type=int, required=True, help="complexité")
    parser.add_argument("--characteristic", type=int, required=True, help="caractéristique")
    parser.add_argument("--difficulty", type=int, required=True, help="difficulté")
    parser.add_argument("--expertise", action="store_true", help="le personnage est expert")
    parser.add_argument("--boon", type=int, default=0, help="dés de surpuissance")
    parser.add_argument("--bane", type=int, default=0, help="dés d'impuissance")
    parser.add_argument("--hope", type=int, default=0, help="points d'espoir dépensés (+1)")
    parser.add_argument("--agony", type=int, default=0, help="points d'Agonie")
    parser.add_argument("--json", action="store_true", help="sortie JSON")


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of `python -m rules`."""
    parser = argparse.ArgumentParser(prog="python -m rules", description="Jets d'Altherion.")
    commands = parser.add_subparsers(dest="command", required=True)
    odds = commands.add_parser("odds", help="probabilités exactes d'un jet")
    _add_check_arguments(odds)
    roll = commands.add_parser("roll", help="lancer un jet")
    _add_check_arguments(roll)
    roll.add_argument("--seed", type=int, default=None, help="graine (tests, reproductibilité)")
    roll.add_argument("--count", type=int, default=1, help="nombre de jets")
    commands.add_parser("readings", help="les lectures des règles (docs/rules.md)")
    return parser


def _check_from(args: argparse.Namespace) -> Check:
    return Check(
        skill=args.skill,
        complexity=args.complexity,
        characteristic=args.characteristic,
        difficulty=args.difficulty,
        expertise=args.expertise,
        boon=args.boon,
        bane=args.bane,
        hope=args.hope,
        agony=args.agony,
    )


def _percent(p: float) -> str:
    return f"{100 * p:.4f} %".replace(".", ",")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code (2 on invalid inputs)."""
    args = build_parser().parse_args(argv)
    if args.command == "readings":
        sys.stdout.write(document())
        return 0
    try:
        check = _check_from(args)
    except RuleError as error:
        for violation in error.violations:
            print(f"{violation.field} : {violation.message}", file=sys.stderr)
        return 2
    out = sys.stdout
    if args.command == "odds":
        odds = check_odds(check)
        if args.json:
            json.dump(odds.to_dict(), out)
            out.write("\n")
        else:
            out.write(f"Réussite : {_percent(odds.success)}\n")
            out.write(f"Réussite critique : {_percent(odds.critical_success)}\n")
            out.write(f"Échec critique : {_percent(odds.critical_failure)}\n")
            out.write(f"Moyenne : {odds.mean:.4f}\n".replace(".", ","))
        return 0
    if args.count < 0:
        print("count : Le nombre de jets ne peut pas être négatif.", file=sys.stderr)
        return 2
    if not args.json:
        out.writelines(f"{total}\n" for total in roll_totals(check, args.count, args.seed))
        return 0
    rng = random.Random(args.seed) if args.seed is not None else system_rng()
    for _ in range(args.count):
        out.write(json.dumps(roll_check(check, rng).to_dict(), ensure_ascii=False) + "\n")
    return 0


__all__ = ["OUTCOME_LABELS", "build_parser", "main"]
