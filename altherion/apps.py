from django.apps import AppConfig


class AltherionConfig(AppConfig):
    """Project-wide pieces: accounts pages, health, the demo seed and the Celery heartbeat."""

    name = "altherion"
    verbose_name = "Altherion"
