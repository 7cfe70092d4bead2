"""`make bench`: run every benchmark script in this folder, then print one table of their figures.

Each script runs in turn (its own output is shown as it goes) with BENCH_JSON set to a file it
appends its figures to (bench/_report.py); the summary puts HTTP loads (req/s, p50, p99, their
throughput ratio to the floor of the same bench), timed jobs (seconds, queries) and the live
pages' delays (p50, p95, p99 from a roll's commit to the pages) side by side.
`python bench/run.py --markdown` prints the summary as a Markdown table (for bench/README.md). Rows
that measure one of the issues' targets (38's and 40's) show it and whether it was met
(bench/_targets.py); a missed target makes the run fail.
"""

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _targets import TARGETS_BY_ISSUE, figure, verdict

HERE = Path(__file__).resolve().parent
ORDER = ("sheet", "table", "push", "jobs", "odds")


def scripts() -> list[Path]:
    found = [p for p in HERE.glob("*.py") if p.name != "run.py" and not p.name.startswith("_")]
    rank = {name: index for index, name in enumerate(ORDER)}
    return sorted(found, key=lambda p: (rank.get(p.stem, len(ORDER)), p.stem))


def cells(row: dict, floors: dict[str, dict]) -> list[str]:
    if "rps" in row:
        ratio = figure(row, "ratio", floors)  # None for a floor
        errors = f" ({row['errors']} erreurs)" if row.get("errors") else ""
        return [
            row["name"] + errors,
            f"{row['rps']:.0f} req/s",
            f"{row['p50']:.1f} ms",
            f"{row['p99']:.1f} ms",
            "1 (plancher)" if ratio is None else f"{ratio:.3f}",
            "",
        ]
    if "pages" in row:
        return [row["name"], f"{row['pages']} pages", "", f"{row['ms']:.0f} ms", "", ""]
    if "skipped" in row:  # a live-pages step that could not be run (bench/push.py says why)
        return [f"{row['name']} (non mesuré : {row['skipped']})", "", "", "", "", ""]
    if "p95" in row:  # live pages: from a roll's commit to the pages' streams
        details = (
            f" ({row['rate']:.0f} jets/s sur {row['asked']:.0f} demandés, {row['lost']} perdus"
            f" sur {row['expected']}, {row['leaked']} montrés à tort, {row['kib']:.0f} Kio par page)"
        )
        return [
            row["name"] + details,
            f"p95 {row['p95']:.0f} ms",
            f"{row['p50']:.1f} ms",
            f"{row['p99']:.1f} ms",
            "",
            "",
        ]
    if "seconds" in row:
        value = f"{row['seconds']:.2f} s"
    else:
        value = f"{row['ms']:.3f} ms" if row["ms"] < 10 else f"{row['ms']:.0f} ms"
    queries = str(row["queries"]) if "queries" in row else ""
    return [row["name"], value, "", "", "", queries]


HEADER = [
    "mesure",
    "débit ou durée",
    "p50",
    "p99",
    "débit / plancher",
    "requêtes SQL",
    "cible",
    "état",
]
STATE = {None: "", True: "atteinte", False: "MANQUÉE"}


def floors_of(rows: list[dict]) -> dict[str, dict]:
    return {row["name"]: row for row in rows if "rps" in row and not row.get("floor")}


def table(rows: list[dict], markdown: bool) -> str:
    floors = floors_of(rows)
    lines = []
    for row in rows:
        target, met = verdict(row, floors)
        lines.append([*cells(row, floors), target, STATE[met]])
    if markdown:
        out = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
        out += ["| " + " | ".join(line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(line[i]) for line in [HEADER, *lines]) for i in range(len(HEADER))]
    fmt = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
    return "\n".join(fmt.format(*line) for line in [HEADER, *lines])


def machine() -> str:
    cores = os.cpu_count()
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f", {pages / 2**30:.0f} Gio"
    except (ValueError, OSError, AttributeError):
        memory = ""
    return (
        f"{cores} cœurs{memory}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )


def main() -> int:
    markdown = "--markdown" in sys.argv
    failed = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        figures = Path(folder) / "figures.jsonl"
        figures.touch()
        env = {**os.environ, "BENCH_JSON": str(figures)}
        for script in scripts():
            print(f"\n=== {script.stem} ===", flush=True)
            if subprocess.call([sys.executable, str(script)], cwd=HERE.parent, env=env):
                failed.append(script.stem)
        rows = [json.loads(line) for line in figures.read_text().splitlines() if line.strip()]
    print(f"\n=== résumé ({time.monotonic() - started:.0f} s ; {machine()}) ===")
    print(table(rows, markdown))
    floors = floors_of(rows)
    measured = {row["name"]: row for row in rows}
    short = False
    for issue, targets in TARGETS_BY_ISSUE.items():
        missed = [
            name for name in targets if name in measured and not verdict(measured[name], floors)[1]
        ]
        absent = sorted(set(targets) - set(measured))
        met = len(targets) - len(missed) - len(absent)
        print(f"Cibles de l'issue {issue} : {met} sur {len(targets)} atteintes.")
        for name in missed:
            print(f"  manquée : {name}")
        for name in absent:
            print(f"  non mesurée : {name}")
        short = short or bool(missed or absent)
    if short:
        failed.append("cibles")
    if failed:
        print(f"Bancs en échec ou cibles manquées : {', '.join(failed)}.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
