"""The sheet's API detail as an HTTP conditional GET: its `ETag` names the version and what else
the JSON shows; a client that holds it gets 304, others the JSON kept in Django's cache under
that tag (a write makes a new version, so a new key)."""

from __future__ import annotations

import hashlib
import json

from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import get_language
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from characters import selectors
from characters import serializers as s
from common.conditional import etag_matches

# A kept detail is never stale (its key names the versions it shows): the timeout only frees room.
DETAIL_CACHE_TIMEOUT = 24 * 3600


def sheet_tag(character) -> str:
    """The `ETag` of a sheet as this viewer sees it: its version, then a digest of what else the
    JSON shows — the compendium's revision (entry names), the owner, the private notes or not,
    the language. In If-Match it still says the version it was read at."""
    rights = "private" if character.can_see_private else "public"
    shown = f"{character.campaign.revision}:{character.owner_id}:{rights}:{get_language()}"
    return f'"{character.version}.{hashlib.sha256(shown.encode()).hexdigest()[:12]}"'


def cached_detail(request: Request, pk: int) -> Response | HttpResponse:
    """GET: 304 when the client holds this representation, else its JSON, kept in the cache under
    its tag (as it is sent to a JSON client, decoded for the browsable API)."""
    character = selectors.character_get_for_sheet(user=request.user, pk=pk)
    tag = sheet_tag(character)
    if etag_matches(request, tag):
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        body = cache.get_or_set(
            f"api-sheet:{pk}:{tag.strip(chr(34))}",
            lambda: JSONRenderer().render(
                s.character_out(selectors.character_load_rows(character))
            ),
            DETAIL_CACHE_TIMEOUT,
        )
        if isinstance(getattr(request, "accepted_renderer", None), JSONRenderer):
            response = HttpResponse(body, content_type="application/json")
        else:
            response = Response(json.loads(body))
    response["ETag"] = tag
    return response
