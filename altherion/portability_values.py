"""The ids a campaign writes inside its text and JSON values (ledger source keys like
"arc:<id>", notification keys and links, an award's checklist, a table event's injury…),
rewritten for a backup file (`altherion.portability`) through its file-local id mapping."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.db import models
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from campaigns.models import Arc, Campaign, Notification, Species
from characters.models import Character, CharacterChange
from progression.models import Advance, ArcAward, Ellipse, Training, XpEntry
from sessions.models import Injury, TableEvent

Remap = Callable[[type[models.Model], Any], Any]

_KEY_PATTERNS: tuple[tuple[re.Pattern, tuple[type[models.Model] | None, ...]], ...] = (
    # XP ledger source keys and notification keys (progression/awards.py, progression/ellipses.py).
    (re.compile(r"^arc:(\d+)((?::correction:\d+)?)$"), (Arc, None)),
    (re.compile(r"^arc:(\d+)((?::correction:\d+)?):done$"), (Arc, None)),
    (re.compile(r"^arc:(\d+)((?::correction:\d+)?):(\d+)$"), (Arc, None, Character)),
    (re.compile(r"^training:(\d+)((?::refused|:done)?)$"), (Training, None)),
    (re.compile(r"^ellipse:(\d+):xp$"), (Ellipse,)),
    (re.compile(r"^ellipse:(\d+):end:(\d+)$"), (Ellipse, Character)),
    (re.compile(r"^deadline:(\d+)$"), (Ellipse,)),
)

_LINK_KWARGS: dict[str, type[models.Model]] = {
    "pk": Campaign,
    "campaign_pk": Campaign,
    "character_pk": Character,
    "arc_pk": Arc,
    "ellipse_pk": Ellipse,
    "training_pk": Training,
}


def _remap_key(key: str, remap: Remap) -> str:
    """Rewrite the ids inside a key like "arc:12:correction:2:40"; other keys are kept."""
    for pattern, kinds in _KEY_PATTERNS:
        match = pattern.match(key)
        if match is None:
            continue
        groups = list(match.groups())
        new = []
        for value, model in zip(groups, kinds, strict=True):
            if model is None:
                new.append(value)
                continue
            mapped = remap(model, int(value))
            if mapped is None:
                return key
            new.append(str(mapped))
        parts, last = [], 0
        for index, value in enumerate(new, start=1):
            parts += [key[last : match.start(index)], value]
            last = match.end(index)
        return "".join(parts) + key[last:]
    return key


def _remap_link(link: str, remap: Remap) -> str:
    if not link:
        return link
    try:
        match = resolve(link)
    except Resolver404:
        return link
    kwargs = {}
    for name, value in match.kwargs.items():
        model = _LINK_KWARGS.get(name)
        mapped = remap(model, int(value)) if model is not None else value
        if mapped is None:
            return link
        kwargs[name] = mapped
    try:
        return reverse(match.view_name, kwargs=kwargs)
    except NoReverseMatch:
        return link


def _remap_id_keys(mapping: Any, model: type[models.Model], remap: Remap) -> Any:
    """{"<id>": value} with the ids remapped (a key with no match is kept)."""
    if not isinstance(mapping, dict):
        return mapping
    result = {}
    for key, value in mapping.items():
        mapped = remap(model, int(key)) if str(key).isdigit() else None
        result[str(mapped) if mapped is not None else key] = value
    return result


def fix_values(model: type[models.Model], row: dict[str, Any], remap: Remap) -> None:
    """Rewrite, in place, the ids this model writes inside its text and JSON values."""
    if model is ArcAward:
        checklist = row.get("checklist")
        if isinstance(checklist, dict) and "characters" in checklist:
            row["checklist"] = {
                **checklist,
                "characters": _remap_id_keys(checklist["characters"], Character, remap),
            }
        summary = row.get("summary")
        if isinstance(summary, list):
            row["summary"] = [
                {**line, "character": remap(Character, line["character"])}
                if isinstance(line, dict) and isinstance(line.get("character"), int)
                else line
                for line in summary
            ]
    elif model is Ellipse:
        row["xp_trainers"] = _remap_id_keys(row.get("xp_trainers"), Character, remap)
    elif model is XpEntry:
        row["source_key"] = _remap_key(row["source_key"], remap)
    elif model is Advance:
        row["key"] = _remap_key(row["key"], remap)
    elif model is Notification:
        row["key"] = _remap_key(row["key"], remap)
        row["link"] = _remap_link(row.get("link", ""), remap)
    elif model is TableEvent:
        payload = row.get("payload")
        if isinstance(payload, dict) and isinstance(payload.get("injury"), int):
            row["payload"] = {**payload, "injury": remap(Injury, payload["injury"])}
    elif model is CharacterChange and row.get("field") == "species":
        for side in ("old_value", "new_value"):
            value = row.get(side)
            if isinstance(value, dict) and isinstance(value.get("id"), int):
                row[side] = {**value, "id": remap(Species, value["id"])}
