"""The unread notification count shown in the navigation (one cheap query, only when used)."""

from django.utils.functional import SimpleLazyObject

from campaigns.progression import unread_count


def notifications(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notifications": 0}
    return {"unread_notifications": SimpleLazyObject(lambda: unread_count(user=user))}
