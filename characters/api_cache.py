"""The API's sheet detail serialized once per version (issue 15 §1), like the sheet page.

A sheet's representation depends on its version, its campaign's compendium revision (entry
names), the viewer's rights (private notes), its owner and the language: the cached body is kept
under all of them, so any write is a new key and no read is ever stale. The `ETag` names the
representation, `"<version>.<fingerprint>"`: a client that sends it back in `If-None-Match` gets a
304 while nothing it shows has changed, and in `If-Match` it still says the version it read.

Only reads fill the cache: a write's answer is built inside its transaction, which may still
roll back.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language
from rest_framework import status
from rest_framework.response import Response

from characters.page_cache import RELEASE
from characters.selectors import sheet_probe

TIMEOUT = 24 * 3600


def rights(*, storyteller: bool, can_edit: bool) -> str:
    return "storyteller" if storyteller else "editor" if can_edit else "reader"


def representation_tag(*, version: int, revision: int, owner_id: int, rights: str) -> str:
    """The `ETag` of one representation of a sheet: its version, then what else it shows."""
    shown = f"{RELEASE}:{revision}:{owner_id}:{rights}:{get_language()}"
    return f'"{version}.{hashlib.sha256(shown.encode()).hexdigest()[:12]}"'


def probe_tag(probe: dict) -> str:
    return representation_tag(
        version=probe["version"],
        revision=probe["campaign__revision"],
        owner_id=probe["owner_id"],
        rights=rights(storyteller=probe["storyteller"], can_edit=probe["can_edit"]),
    )


def character_tag(character) -> str:
    """The tag of a character loaded for a viewer (`selectors.character_get_for_viewer`)."""
    return representation_tag(
        version=character.version,
        revision=character.campaign.revision,
        owner_id=character.owner_id,
        rights=rights(storyteller=character.viewer_is_storyteller, can_edit=character.can_edit),
    )


def not_modified(request, tag: str) -> bool:
    """Whether the client's `If-None-Match` already names this representation (weak or strong)."""
    header = request.headers.get("If-None-Match", "")
    sent = {part.strip().removeprefix("W/") for part in header.split(",")}
    return tag in sent or "*" in sent


def detail_body(pk: int, tag: str, serialize) -> dict:
    """The sheet's serialized body for this representation, from the cache or `serialize()`."""
    if settings.DEBUG:
        return serialize()
    key = f"api-sheet:{pk}:{tag.strip(chr(34))}"
    body = cache.get(key)
    if body is None:
        body = serialize()
        cache.set(key, body, TIMEOUT)
    return body


def cached_detail(request, pk: int, serialize) -> Response:
    """GET: 304 when the client holds this representation, else its body from the cache (one
    query: the probe) or `serialize()`'s."""
    probe = sheet_probe(user=request.user, pk=pk)
    tag = probe_tag(probe)
    if not_modified(request, tag):
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        response = Response(detail_body(pk, tag, serialize))
    response["ETag"] = tag
    return response
