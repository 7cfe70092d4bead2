"""The issues' targets, by the summary row that measures each (bench/run.py prints them beside
the figures, so a run says by itself which targets it met): issue 38's (plain Django) and issue
40's (live pages by push)."""

from __future__ import annotations

import operator

# row name: (figure, comparison, value), or several such that must all hold. The open pages' row
# counts only the steps whose polls kept their p99 within 250 ms (bench/table.py), so its target
# holds both numbers; the push row's p95 is over every (roll, page that may see it) pair, its lost
# and leaked counts are those of the same step, and it holds only at the rate the issue asks (one
# roll a second per table): a driver that could not keep up measured an easier load
# (bench/push.py).
TARGETS_BY_ISSUE: dict[int, dict[str, tuple]] = {
    38: {
        "page de la fiche": ("ratio", ">=", 0.4),
        "API : détail de la fiche": ("ratio", ">=", 0.5),
        "création d'un jet (API, 8 clients)": ("ratio", ">=", 0.3),
        # Held by push since issue 40 (the issue allowed it: bench/push.py's step figures).
        "pages de table ouvertes tenues (flux en direct, p99 ≤ 250 ms)": ("pages", ">=", 500),
    },
    40: {
        "flux en direct : 2000 pages ouvertes (jet commis → page)": (
            ("p95", "<=", 250),
            ("lost", "==", 0),
            ("leaked", "==", 0),
            ("rate_share", ">=", 0.95),
        ),
    },
}
TARGETS = {
    name: target for targets in TARGETS_BY_ISSUE.values() for name, target in targets.items()
}
COMPARE = {">=": operator.ge, "<=": operator.le, "==": operator.eq}
SIGN = {">=": "≥", "<=": "≤", "==": "="}
UNIT = {"ratio": "", "ms": " ms", "queries": " requêtes", "pages": " pages", "p95": " ms"}
LABEL = {
    "p95": "p95 ",
    "lost": "perdus ",
    "leaked": "montrés à tort ",
    "rate_share": "jets tenus / demandés ",
}


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
    """(the target as text, met or not); ("", None) for a row without a target. A row with
    several targets meets them only if it meets each; a figure the row lacks is not met."""
    if row["name"] not in TARGETS:
        return "", None
    target = TARGETS[row["name"]]
    parts = target if isinstance(target[0], tuple) else (target,)
    texts, met = [], True
    for name, comparison, value in parts:
        texts.append(f"{LABEL.get(name, '')}{SIGN[comparison]} {value:g}{UNIT.get(name, '')}")
        measured = figure(row, name, floors)
        met = met and measured is not None and COMPARE[comparison](measured, value)
    return ", ".join(texts), met
