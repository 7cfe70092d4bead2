"""Machine-readable figures for `bench/run.py`: each bench appends its rows as JSON lines to the
file named by BENCH_JSON (when set); run alone, a bench only prints its own table."""

from __future__ import annotations

import json
import os


def emit(*rows: dict) -> None:
    """One row: name; for HTTP loads rps, p50, p99 (ms), errors and floor (the floor row's name,
    or None for a floor); for timings seconds or ms, and queries when they were counted."""
    path = os.environ.get("BENCH_JSON")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as file:
        for row in rows:
            file.write(json.dumps(row) + "\n")
