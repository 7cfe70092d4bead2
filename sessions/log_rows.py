"""The log's rows as HTML, the same for the table page, the poll and the push: what a row shows
depends only on whether its viewer is the Conteur (who gets the controls of a roll's open
consequences), never on which player looks."""

from __future__ import annotations

from django.template.loader import render_to_string

from campaigns.models import Campaign
from sessions.consequences import consequences_available
from sessions.models import TableEvent, TableEventKind
from sessions.morale import player_characters


def decorate(events: list[TableEvent], *, storyteller: bool) -> list[TableEvent]:
    """Attach what a row shows besides the event: the consequences still open (Conteur only)."""
    for event in events:
        event.available = (
            consequences_available(event.roll)
            if storyteller and event.kind == TableEventKind.ROLL and event.roll is not None
            else []
        )
    return events


def group_if_needed(campaign: Campaign | int, events: list[TableEvent]) -> list:
    """The victims a critical's control offers: read only when the Conteur has one to apply."""
    if any(getattr(event, "available", None) for event in events):
        return list(player_characters(campaign))
    return []


def rows_html(
    events: list[TableEvent], *, campaign: Campaign, storyteller: bool, request=None
) -> str:
    """The rows of `events` (newest first) as the Conteur or a player sees them. Without a
    `request` the controls carry no CSRF field: htmx sends the page's token as a header."""
    decorate(events, storyteller=storyteller)
    context = {
        "campaign": campaign,
        "is_storyteller": storyteller,
        "events": events,
        "group": group_if_needed(campaign, events),
    }
    return render_to_string("sessions/page.html#log-rows", context, request=request)
