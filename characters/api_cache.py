"""The API's sheet detail serialized once per version (issue 15 §1), like the sheet page.

A sheet's representation depends on its version, its campaign's compendium revision (entry
names), the viewer's rights (private notes), its owner and the language: the cached body is kept
under all of them, so any write is a new key and no read is ever stale. The `ETag` names the
representation, `"<version>.<fingerprint>"`: a client that sends it back in `If-None-Match` gets a
304 while nothing it shows has changed, and in `If-Match` it still says the version it read.

A write's answer, read in its transaction after the write, fills the cache once the transaction
has committed (`store_on_commit`), for the editors and for the readers: the reads that follow a
write find the new version already serialized.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.db import transaction
from django.http import HttpResponse, HttpResponseBase
from django.utils.translation import get_language
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from characters.page_cache import RELEASE
from characters.probe_cache import sheet_probe
from common import content_cache

TIMEOUT = 24 * 3600


def rights(*, can_edit: bool) -> str:
    """What of the viewer's rights the JSON shows: the private notes, to the player and the
    Conteur alike (one body for both, so a write's answer serves every editor's next read)."""
    return "private" if can_edit else "public"


def representation_tag(*, version: int, revision: int, owner_id: int, rights: str) -> str:
    """The `ETag` of one representation of a sheet: its version, then what else it shows."""
    shown = f"{RELEASE}:{revision}:{owner_id}:{rights}:{get_language()}"
    return f'"{version}.{hashlib.sha256(shown.encode()).hexdigest()[:12]}"'


def probe_tag(probe: dict) -> str:
    return representation_tag(
        version=probe["version"],
        revision=probe["campaign__revision"],
        owner_id=probe["owner_id"],
        rights=rights(can_edit=probe["can_edit"]),
    )


def character_tag(character) -> str:
    """The tag of a character loaded for a viewer (`selectors.character_get_for_viewer`)."""
    return representation_tag(
        version=character.version,
        revision=character.campaign.revision,
        owner_id=character.owner_id,
        rights=rights(can_edit=character.can_edit),
    )


def not_modified(request, tag: str) -> bool:
    """Whether the client's `If-None-Match` already names this representation (weak or strong)."""
    header = request.headers.get("If-None-Match", "")
    sent = {part.strip().removeprefix("W/") for part in header.split(",")}
    return tag in sent or "*" in sent


def _key(pk: int, tag: str) -> str:
    return f"api-sheet:{pk}:{tag.strip(chr(34))}"


def _json(body: dict) -> bytes:
    return JSONRenderer().render(body)


def detail_body(pk: int, tag: str, serialize) -> bytes:
    """The sheet's body for this representation as JSON, from the cache or `serialize()`'s: kept
    rendered, so that a read from the cache neither unpickles nor encodes a dict."""
    if settings.DEBUG:
        return _json(serialize())
    return content_cache.get_or_render(_key(pk, tag), lambda: _json(serialize()), TIMEOUT)


def cached_detail(request, pk: int, serialize) -> HttpResponseBase:
    """GET: 304 when the client holds this representation, else its body from the cache (and
    the probe: characters/probe_cache.py) or `serialize()`'s — as it is kept for a JSON client,
    decoded for the browsable API."""
    probe = sheet_probe(user=request.user, pk=pk)
    tag = probe_tag(probe)
    if not_modified(request, tag):
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    elif isinstance(getattr(request, "accepted_renderer", None), JSONRenderer):
        response = HttpResponse(detail_body(pk, tag, serialize), content_type="application/json")
    else:
        response = Response(json.loads(detail_body(pk, tag, serialize)))
    response["ETag"] = tag
    return response


def store_on_commit(character, body: dict) -> None:
    """Keep a write's answer (`body`, for a viewer who may edit `character`) for every viewer
    once the transaction commits: as it is for the editors, without the private notes for the
    other members. Nothing is kept if the transaction rolls back."""
    if settings.DEBUG or not character.can_edit:
        return
    tags = {
        can_edit: representation_tag(
            version=character.version,
            revision=character.campaign.revision,
            owner_id=character.owner_id,
            rights=rights(can_edit=can_edit),
        )
        for can_edit in (True, False)
    }
    public = {k: v for k, v in body.items() if k != "private_notes"}
    bodies = {
        _key(character.pk, tags[True]): _json(body),
        _key(character.pk, tags[False]): _json(public),
    }
    transaction.on_commit(lambda: content_cache.set_many(bodies, TIMEOUT), robust=True)
