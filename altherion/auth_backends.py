"""Signing in: django-axes' lockout check for logins that come with a request, and what a
locked-out login gets — the French page for the login form, the API's JSON error for
/api/auth/token/. The signed-in user itself is Django's `ModelBackend`'s and DRF's own."""

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy, ngettext
from rest_framework import exceptions
from rest_framework.request import Request


class LoginAttemptsBackend(AxesStandaloneBackend):
    """Refuses a login while its username+address pair is locked out (django-axes).

    A login from a web request (the login form, the admin, the API's token) always carries the
    request. Code without one (management commands, the test client's `login()`) has no address
    to lock out: it is left to the next backend instead of failing, as django-axes' own backend
    would.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def cooloff_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_message() -> str:
    minutes = cooloff_seconds() // 60
    return ngettext(
        "Trop d'échecs de connexion : réessayez dans %(minutes)d minute.",
        "Trop d'échecs de connexion : réessayez dans %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(request, response, credentials) -> HttpResponse:
    """The login form's answer to a locked-out pair (AXES_LOCKOUT_CALLABLE): 429, the French
    page with the wait."""
    minutes = cooloff_seconds() // 60
    context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": minutes}
    page = render(request, "registration/lockout.html", context, status=429)
    page["Retry-After"] = str(cooloff_seconds())
    return page


class LoginLockedOut(exceptions.APIException):
    """The API's answer to a locked-out pair: 429 with `Retry-After` (the exception handler
    sends `wait` as that header)."""

    status_code = 429
    default_detail = gettext_lazy("Trop d'échecs de connexion.")
    default_code = "locked_out"

    def __init__(self):
        super().__init__(lockout_message())
        self.wait = cooloff_seconds()


def refuse_locked_out_api_login(sender, request, **kwargs) -> None:
    """Receiver of django-axes' `user_locked_out` (its documented way to work with DRF, whose
    request is not the one its middleware sees): an API login fails with `LoginLockedOut`;
    the login form is answered by the middleware (`lockout_response`)."""
    if isinstance(request, Request):
        raise LoginLockedOut()
