"""The sheet page rendered once per version (issue 15): the sheet's body is cached under what it
shows — the character's version, its campaign's compendium revision, the viewer's rights, the
language, the page's own query (field in edit mode, odds inputs) and the release — so a write of
any of those is a new key, never a stale page. The CSRF token is put in after the cache (the body
is rendered with a placeholder); the page around it (navigation) is cached too, per viewer, and
drawn per request only when it has messages to show.

The cache is Django's default — Redis shared by every process when REDIS_CACHE_URL is set, local
memory in the embedded default — with each process's copy of its recent entries in front of it
(common/content_cache.py).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from common import content_cache

CSRF_PLACEHOLDER = "__sheet_csrf_token__"
TIMEOUT = 24 * 3600
# The page's query arguments that change the body (the others, e.g. a cache-buster, do not).
QUERY_KEYS = ("edit", "characteristic", "complexity", "difficulty")


def _release() -> str:
    """The code and templates in use: a deploy never serves a page rendered by the one before."""
    digest = hashlib.sha256()
    for folder in ("templates", "altherion", "campaigns", "characters", "rules", "sessions"):
        for path in sorted((Path(settings.BASE_DIR) / folder).rglob("*")):
            if path.suffix in (".html", ".py") and path.is_file():
                stat = path.stat()
                digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}".encode())
    return digest.hexdigest()[:12]


RELEASE = _release()


def sheet_key(probe: dict, request) -> str:
    query = "&".join(f"{k}={request.GET.get(k, '')}" for k in QUERY_KEYS if k in request.GET)
    parts = (
        RELEASE,
        probe["pk"],
        probe["version"],
        probe["campaign__revision"],
        probe["owner__username"],
        "storyteller" if probe["storyteller"] else "editor" if probe["can_edit"] else "reader",
        get_language(),
        hashlib.sha256(query.encode()).hexdigest()[:16],
    )
    return "sheet:" + ":".join(str(p) for p in parts)


def page_key(body_key: str, probe: dict, user) -> str:
    """The whole page's key: its body's, and what the shell shows — who is signed in, the
    character's and the campaign's names (the shell is drawn without messages)."""
    shell = f"{user.pk}:{user.get_username()}:{probe['name']}:{probe['campaign__name']}"
    return f"{body_key}:page:{hashlib.sha256(shell.encode()).hexdigest()[:16]}"


def sheet_body(key: str, render) -> str:
    """The cached body under `key`, or `render()`'s (rendered with the CSRF placeholder) kept.
    The debug server renders every time (templates change under it)."""
    if settings.DEBUG:
        return render()
    body = content_cache.get(key)
    if body is None:
        body = render()
        content_cache.set(key, body, TIMEOUT)
    return body


def with_csrf(body: str, request) -> str:
    return body.replace(CSRF_PLACEHOLDER, get_token(request))


def etag(key: str, request) -> str:
    """The page's validator: the body's key and this session's CSRF secret (the shell carries a
    token of it), so a 304 never hands back a page whose forms would be refused."""
    get_token(request)
    secret = request.META.get("CSRF_COOKIE", "")
    return '"' + hashlib.sha256(f"{key}:{secret}".encode()).hexdigest()[:32] + '"'
