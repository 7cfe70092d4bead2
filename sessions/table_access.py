"""What every table page shares: the HTMX events that make an open table read again, and the
login check that sends a signed-out table to the login form. A leaf module: the table's views
and the fight's (sessions/combat/) import it, it imports no other table module."""

from functools import wraps

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import reverse

MORALE_CHANGED = "morale-changed"
POLL_NOW = "table-poll"


def table_login_required(view):
    """`login_required`, except that an HTMX request of a signed-out page (a session that
    expired while the table was open for hours) sends the whole page to the login form instead
    of swapping the login page into the log."""
    protected = login_required(view)

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated and getattr(request, "htmx", False):
            page = reverse("sessions:table", args=[kwargs["pk"]])
            response = HttpResponse(status=204)
            response["HX-Redirect"] = f"{reverse(settings.LOGIN_URL)}?next={page}"
            return response
        return protected(request, *args, **kwargs)

    return wrapper
