"""The event streams (Server-Sent Events): one per open page, and one per API client.

A stream subscribes to its campaign's and its user's channels (common.push), catches up from
the log after its cursor (`?after=` or the browser's `Last-Event-ID`), then forwards what each
write publishes, as the viewer may see it: a row in the Conteur's or a player's version, or
none; the signals that refresh the Moral, the fight, the notifications, the handouts and a sheet. Nothing is
read from the database while it follows, except to catch up after a gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import wraps

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from campaigns.models import Campaign
from campaigns.policy import ROW_ID_MAX, campaign_get_for_member, is_storyteller
from characters.selectors import character_get_for_viewer
from common import push
from sessions import selectors
from sessions.live import signals_of
from sessions.log_rows import rows_html
from sessions.serializers import EventOut

# How long a browser waits before it reconnects a dropped stream.
RETRY_MS = 2000
NOTIFICATIONS = "notifications"
HANDOUTS = "handouts"  # a handout given to this user (published on their own channel only)
SHEET = "sheet"
CLOSED = "closed"


@dataclass
class Viewer:
    """Who holds a stream and what their page shows."""

    user_id: int
    campaign: Campaign | None
    storyteller: bool
    after: int | None  # the log cursor; None when the page shows no log
    character: int | None  # the log's filter
    sheet: int | None  # the sheet the page shows
    api: bool  # JSON for an API client, HTML rows for a page
    reconnected: bool  # back after a drop: what it missed is sent, its panels told to refresh

    def sees(self, message: dict) -> bool:
        players = message["players"]
        return self.storyteller or players == "all" or self.user_id in players


def _read(function):
    """`function` made awaitable, run in the request's thread for the database, which then
    closes its connection: a stream is held for hours, and hundreds of open pages must not hold
    as many PostgreSQL connections."""

    @wraps(function)
    def run(*args, **kwargs):
        return _closing(function, *args, **kwargs)

    return sync_to_async(run)


def _closing(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    finally:
        if transaction.get_autocommit():  # never inside a transaction (a test's own)
            connection.close()


def sse(event: str, data: str = "", event_id: int | None = None) -> str:
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines += [f"data: {line}" for line in data.splitlines() or [""]]
    return "\n".join(lines) + "\n\n"


@require_GET
async def page_stream(request: HttpRequest, pk: int | None = None) -> StreamingHttpResponse:
    """A page's stream: `/live/` (notifications) or `/campaigns/<pk>/live/` (the table too);
    `?after=<cursor>` on pages that show the log, `?filter=<character>`, `?sheet=<character>`."""
    user = await request.auser()
    if not user.is_authenticated:
        raise Http404(_("Flux introuvable."))
    campaign = await _campaign(user, pk)
    sheet = _int(request.GET.get("sheet"))
    if sheet is not None:
        found = await _read(character_get_for_viewer)(user=user, pk=sheet)
        if campaign is None or found.campaign_id != campaign.pk:
            raise Http404(_("Personnage introuvable."))
    viewer = Viewer(
        user_id=user.pk,
        campaign=campaign,
        storyteller=campaign is not None and is_storyteller(campaign),
        after=_cursor(request) if campaign is not None and _shows_log(request) else None,
        character=_int(request.GET.get("filter")),
        sheet=sheet,
        api=False,
        reconnected=_reconnected(request),
    )
    return await _response(viewer)


@require_GET
async def api_stream(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The API's stream of a campaign (documented in the OpenAPI description): the log's new
    entries as JSON (`log`, with `id` the cursor), and `morale`, `combat`, `sheet` and
    `notifications` signals. Token or session authentication, refused as the API refuses:
    401 without valid credentials, 404 for a non-member, in the API's JSON errors."""
    user = await _api_user(request)
    if user is None:
        return _api_error(401, _("Authentification requise."))
    try:
        campaign = await _campaign(user, campaign_id)
    except Http404:
        return _api_error(404, _("Introuvable."))
    viewer = Viewer(
        user_id=user.pk,
        campaign=campaign,
        storyteller=is_storyteller(campaign),
        after=_cursor(request),
        character=_int(request.GET.get("character")),
        sheet=None,
        api=True,
        reconnected=_reconnected(request),
    )
    return await _response(viewer)


async def _api_user(request: HttpRequest):
    """The user of a DRF token (DRF's own TokenAuthentication), else of the session; None."""
    try:
        found = await _read(TokenAuthentication().authenticate)(Request(request))
    except AuthenticationFailed:
        return None
    user = found[0] if found else await request.auser()
    return user if user.is_authenticated else None


def _api_error(status: int, detail: str) -> JsonResponse:
    """The API's error shape (`common.api_errors`): a sentence and no field errors."""
    return JsonResponse({"detail": str(detail), "errors": {}}, status=status)


async def _campaign(user, pk: int | None) -> Campaign | None:
    if pk is None:
        return None
    return await _read(campaign_get_for_member)(user=user, pk=pk)


