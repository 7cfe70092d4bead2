"""In-app notifications of the progression (§10–§11): the one a player gets when a background job
changes its character (an award paid, a training finished, an ellipse ended), and a user's list,
unread count and marking read."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from campaigns.models import Notification
from characters.models import Character

TEXT_MAX = 500


def experience_link(campaign_id: int, character_id: int) -> str:
    return reverse("progression:character_experience", args=[campaign_id, character_id])


def character_notification(
    character: Character, *, key: str, text: str, kind: str = ""
) -> Notification:
    """An unsaved notification for the character's player, linking to its experience page. Its
    unique `key` keeps a job run twice from notifying twice; its kind is the key's first part
    unless given."""
    return Notification(
        user_id=character.owner_id,
        campaign_id=character.campaign_id,
        kind=kind or key.split(":")[0],
        key=key,
        text=text[:TEXT_MAX],
        link=experience_link(character.campaign_id, character.pk),
    )


def unread_count(*, user) -> int:
    if not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notifications_for(*, user, limit: int = 50) -> list[Notification]:
    return list(Notification.objects.filter(user=user).select_related("campaign")[:limit])


def notifications_mark_read(*, user, pk: int | None = None) -> int:
    """Mark one notification (or all) of this user read; returns how many changed."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if pk is not None:
        rows = rows.filter(pk=pk)
    return rows.update(read_at=timezone.now())
