"""A fight's closing summary (issue 14 §7): damage dealt and taken, criticals suffered and the
defeated, counted from the blows its log lines keep (`payload["blow"]`).

Each member reads the truth they may see: the public summary line counts every blow for the
visible combatants and names no hidden NPC; when hidden NPCs fought, the Conteur's hidden line
has the whole.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.reference import GAUGES
from sessions.models import Combatant, CombatantStatus, Encounter, TableEvent, TableEventKind

DOWN = (CombatantStatus.DEFEATED, CombatantStatus.UNCONSCIOUS, CombatantStatus.DEAD)


@dataclass
class Tally:
    combatant: int
    name: str
    dealt: int = 0
    taken: int = 0
    criticals: int = 0  # Aggravation levels suffered from criticals
    down: bool = False


def blows_of(encounter: Encounter) -> list[tuple[str, dict[str, Any]]]:
    """(visibility, blow figures) of every blow of the fight, in the order they landed."""
    events = TableEvent.objects.filter(
        campaign_id=encounter.campaign_id,
        kind=TableEventKind.COMBAT,
        payload__encounter=encounter.pk,
        payload__has_key="blow",
    ).order_by("pk")
    return [(e.visibility, e.payload["blow"]) for e in events]


def tallies(
    combatants: list[Combatant], blows: list[dict[str, Any]], *, with_hidden: bool
) -> list[Tally]:
    """Each combatant's figures from `blows`, hidden NPCs left out unless `with_hidden`."""
    shown = {c.pk: c for c in combatants if with_hidden or not c.hidden}
    rows = {pk: Tally(pk, c.name, down=c.status in DOWN) for pk, c in shown.items()}
    for blow in blows:
        attacker, target = rows.get(blow["attacker"]), rows.get(blow["target"])
        suffered = blow.get("aggravation") or {}
        if attacker is not None:
            attacker.dealt += blow["damage"]
            attacker.taken += blow["reply_damage"]
            attacker.criticals += suffered.get("attacker", 0)
        if target is not None:
            target.taken += blow["damage"]
            target.dealt += blow["reply_damage"]
            target.criticals += suffered.get("defender", 0)
    return list(rows.values())


def summary_text(name: str, rows: list[Tally]) -> str:
    """« Bilan du combat « X » : Aelis inflige 12 et reçoit 3, 1 critique subi ; … Vaincus : … »"""
    parts = []
    for row in rows:
        text = _("%(name)s inflige %(dealt)d et reçoit %(taken)d") % asdict(row)
        if row.criticals:
            text += ngettext(", %(n)d critique subi", ", %(n)d critiques subis", row.criticals) % {
                "n": row.criticals
            }
        parts.append(text)
    line = _("Bilan du combat « %(name)s » : %(rows)s.") % {
        "name": name,
        "rows": " ; ".join(parts) if parts else _("aucun coup porté"),
    }
    if down := [row.name for row in rows if row.down]:
        line += " " + _("Hors de combat : %(names)s.") % {"names": ", ".join(down)}
    return line


def closing_lines(encounter: Encounter, combatants: list[Combatant]) -> dict[str, Any]:
    """The public summary, and the Conteur's whole one when hidden NPCs fought, with the figures
    kept in the log line's payload (the API's log reads them)."""
    blows = blows_of(encounter)
    # A player may see what the visible combatants dealt and took, whoever the other side was
    # (« une attaque »): every blow counts, only the hidden NPCs' own rows are left out.
    public_blows = [b for visibility, b in blows if visibility == "public"]
    public = tallies(combatants, [b for _v, b in blows], with_hidden=False)
    result = {"public": summary_text(encounter.name, public), "public_rows": public}
    if any(c.hidden for c in combatants) or len(public_blows) < len(blows):
        whole = tallies(combatants, [b for _v, b in blows], with_hidden=True)
        result["hidden"] = _("Conteur : %(line)s") % {"line": summary_text(encounter.name, whole)}
        result["hidden_rows"] = whole
    return result


def rows_payload(rows: list[Tally]) -> list[dict[str, Any]]:
    return [asdict(row) for row in rows]


# --- the API's typed summary (issue 39 §4) -----------------------------------------------------


@dataclass
class FighterSummary:
    combatant: int
    name: str
    status: str
    dealt: int = 0
    taken: int = 0
    criticals: int = 0
    taken_by_gauge: dict[str, int] = field(default_factory=dict)


@dataclass
class FightSummary:
    encounter: Encounter
    combatants: list[FighterSummary]
    blows: list[dict[str, Any]]  # attacker/target None: a hidden NPC, for a player


def fight_summary(
    encounter: Encounter, combatants: list[Combatant], *, storyteller: bool
) -> FightSummary:
    """Who hit whom, the damage per gauge and the states, as this member may see them: a
    player reads every blow on or by a visible combatant, a hidden NPC in it unnamed (None)."""
    shown = {c.pk: c for c in combatants if storyteller or not c.hidden}
    rows = {
        pk: FighterSummary(pk, c.name, c.status, taken_by_gauge=dict.fromkeys(GAUGES, 0))
        for pk, c in shown.items()
    }
    blows = []
    for round_, blow in blows_with_rounds(encounter):
        attacker, target = rows.get(blow["attacker"]), rows.get(blow["target"])
        if attacker is None and target is None:
            continue
        gauge = blow.get("gauge", "vitality")
        suffered = blow.get("aggravation") or {}
        if attacker is not None:
            attacker.dealt += blow["damage"]
            attacker.taken += blow["reply_damage"]
            attacker.taken_by_gauge[gauge] += blow["reply_damage"]
            attacker.criticals += suffered.get("attacker", 0)
        if target is not None:
            target.taken += blow["damage"]
            target.taken_by_gauge[gauge] += blow["damage"]
            target.dealt += blow["reply_damage"]
            target.criticals += suffered.get("defender", 0)
        blows.append(
            {
                "round": round_,
                "attacker": attacker.combatant if attacker else None,
                "target": target.combatant if target else None,
                "gauge": gauge,
                "damage": blow["damage"],
                "reply_damage": blow["reply_damage"],
                "aggravation": {
                    "attacker": suffered.get("attacker", 0) if attacker else 0,
                    "defender": suffered.get("defender", 0) if target else 0,
                },
            }
        )
    return FightSummary(encounter, list(rows.values()), blows)


def blows_with_rounds(encounter: Encounter) -> list[tuple[int, dict[str, Any]]]:
    events = TableEvent.objects.filter(
        campaign_id=encounter.campaign_id,
        kind=TableEventKind.COMBAT,
        payload__encounter=encounter.pk,
        payload__has_key="blow",
    ).order_by("pk")
    return [(e.payload.get("round", 0), e.payload["blow"]) for e in events]
