"""Issue 38's targets, by the summary row that measures each (bench/run.py prints them beside the
figures, so a run says by itself which targets it met)."""

from __future__ import annotations

import operator

ISSUE = 38
# row name: (figure, comparison, value). The open pages' row counts only the steps whose polls
# kept their p99 within 250 ms (bench/table.py), so its target holds both numbers.
TARGETS = {
    "page de la fiche": ("ratio", ">=", 0.4),
    "API : détail de la fiche": ("ratio", ">=", 0.5),
    "création d'un jet (API, 8 clients)": ("ratio", ">=", 0.3),
    "pages de table ouvertes tenues (p99 du poll ≤ 250 ms)": ("pages", ">=", 500),
}
COMPARE = {">=": operator.ge, "<=": operator.le}
SIGN = {">=": "≥", "<=": "≤"}
UNIT = {"ratio": "", "ms": " ms", "queries": " requêtes", "pages": " pages"}


def figure(row: dict, name: str, floors: dict[str, dict]) -> float | None:
    """The row's figure the target compares: a throughput ratio comes from the row when it was
    measured in rounds, else from the floor of its bench."""
    if name != "ratio":
        return row.get(name)
    if "ratio" in row:
        return row["ratio"]
    floor = floors.get(row.get("floor") or "")
    return row["rps"] / floor["rps"] if floor else None


def verdict(row: dict, floors: dict[str, dict]) -> tuple[str, bool | None]:
    """(the target as text, met or not); ("", None) for a row without a target."""
    if row["name"] not in TARGETS:
        return "", None
    name, comparison, value = TARGETS[row["name"]]
    text = f"{SIGN[comparison]} {value:g}{UNIT[name]}"
    measured = figure(row, name, floors)
    return text, measured is not None and COMPARE[comparison](measured, value)
