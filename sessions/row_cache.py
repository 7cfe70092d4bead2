"""Each table log row rendered once per view of it, not once per open page (issue 15).

A new roll reaches every page that polls the table; without this, each of them renders the same
row again (~1 ms each, the node's main cost with 100 pages open). A row looks the same to every
viewer of one kind: the players (their visibility is already filtered by the query) or the
Conteur (with the consequence controls still open and the group they name). It is kept in the
shared cache under what it shows — the event, the roller's sheet version (its name), the roll's
consequences, the controls offered, the language and the release — and its CSRF tokens are put
in per request, as the sheet page does.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from characters.page_cache import CSRF_PLACEHOLDER, RELEASE

TIMEOUT = 6 * 3600
ROW_TEMPLATE = "sessions/_roll_row.html"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def row_key(event, *, storyteller: bool, group: list) -> str:
    roll = event.roll
    shown = [
        RELEASE,
        get_language(),
        "storyteller" if storyteller else "player",
        event.character.version if event.character_id else "-",
        ",".join(roll.consequences) if roll is not None else "-",
        ",".join(event.available),
    ]
    if event.available:  # the victim list of a critical names the group
        shown.append(";".join(f"{c.pk}:{c.name}" for c in group))
    return f"table-row:{event.pk}:{_digest('|'.join(str(part) for part in shown))}"


def rows_html(request, events: list, *, campaign, storyteller: bool, group: list) -> SafeString:
    """The rows of `events` (already decorated with `.available`), in order, each from the cache
    or rendered once and kept."""
    keys = [row_key(e, storyteller=storyteller, group=group) for e in events]
    found = {} if settings.DEBUG else cache.get_many(keys)
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
        cache.set_many(missing, TIMEOUT)
    html = "".join(found.get(key) or missing[key] for key in keys)
    if storyteller and CSRF_PLACEHOLDER in html:
        html = html.replace(CSRF_PLACEHOLDER, get_token(request))
    return mark_safe(html)  # noqa: S308 (rendered by our templates)
