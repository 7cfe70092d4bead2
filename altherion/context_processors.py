"""What every page's template needs of the settings."""

from django.conf import settings


def live(request) -> dict:
    """Whether pages open an event stream, and how often they ask while it is down."""
    return {"live_push": settings.LIVE_PUSH, "live_poll_seconds": settings.LIVE_POLL_SECONDS}
