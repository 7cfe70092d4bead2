from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProgressionConfig(AppConfig):
    name = "progression"
    verbose_name = _("Progression")

    def ready(self) -> None:
        # The services send the jobs by name; the web process registers the tasks here so that,
        # in the embedded mode (no broker), a job sent by name runs in-process as before.
        from progression import tasks  # noqa: F401
