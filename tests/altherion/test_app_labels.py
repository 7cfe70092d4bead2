"""The table's app keeps its own label: Django's sessions app is still `sessions` (issue 11)."""

from django.apps import apps


def test_the_session_app_does_not_take_django_sessions_label():
    assert apps.get_app_config("play").name == "sessions"
    assert apps.get_app_config("sessions").name == "django.contrib.sessions"
