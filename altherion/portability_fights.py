"""The ids a fight writes inside its JSON values, rewritten for a campaign's backup file
(`altherion.portability`): the turn order, the pending and last blows, the fight's log lines
(their encounter, blows, summary and spells) — combatants, rolls and encounters alike.

A user's id in a blow or a cast (`by`, kept to answer a retried click) is dropped: it only
matters to a retry, which never crosses a backup. The import runs these rewrites once every row
exists (`after_import`), since an encounter's order names combatants read after it.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from altherion.portability_values import Remap
from sessions.models import Combatant, Encounter, Roll, TableEvent, TableEventKind

BLOW_IDS = {
    "attacker": Combatant,
    "target": Combatant,
    "riposte_for": Combatant,
    "roll": Roll,
    "defence_roll": Roll,
    "reply_roll": Roll,
}


def _ids(value: dict[str, Any], keys: dict[str, type[models.Model]], remap: Remap) -> dict:
    out = dict(value)
    for key, model in keys.items():
        if isinstance(out.get(key), int):
            out[key] = remap(model, out[key])
    if "by" in out:
        out["by"] = None
    return out


def blow(value: Any, remap: Remap) -> Any:
    """A pending or resolved blow (`Encounter.pending_attack`/`last_attack`, a log line's)."""
    if not isinstance(value, dict) or not value:
        return value
    out = _ids(value, BLOW_IDS, remap)
    if isinstance(out.get("attack"), dict):
        out["attack"] = _ids(out["attack"], BLOW_IDS, remap)
    return out


def order(value: Any, remap: Remap) -> Any:
    if not isinstance(value, list):
        return value
    return [
        {**slot, "combatant": remap(Combatant, slot["combatant"])}
        if isinstance(slot, dict) and isinstance(slot.get("combatant"), int)
        else slot
        for slot in value
    ]


def spell(value: Any, remap: Remap) -> Any:
    if not isinstance(value, dict):
        return value
    out = _ids(value, {"caster": Combatant}, remap)
    if isinstance(out.get("healing"), dict):
        out["healing"] = _ids(out["healing"], {"target": Combatant}, remap)
    if isinstance(out.get("rolls"), list):
        out["rolls"] = [
            _ids(r, {"id": Roll}, remap) if isinstance(r, dict) else r for r in out["rolls"]
        ]
    return out


def payload(value: Any, remap: Remap) -> Any:
    """A fight's log line: its encounter, and the blow, summary or spell it keeps."""
    if not isinstance(value, dict) or not isinstance(value.get("encounter"), int):
        return value
    out = {**value, "encounter": remap(Encounter, value["encounter"])}
    if "blow" in out:
        out["blow"] = blow(out["blow"], remap)
    if isinstance(out.get("summary"), list):
        out["summary"] = [
            _ids(row, {"combatant": Combatant}, remap) if isinstance(row, dict) else row
            for row in out["summary"]
        ]
    if "spell" in out:
        out["spell"] = spell(out["spell"], remap)
    return out


def fix_row(model: type[models.Model], row: dict[str, Any], remap: Remap) -> None:
    """Rewrite, in place, a file row's fight ids (export: database ids → the file's)."""
    if model is Encounter:
        row["order"] = order(row.get("order"), remap)
        for name in ("pending_attack", "last_attack"):
            row[name] = blow(row.get(name), remap)
    elif model is TableEvent and row.get("kind") == TableEventKind.COMBAT:
        row["payload"] = payload(row.get("payload"), remap)


def after_import(new_ids: dict[type[models.Model], dict[int, int]], held_by: dict) -> None:
    """Once every row exists: the imported fights' ids (still the file's) become the new rows'
    ids, and each hold finds its holder. `held_by` maps a new combatant id to its file holder."""

    def remap(model, local_id):
        return new_ids.get(model, {}).get(local_id)

    encounters = list(Encounter.objects.filter(pk__in=new_ids.get(Encounter, {}).values()))
    for encounter in encounters:
        encounter.order = order(encounter.order, remap)
        encounter.pending_attack = blow(encounter.pending_attack, remap)
        encounter.last_attack = blow(encounter.last_attack, remap)
    Encounter.objects.bulk_update(encounters, ["order", "pending_attack", "last_attack"])
    events = list(
        TableEvent.objects.filter(
            pk__in=new_ids.get(TableEvent, {}).values(), kind=TableEventKind.COMBAT
        )
    )
    for event in events:
        event.payload = payload(event.payload, remap)
    TableEvent.objects.bulk_update(events, ["payload"])
    holds = list(Combatant.objects.filter(pk__in=held_by))
    for combatant in holds:
        combatant.held_by_id = remap(Combatant, held_by[combatant.pk])
    Combatant.objects.bulk_update(holds, ["held_by"])
