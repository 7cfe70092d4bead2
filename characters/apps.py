from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = _("Personnages")

    def ready(self) -> None:
        from characters import probe_cache  # the registry is ready: models may load

        probe_cache.register()
