"""What the table publishes after a commit (common.push), for the pages' event streams.

A new row of the log publishes the players it goes to (`selectors.players_who_see`, the log's
visibility rule) and the panels it changes; each process holding streams that show it draws it
once (`row_shown`, as the Conteur and as a player see it, and as the API does), and each stream
picks its viewer's version.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save

from campaigns.models import Campaign
from common import push
from sessions import selectors
from sessions.combat import selectors as combat_selectors
from sessions.log_rows import rows_html
from sessions.models import TableEvent
from sessions.serializers import EventOut

MORALE = "morale"
COMBAT = "combat"


def row_message(event: TableEvent) -> dict[str, Any]:
    """What a new row publishes: who may see it and which panels it changes, from the saved row
    itself. Each process that holds a stream needing the row draws it then (`row_shown`), once:
    the write that made it pays nothing for the pages."""
    return {
        "type": "row",
        "id": event.pk,
        "character": event.character_id,
        "players": selectors.players_who_see(event),
        "signals": signals_of([event]),
    }


def row_shown(event_id: int) -> dict[str, Any] | None:
    """One row as the streams send it: drawn as the Conteur and as a player see it, and as the
    API shows it (None if it is gone)."""
    event = (
        TableEvent.objects.select_related("roll", "actor", "character", "campaign")
        .defer(*selectors.CHARACTER_UNREAD)
        .filter(pk=event_id)
        .first()
    )
    if event is None:
        return None
    campaign: Campaign = event.campaign
    return {
        "player": rows_html([event], campaign=campaign, storyteller=False),
        "storyteller": rows_html([event], campaign=campaign, storyteller=True),
        "data": EventOut(event).data,
    }


def signals_of(events: list[TableEvent]) -> list[str]:
    """Which panels of a page these rows change (the Moral, the fight)."""
    signals = []
    if selectors.has_morale_event(events):
        signals.append(MORALE)
    if combat_selectors.has_combat_event(events):
        signals.append(COMBAT)
    return signals


def _row_saved(sender, instance: TableEvent, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        push.publish_on_commit(push.campaign_channel(instance.campaign_id), row_message(instance))


def connect() -> None:
    post_save.connect(_row_saved, sender=TableEvent, dispatch_uid="sessions.live.row")
