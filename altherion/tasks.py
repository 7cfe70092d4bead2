from celery import shared_task

from altherion.models import Heartbeat


@shared_task(acks_late=True)
def ping(token: str) -> str:
    """Write one heartbeat row; a retry with the same token writes nothing more."""
    Heartbeat.objects.get_or_create(token=token)
    return token
