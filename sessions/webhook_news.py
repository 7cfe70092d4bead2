"""What the table posts to the campaign's webhook (campaigns.webhooks): the log rows every member
sees that are news for the group — public rolls, Moral moves and the end of a fight — and a
séance's journal when it is saved with a new text.

A row goes out only when every player sees it (`selectors.players_who_see` says "all", the
log's own rule): a secret roll, a hidden NPC's roll or action, and the closing lines about
hidden NPCs are never posted. The row's summary is the text the log already shows every player.
"""

from __future__ import annotations

import hashlib

from django.db.models.signals import post_save

from campaigns import webhooks
from sessions import selectors
from sessions.models import PlaySession, TableEvent, TableEventKind

POSTED_KINDS = {TableEventKind.ROLL: "roll", TableEventKind.MORALE: "morale"}


def news_kind(event: TableEvent) -> str | None:
    """What `event` is posted as ("roll", "morale", "fight_end"), or None if it stays at the
    table: not seen by every player, or not news (a turn, a blow, a consequence)."""
    if selectors.players_who_see(event) != "all":
        return None
    if event.kind in POSTED_KINDS:
        return POSTED_KINDS[event.kind]
    # A fight's end is the one combat line carrying the fight's closing summary
    # (sessions.combat.fights.encounter_end).
    if event.kind == TableEventKind.COMBAT and "summary" in event.payload:
        return "fight_end"
    return None


def _row_saved(sender, instance: TableEvent, created: bool, raw: bool = False, **kwargs) -> None:
    if not created or raw:
        return
    kind = news_kind(instance)
    if kind is not None:
        webhooks.webhook_post(
            campaign_id=instance.campaign_id,
            key=f"event:{instance.pk}",
            kind=kind,
            text=instance.summary,
        )


def journal_post(play_session: PlaySession, *, previous: str) -> None:
    """Post the séance's journal when it was saved with a new, non-empty text (once per text)."""
    notes = play_session.notes.strip()
    if not notes or notes == previous.strip():
        return
    digest = hashlib.sha256(notes.encode()).hexdigest()[:16]
    webhooks.webhook_post(
        campaign_id=play_session.campaign_id,
        key=f"journal:{play_session.pk}:{digest}",
        kind="journal",
        title=play_session.title,
        text=notes,
    )


def connect() -> None:
    post_save.connect(_row_saved, sender=TableEvent, dispatch_uid="sessions.webhook_news.row")
