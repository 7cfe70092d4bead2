"""What the table publishes after a commit (common.push), for the pages' event streams.

A new row of the log is drawn once, after its commit, by the process that wrote it: as the
Conteur and as a player see it, with the players it goes to (`selectors.players_who_see`, the
log's visibility rule) and what the API's stream sends of it; each stream then picks its
viewer's version without reading the database. (Drawing it in each process that holds streams
instead, off the writer's path, was measured: it put the database read and the drawing on the
streams' side and the delay went from tens of milliseconds to seconds; bench/README.md.)
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


def row_message(event_id: int) -> dict[str, Any] | None:
    """What a new row publishes, read after its commit (None if it is gone): who may see it, the
    panels it changes, and the row drawn as the Conteur and as a player see it, and as the API
    shows it. Drawn here once: the streams of every process only pick their viewer's version."""
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
        "type": "row",
        "id": event.pk,
        "character": event.character_id,
        "players": selectors.players_who_see(event),
        "signals": signals_of([event]),
        "html": {
            "player": rows_html([event], campaign=campaign, storyteller=False),
            "storyteller": rows_html([event], campaign=campaign, storyteller=True),
        },
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
        push.publish_on_commit(
            push.campaign_channel(instance.campaign_id), build=lambda: row_message(instance.pk)
        )


def connect() -> None:
    post_save.connect(_row_saved, sender=TableEvent, dispatch_uid="sessions.live.row")
