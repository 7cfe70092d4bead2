"""`make bench`'s summary says, row by row, which of issue 15's targets the run met."""

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def run():
    sys.path.insert(0, str(BENCH))
    try:
        import run as bench_run

        yield bench_run
    finally:
        sys.path.remove(str(BENCH))


FLOOR = {"name": "plancher (50 clients)", "rps": 1000.0, "p50": 40.0, "p99": 50.0, "errors": 0}


def roll(rps):
    return {
        "name": "création d'un jet (API, 8 clients)",
        "floor": FLOOR["name"],
        **{"rps": rps, "p50": 16.0, "p99": 27.0, "errors": 0},
    }


def test_a_roll_at_less_than_four_tenths_of_its_floor_is_shown_missed(run):
    lines = run.table([FLOOR, roll(399.0)], markdown=True).splitlines()

    assert lines[0].endswith("| cible | état |")
    assert lines[2].endswith("| 1 (plancher) |  |  |  |")  # a floor has no target
    assert lines[-1].endswith("| 0.399 |  | ≥ 0.4 | MANQUÉE |")


def test_a_roll_at_four_tenths_of_its_floor_is_shown_met(run):
    lines = run.table([FLOOR, roll(400.0)], markdown=True).splitlines()

    assert lines[-1].endswith("| 0.400 |  | ≥ 0.4 | atteinte |")


def test_a_ratio_measured_in_rounds_is_judged_on_its_rounds_not_the_last_floor(run):
    sheet = {"name": "page de la fiche", "floor": FLOOR["name"], "rps": 600.0, "ratio": 0.45}
    sheet |= {"p50": 9.0, "p99": 15.0, "errors": 0}

    assert run.verdict(sheet, run.floors_of([FLOOR])) == ("≥ 0.5", False)


def test_a_table_page_over_25_ms_of_cpu_is_missed_and_a_row_without_target_has_none(run):
    page = {"name": "page de la table, Conteur (en processus)", "ms": 25.5, "queries": 8}
    odds = {"name": "moteur de chances : un jet de 21 dés", "ms": 0.05}

    assert run.verdict(page, {}) == ("≤ 25 ms", False)
    assert run.verdict(odds, {}) == ("", None)
