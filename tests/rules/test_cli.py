"""`python -m rules odds|roll` — the command line for Conteurs and scripts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.check import Check, roll_totals
from rules.cli import main
from rules.odds import check_odds

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--skill", "4", "--complexity", "2", "--characteristic", "3", "--difficulty", "11"]


def test_odds_json_has_the_specified_keys(capsys):
    assert main(["odds", *ARGS, "--expertise", "--boon", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = check_odds(Check(4, 2, 3, 11, expertise=True, boon=1))
    assert set(data) == {"success", "critical_success", "critical_failure", "mean", "distribution"}
    assert data["success"] == pytest.approx(expected.success)
    assert data["distribution"][str(expected.lowest + 5)] == pytest.approx(
        expected.probabilities[5]
    )
    assert sum(data["distribution"].values()) == pytest.approx(1, abs=1e-12)


def test_odds_human_output_is_french(capsys):
    assert main(["odds", *ARGS, "--hope", "1", "--agony", "2"]) == 0
    out = capsys.readouterr().out
    assert "Réussite :" in out and "Échec critique :" in out


def test_roll_prints_one_total_per_line_reproducibly(capsys):
    assert main(["roll", *ARGS, "--seed", "5", "--count", "4"]) == 0
    lines = capsys.readouterr().out.split()
    assert [int(x) for x in lines] == roll_totals(Check(4, 2, 3, 11), 4, seed=5)


def test_roll_json_prints_one_breakdown_per_line(capsys):
    assert main(["roll", *ARGS, "--seed", "5", "--count", "2", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2
    assert [r["total"] for r in rows] == roll_totals(Check(4, 2, 3, 11), 2, seed=5)


def test_invalid_input_exits_2_with_a_french_message(capsys):
    assert main(["odds", *ARGS, "--bane", "-1"]) == 2
    assert "ne peut pas être négatif" in capsys.readouterr().err


def test_module_entry_point_runs():
    done = subprocess.run(
        [sys.executable, "-m", "rules", "roll", *ARGS, "--seed", "1", "--count", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(done.stdout.split()) == 3


def test_a_skill_above_ten_exits_2_with_a_french_message(capsys):
    """RULES.md §2: skill levels 0..10 — the CLI refuses what the engine refuses."""
    args = ["--skill", "11", "--complexity", "0", "--characteristic", "3", "--difficulty", "6"]
    assert main(["odds", *args]) == 2
    assert "de 0 à 10" in capsys.readouterr().err
