from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SessionsConfig(AppConfig):
    """What happens at a play session. Its label is `play`: `sessions` is django.contrib's."""

    name = "sessions"
    label = "play"
    verbose_name = _("Séances et table")

    def ready(self) -> None:
        from characters.services import register_death_listener

        # the registry is ready: models may load
        from sessions import injury_rest, live, webhook_news, writes

        injury_rest.register()
        register_death_listener(writes.fatal_in_fights)
        live.connect()
        webhook_news.connect()
