from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campagnes")

    def ready(self) -> None:
        # Registered in the web process too: without a broker the webhook's task runs in-process.
        from campaigns import (
            live,  # the registry is ready: models may load
            tasks,  # noqa: F401
        )

        live.connect()
