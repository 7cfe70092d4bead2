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
from django.utils.cache import patch_cache_control
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


# Features no page uses, refused to every page and anything it embeds.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
)


class PrivateResponsesMiddleware:
    """A signed-in page or any API answer is one person's: `Cache-Control: private, no-store`
    keeps it out of shared caches and the browser's disk (a shared computer, the back button
    after logging out). Every response also refuses the browser features no page uses
    (`Permissions-Policy`). Placed after the authentication middleware, which sets request.user;
    an API request signed with a token has no session user yet, hence the path test."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if request.path.startswith("/api/") or (user is not None and user.is_authenticated):
            patch_cache_control(response, private=True, no_store=True)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response
