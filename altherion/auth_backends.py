"""Login brute force: django-axes' lockout check for logins that come with a request, and the
French page a locked-out login gets."""

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext


class LoginAttemptsBackend(AxesStandaloneBackend):
    """Refuses a login while its username+address pair is locked out (django-axes).

    A login from a web request (the login form, the admin) always carries the request. Code
    without one (management commands, the test client's `login()`) has no address to lock out:
    it is left to the next backend instead of failing, as django-axes' own backend would.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_response(request, response, credentials) -> HttpResponse:
    """What a locked-out login gets (AXES_LOCKOUT_CALLABLE): 429, in French, with the wait — the
    page for the login form, the API's JSON error for /api/auth/token/."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    if request.path.startswith("/api/"):
        message = ngettext(
            "Trop d'échecs de connexion : réessayez dans %(minutes)d minute.",
            "Trop d'échecs de connexion : réessayez dans %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
        page = JsonResponse({"detail": message, "errors": {}}, status=429)
    else:
        context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": minutes}
        page = render(request, "registration/lockout.html", context, status=429)
    page["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return page
