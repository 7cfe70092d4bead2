"""Request size limits answered in French: 413 for a body over DATA_UPLOAD_MAX_MEMORY_SIZE.

Django refuses such a body only when a view reads it (RequestDataTooBig, a bare 400); DRF reads
JSON through the same check. This middleware refuses it up front from its Content-Length, and
turns the errors raised later (a chunked body, too many fields or files) into the same clear
answer: JSON under /api/, a page elsewhere.
"""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _refusal(request: HttpRequest, status: int, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message, "errors": {}}, status=status)
    return render(request, "request_refused.html", {"message": message}, status=status)


def _too_big(request: HttpRequest) -> HttpResponse:
    limit_kib = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
    message = _("Requête trop volumineuse : %(limit)d Kio au plus.") % {"limit": limit_kib}
    return _refusal(request, 413, message)


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        content_type = request.META.get("CONTENT_TYPE", "")
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        # Files in a multipart body are streamed to disk and not counted by Django's limit.
        if limit is not None and length > limit and not content_type.startswith("multipart/"):
            return _too_big(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if isinstance(exception, RequestDataTooBig):
            return _too_big(request)
        if isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
            return _refusal(
                request, 400, _("Requête refusée : elle contient trop de champs ou de fichiers.")
            )
        return None
