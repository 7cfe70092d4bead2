from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SessionsConfig(AppConfig):
    """What happens at a play session. Its label is `play`: `sessions` is django.contrib's."""

    name = "sessions"
    label = "play"
    verbose_name = _("Séances et table")

    def ready(self) -> None:
        from sessions import injury_rest, live, webhook_news  # the registry is ready: models load

        injury_rest.register()
        live.connect()
        webhook_news.connect()
