"""Bench of the exact odds engine (§5), side by side with icepool on the same sweep.

Run from the repository root: `.venv/bin/python bench/odds.py`. Prints the median time of one
check's exact distribution with caches cleared, and of a whole sheet's odds table (every rolled
skill of the reference list × complexity 0..10 at one difficulty), for `rules.odds` and for icepool.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.check import Check  # noqa: E402
from rules.odds import check_odds, clear_caches  # noqa: E402
from rules.reference import SKILLS  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import emit  # noqa: E402

ONE_CHECK_TARGET_MS = 0.2
SHEET_TARGET_MS = 10.0
SPEEDUP_TARGET = 10.0
DIFFICULTY = 12
CHARACTERISTIC = 4
# A plausible sheet: every skill of the reference list, levels spread over 0..10, some experts.
SHEET = [(skill.key, (3 * i) % 11, i % 4 == 0) for i, skill in enumerate(SKILLS)]
ONE_CHECK = Check(skill=5, complexity=3, characteristic=4, difficulty=12, expertise=True)
HEAVY_CHECK = Check(skill=10, complexity=0, characteristic=4, difficulty=12, expertise=True)
# The largest tabled pool: |a| = 20 gives 21 dice, here keep the lowest.
WORST_CHECK = Check(skill=0, complexity=20, characteristic=4, difficulty=12, expertise=True)


def sheet_checks() -> list[Check]:
    return [
        Check(
            skill=level,
            complexity=complexity,
            characteristic=CHARACTERISTIC,
            difficulty=DIFFICULTY,
            expertise=expert,
        )
        for _, level, expert in SHEET
        for complexity in range(11)
    ]


def median_ms(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


# The chain table is built when rules.odds is imported: timed in a fresh interpreter, with the
# modules it imports already loaded, so that the figure is the engine's own import.
IMPORT_ODDS = (
    "import time, bisect, dataclasses, functools, itertools, math, rules.check;"
    "start = time.perf_counter(); import rules.odds; print(time.perf_counter() - start)"
)


def odds_import_ms(repeat: int) -> float:
    """Median ms of importing rules.odds (its chain table included) in a new process."""
    root = Path(__file__).resolve().parents[1]
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", IMPORT_ODDS],
                cwd=root,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for _ in range(repeat)
    ]
    return 1000 * statistics.median(times)


def one_check_cold(check: Check) -> None:
    clear_caches()
    check_odds(check)


def our_sheet() -> list[float]:
    clear_caches()  # the whole sheet from scratch, one check at a time as the pages ask
    return [check_odds(check).success for check in sheet_checks()]


def icepool_pool(n: int, high: bool, expertise: bool, depth: int = 12):
    """The same pool in icepool: kept die, every 10 (or 1) chaining, expertise die."""
    import icepool

    chain = icepool.d10.explode(depth=depth)  # 0.1^12 of the mass is truncated
    counts = icepool.Die({j: comb(n, j) * 9 ** (n - j) for j in range(1, n + 1)})
    if high:
        rest = icepool.d9.highest(n).map(lambda k: k if k >= 2 else 1 - chain)
        special = counts.map(lambda j: 10 + j @ chain)
    else:
        rest = (icepool.d9 + 1).lowest(n).map(lambda k: 10 + chain if k == 10 else k)
        special = counts.map(lambda j: 1 - j @ chain)
    result = icepool.Die([rest, special], times=[9**n, 10**n - 9**n])
    return result + icepool.d10 if expertise else result


def icepool_sheet() -> list[float]:
    pools = {}  # same sharing as our engine: one distribution per distinct pool
    out = []
    for check in sheet_checks():
        key = (check.dice_count, check.keep_highest, check.expertise)
        if key not in pools:
            pools[key] = icepool_pool(*key)
        die = pools[key]
        out.append(float(die.probability(">=", check.target - check.modifier)))
    return out


def mark(ok: bool) -> str:
    return "atteint" if ok else "MANQUÉ"


def main() -> int:
    try:
        import icepool  # noqa: F401
    except ImportError:
        print("icepool n'est pas installé (dépendance de développement).")
        return 1
    one = median_ms(lambda: one_check_cold(ONE_CHECK), 301)
    heavy = median_ms(lambda: one_check_cold(HEAVY_CHECK), 101)
    worst = median_ms(lambda: one_check_cold(WORST_CHECK), 101)
    table = odds_import_ms(11)
    ours = median_ms(our_sheet, 21)
    theirs = median_ms(icepool_sheet, 3)
    ours_values, theirs_values = our_sheet(), icepool_sheet()
    gap = max(abs(a - b) for a, b in zip(ours_values, theirs_values, strict=True))
    ratio = theirs / ours
    rows = [
        (
            "un jet, caches vidés (5 vs 3, expert)",
            f"{one:.3f} ms",
            "",
            f"< {ONE_CHECK_TARGET_MS} ms",
            mark(one < ONE_CHECK_TARGET_MS),
        ),
        ("un jet, caches vidés (11 dés, expert)", f"{heavy:.3f} ms", "", "(information)", ""),
        (
            f"un jet, caches vidés ({WORST_CHECK.dice_count} dés, expert)",
            f"{worst:.3f} ms",
            "",
            "(information)",
            "",
        ),
        ("import de rules.odds (table des chaînes)", f"{table:.2f} ms", "", "(information)", ""),
        (
            f"feuille : {len(SHEET)} compétences × 11",
            f"{ours:.2f} ms",
            f"{theirs:.0f} ms",
            f"< {SHEET_TARGET_MS} ms",
            mark(ours < SHEET_TARGET_MS),
        ),
        (
            "rapport icepool / rules",
            f"×{ratio:.0f}",
            "",
            f"≥ ×{SPEEDUP_TARGET:.0f}",
            mark(ratio >= SPEEDUP_TARGET),
        ),
    ]
    emit(
        {"name": "moteur de chances : un jet (caches vidés)", "ms": one},
        {"name": f"moteur de chances : un jet de {WORST_CHECK.dice_count} dés", "ms": worst},
        {"name": f"moteur de chances : feuille entière ({len(SHEET)} × 11)", "ms": ours},
        {"name": "icepool : la même feuille", "ms": theirs},
    )
    print(f"{'mesure (médiane)':40} {'rules':>10} {'icepool':>10} {'cible':>12}  état")
    for label, a, b, target, state in rows:
        print(f"{label:40} {a:>10} {b:>10} {target:>12}  {state}")
    print(f"écart maximal de P(réussite) entre les deux moteurs : {gap:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
