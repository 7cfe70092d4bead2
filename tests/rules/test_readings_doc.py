"""docs/rules.md is generated from rules/readings.py (issue 39 §5): every reading with its §
and its target's docstring, kept in sync."""

from pathlib import Path

from rules.cli import main
from rules.readings import READINGS, document

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_docs_rules_md_is_the_generated_page():
    assert DOC.read_text(encoding="utf-8") == document(), (
        "docs/rules.md is out of date: run `make docs` (python -m rules readings > docs/rules.md)"
    )


def test_every_reading_is_listed_under_its_section_with_its_docstring():
    page = document()
    for section, title, target in READINGS:
        assert f"### {title}\n\n`{target}`" in page
        assert f"## {section}\n" in page
    assert "> Reading (§13): only a gauge the combatant regenerates can be forced" in page


def test_the_command_line_prints_the_page(capsys):
    assert main(["readings"]) == 0
    assert capsys.readouterr().out == document()
