"""Each table log row rendered once per view of it, not once per open page (issue 15).

A new roll reaches every page that polls the table; without this, each of them renders the same
row again (~1 ms each, the node's main cost with 100 pages open). A row looks the same to every
viewer of one kind: the players (their visibility is already filtered by the query) or the
Conteur (with the consequence controls still open and the group they name). It is kept in the
shared cache under what it shows — the event, the roller's sheet version (its name), the roll's
consequences, the controls offered, the language and the release — and its CSRF tokens are put
in per request, as the sheet page does. The poll names its rows from its one statement's columns
(`cached_rows`, no event loaded): a page after the first of its kind costs an idle poll and one
cache read.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from characters.page_cache import CSRF_PLACEHOLDER, RELEASE
from common import content_cache
from sessions.consequences import consequences_available
from sessions.models import TableEventKind

TIMEOUT = 6 * 3600
ROW_TEMPLATE = "sessions/_roll_row.html"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def row_key(
    *,
    event_id: int,
    storyteller: bool,
    character_version: int | None,
    consequences: list[str] | None,
    available: list[str],
    group: list,
) -> str:
    """The cache key of one row under what it shows: `consequences` is None for an entry without
    a roll, `character_version` None for one without a character."""
    shown = [
        RELEASE,
        get_language(),
        "storyteller" if storyteller else "player",
        "-" if character_version is None else character_version,
        "-" if consequences is None else ",".join(consequences),
        ",".join(available),
    ]
    if available:  # the victim list of a critical names the group
        shown.append(";".join(f"{c.pk}:{c.name}" for c in group))
    return f"table-row:{event_id}:{_digest('|'.join(str(part) for part in shown))}"


def event_key(event, *, storyteller: bool, group: list) -> str:
    """`row_key` of a loaded event (decorated with `.available`)."""
    return row_key(
        event_id=event.pk,
        storyteller=storyteller,
        character_version=event.character.version if event.character_id else None,
        consequences=event.roll.consequences if event.roll is not None else None,
        available=event.available,
        group=group,
    )


def _controls(entry, storyteller: bool) -> list[str]:
    """The consequence controls the row of a new entry offers (`sessions.views.decorate`)."""
    if storyteller and entry.roll is not None and entry.kind == TableEventKind.ROLL:
        return consequences_available(entry.roll)
    return []


def cached_rows(request, entries: list, *, storyteller: bool, group_of) -> SafeString | None:
    """The poll's rows for `entries` (sessions.selectors.NewEntry, oldest first), newest first,
    all from the cache; `group_of()` gives the group, read only if a row offers the Conteur
    controls. None if a row is not in the cache yet: the caller renders them."""
    if settings.DEBUG:
        return None
    newest_first = list(reversed(entries))
    controls = [_controls(entry, storyteller) for entry in newest_first]
    group = group_of() if any(controls) else []
    keys = [
        row_key(
            event_id=entry.id,
            storyteller=storyteller,
            character_version=entry.character_version,
            consequences=None if entry.roll is None else entry.roll.consequences,
            available=available,
            group=group,
        )
        for entry, available in zip(newest_first, controls, strict=True)
    ]
    found = content_cache.get_many(keys)
    if len(found) < len(keys):
        return None
    return _with_token(request, "".join(found[key] for key in keys), storyteller)


def _with_token(request, html: str, storyteller: bool) -> SafeString:
    if storyteller and CSRF_PLACEHOLDER in html:
        html = html.replace(CSRF_PLACEHOLDER, get_token(request))
    return mark_safe(html)  # noqa: S308 (rendered by our templates)


def rows_html(request, events: list, *, campaign, storyteller: bool, group: list) -> SafeString:
    """The rows of `events` (already decorated with `.available`), in order, each from the cache
    or rendered once and kept."""
    keys = [event_key(e, storyteller=storyteller, group=group) for e in events]
    found = {} if settings.DEBUG else content_cache.get_many(keys)
    missing = {}
    for key, event in zip(keys, events, strict=True):
        if key not in found:
            context = {
                "event": event,
                "campaign": campaign,
                "group": group,
                "is_storyteller": storyteller,
                "csrf_token": CSRF_PLACEHOLDER,
            }
            missing[key] = render_to_string(ROW_TEMPLATE, context, request=request)
    if missing and not settings.DEBUG:
        content_cache.set_many(missing, TIMEOUT)
    return _with_token(
        request, "".join(found.get(key) or missing[key] for key in keys), storyteller
    )
