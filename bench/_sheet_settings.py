"""Settings for bench/sheet.py: the real settings, plus a floor view, and static files served
without collectstatic's manifest (the bench measures views, not static files)."""

from altherion.settings import *  # noqa: F403

ROOT_URLCONF = "_sheet_urls"
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGGING = {"version": 1, "disable_existing_loggers": False}
