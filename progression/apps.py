from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProgressionConfig(AppConfig):
    name = "progression"
    verbose_name = _("Progression")
