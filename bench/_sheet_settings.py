"""Settings for bench/sheet.py: the real settings, plus a floor view, and static files served
without collectstatic's manifest (the bench measures views, not static files)."""

from altherion.settings import *  # noqa: F403

ROOT_URLCONF = "_sheet_urls"
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGGING = {"version": 1, "disable_existing_loggers": False}
# The benches measure throughput: the API's per-user throttle (600/min by default) would turn
# most of their requests into 429s.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"user": "1000000/min", "anon": "1000000/min"},
}
