"""A request line too long, refused with 414 in the API's error shape (a page elsewhere).

gunicorn refuses a request line over its `--limit-request-line` itself, with an HTML 414 that
Django never sees; run with `--limit-request-line 8190` (gunicorn's maximum) so that this
middleware answers first, for anything over MAX_REQUEST_TARGET characters of path and query.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

MAX_REQUEST_TARGET = 4096  # path and query string; gunicorn's default line limit is 4094


class RequestLineLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if len(request.get_full_path()) > MAX_REQUEST_TARGET:
            message = _(
                "Adresse trop longue : %(limit)d caractères au plus (chemin et paramètres)."
            ) % {"limit": MAX_REQUEST_TARGET}
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message, "errors": {}}, status=414)
            return render(request, "request_refused.html", {"message": message}, status=414)
        return self.get_response(request)
