"""The server-error handler (`handler500`): an unavailable database or broker is a 503 that says
to retry, with `Retry-After`; any other failure a 500. The API answers JSON in its error shape,
pages the French incident page. Nothing here touches the database: it may be the cause."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerUnavailable

RETRY_AFTER_SECONDS = 10
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)
UNAVAILABLE = (*DATABASE_UNAVAILABLE, BrokerUnavailable)


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]
    unavailable = isinstance(error, UNAVAILABLE)
    status = 503 if unavailable else 500
    if _wants_json(request):
        message = (
            _("Service momentanément indisponible : réessayez dans quelques secondes.")
            if unavailable
            else _("Erreur interne du serveur : rien n'a été enregistré à moitié, réessayez.")
        )
        response = JsonResponse({"detail": message, "errors": {}}, status=status)
    else:
        template = "503.html" if unavailable else "500.html"
        response = HttpResponse(loader.render_to_string(template), status=status)
    if unavailable:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get(
        "Accept", ""
    )
