"""What /healthz reports: whether each configured backing service answers."""

from celery import current_app as celery_app
from django.conf import settings
from django.db import connection


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False


def broker_answers() -> bool:
    try:
        with celery_app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
        return True
    except Exception:
        return False


def service_status() -> dict[str, str]:
    """Each service → "ok", "down" or "embedded" (not configured: tasks run in-process)."""
    status = {"database": "ok" if database_answers() else "down"}
    if settings.CELERY_BROKER_URL:
        status["broker"] = "ok" if broker_answers() else "down"
    else:
        status["broker"] = "embedded"
    return status
