"""What the campaign publishes to the pages' event streams (common.push): new notifications
(the badge), and a member removed or whose role changed (their streams close at once)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models.signals import post_delete, post_save

from campaigns.models import Membership, Notification
from common import push

NOTIFICATIONS = {"type": "notifications"}


def notify(notes: Iterable[Notification]) -> None:
    """Save `notes` (once per key: a job retried sends none twice) and tell their users' pages."""
    notes = list(notes)
    Notification.objects.bulk_create(notes, ignore_conflicts=True)
    for user_id in sorted({note.user_id for note in notes}):
        push.publish_on_commit(push.user_channel(user_id), NOTIFICATIONS)


def _membership_changed(sender, instance: Membership, **kwargs) -> None:
    if kwargs.get("raw") or kwargs.get("created"):
        return
    push.publish_on_commit(
        push.campaign_channel(instance.campaign_id), {"type": "closed", "user": instance.user_id}
    )


def connect() -> None:
    post_save.connect(_membership_changed, sender=Membership, dispatch_uid="campaigns.live.saved")
    post_delete.connect(
        _membership_changed, sender=Membership, dispatch_uid="campaigns.live.deleted"
    )