async def _response(viewer: Viewer) -> StreamingHttpResponse:
    # The session's and the user's reads (the middleware's, in this request's thread) let
    # their connection go before the stream waits for anything.
    await _read(lambda: None)()
    response = StreamingHttpResponse(_follow(viewer), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # proxies that buffer (nginx) pass each event at once
    return response


async def _follow(viewer: Viewer) -> AsyncIterator[str]:
    hub = push.hub()
    channels = [push.user_channel(viewer.user_id)]
    if viewer.campaign is not None:
        channels.append(push.campaign_channel(viewer.campaign.pk))
    subscription = hub.subscribe(*channels)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        await _ready(hub)
        yield await _catch_up(viewer)
        if viewer.reconnected:
            # What changed while the page was away: its panels read themselves again.
            yield "".join(sse(name) for name in ("morale", "combat", NOTIFICATIONS, HANDOUTS))
        while True:
            message = await subscription.get(settings.LIVE_HEARTBEAT_SECONDS)
            if message is None:
                yield ": ping\n\n"
                continue
            if message["type"] == CLOSED and message["user"] == viewer.user_id:
                yield sse(CLOSED)
                return
            yield await _forward(viewer, message)
    finally:
        hub.unsubscribe(subscription)


async def _ready(hub: push.Hub) -> None:
    """Wait (briefly) until Redis delivers to this process, so the catch-up read comes after."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(hub.ready.wait(), timeout=5)


async def _forward(viewer: Viewer, message: dict) -> str:
    kind = message["type"]
    if kind == "gap":
        return await _catch_up(viewer) + "".join(sse(n) for n in ("morale", "combat", HANDOUTS))
    if kind == "row":
        return _row(viewer, message)
    if kind == NOTIFICATIONS:
        return sse(NOTIFICATIONS, "{}" if viewer.api else "")
    if kind == HANDOUTS:
        return _handout(viewer, message)
    if kind == SHEET:
        if viewer.api:
            return sse(SHEET, json.dumps({k: message[k] for k in ("character", "version")}))
        if message["character"] == viewer.sheet:
            return sse(SHEET, str(message["version"]))
    return ""


def _handout(viewer: Viewer, message: dict) -> str:
    """A handout given to the viewer: the signal their handouts panel listens to, on a page of
    its campaign (a page of another campaign, or of none, has no such panel)."""
    if viewer.api:
        if viewer.campaign is None or message["campaign"] == viewer.campaign.pk:
            return sse(HANDOUTS, json.dumps({"handout": message["handout"]}))
        return ""
    if viewer.campaign is not None and message["campaign"] == viewer.campaign.pk:
        return sse(HANDOUTS)
    return ""


def _row(viewer: Viewer, message: dict) -> str:
    """A new row for its viewers (the row itself only on pages that show the log, within their
    filter), and the panels it changes; nothing at all for anyone else."""
    if not viewer.sees(message):
        return ""
    signals = "".join(sse(name, "{}" if viewer.api else "") for name in message["signals"])
    if viewer.after is None:
        return signals
    if viewer.character is not None and message["character"] != viewer.character:
        return signals
    viewer.after = max(viewer.after, message["id"])
    if viewer.api:
        return sse("log", json.dumps(message["data"]), message["id"]) + signals
    version = "storyteller" if viewer.storyteller else "player"
    return sse("row", message["html"][version], message["id"]) + signals


async def _catch_up(viewer: Viewer) -> str:
    """What the log holds after the viewer's cursor; at most `push.READS` streams of a process
    read at once (hundreds of pages reconnecting after a restart would open as many
    connections)."""
    if viewer.after is None or viewer.campaign is None:
        return ""
    async with push.hub().reads:
        return await _read(_missed)(viewer)


def _missed(viewer: Viewer) -> str:
    """The rows after the viewer's cursor, oldest first, as the poll reads them."""
    chunks = []
    while True:
        events = selectors.events_for_user(
            campaign=viewer.campaign,
            user=_UserRef(viewer.user_id),
            after=viewer.after,
            character_id=viewer.character,
            limit=selectors.POLL_LIMIT,
        )
        for event in reversed(events):
            if viewer.api:
                chunks.append(sse("log", json.dumps(EventOut(event).data), event.pk))
            else:
                html = rows_html([event], campaign=viewer.campaign, storyteller=viewer.storyteller)
                chunks.append(sse("row", html, event.pk))
        if events:
            viewer.after = events[0].pk
            chunks += [sse(n, "{}" if viewer.api else "") for n in signals_of(events)]
        if len(events) < selectors.POLL_LIMIT:
            return "".join(chunks)


@dataclass(frozen=True)
class _UserRef:
    """The viewer as the log's filter needs it (its primary key), without reading the user."""

    pk: int


def _shows_log(request: HttpRequest) -> bool:
    return "after" in request.GET or "Last-Event-ID" in request.headers


def _reconnected(request: HttpRequest) -> bool:
    """The browser's own reconnection sends the last id; table.js adds `again` to its own."""
    return "Last-Event-ID" in request.headers or "again" in request.GET


def _cursor(request: HttpRequest) -> int:
    return max(
        _int(request.GET.get("after")) or 0,
        _int(request.headers.get("Last-Event-ID")) or 0,
    )


def _int(value: str | None) -> int | None:
    try:
        number = int(value) if value is not None else None
    except ValueError:
        return None
    return number if number is not None and 0 < number <= ROW_ID_MAX else None
