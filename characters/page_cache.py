"""The sheet page rendered once per version (issue 15): the sheet's body is cached under what it
shows — the character's version, its campaign's compendium revision, the viewer's rights, the
language, the page's own query (field in edit mode, odds inputs) and the release — so a write of
any of those is a new key, never a stale page. The CSRF token is put in after the cache (the body
is rendered with a placeholder); the page around it (navigation) is cached apart, per viewer and
names, with a placeholder where the body goes — a write of the sheet draws its body again, not the
page around it — and is drawn per request only when it has messages to show. A missing entry is
rendered by one process at a time (`content_cache.get_or_render`), glued from the parts of the
body that are still as they were drawn (characters/sheet_parts.py): a write draws again only what
it changed.

The cache is Django's default — Redis shared by every process when REDIS_CACHE_URL is set, local
memory in the embedded default — with each process's copy of its recent entries in front of it
(common/content_cache.py).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
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
    return "sheet:" + _shown(probe, request, version=True)


def parts_key(probe: dict, request) -> str:
    """What every part of the body shows but the version (characters/sheet_parts.py)."""
    return "sheet-part:" + _shown(probe, request, version=False)


def _shown(probe: dict, request, *, version: bool) -> str:
    query = "&".join(f"{k}={request.GET.get(k, '')}" for k in QUERY_KEYS if k in request.GET)
    parts = (
        RELEASE,
        probe["pk"],
        probe["version"] if version else "",
        probe["campaign__revision"],
        probe["owner__username"],
        "storyteller" if probe["storyteller"] else "editor" if probe["can_edit"] else "reader",
        get_language(),
        hashlib.sha256(query.encode()).hexdigest()[:16],
    )
    return ":".join(str(p) for p in parts)


# Where the body goes in the page around it: markup that no escaped text (a name) can contain.
BODY_PLACEHOLDER = "<!-- sheet body -->"


def shell_key(probe: dict, user) -> str:
    """The key of the page around the body: what it shows — who is signed in, the character's
    and the campaign's names — in this language and release."""
    shell = ":".join(
        str(part)
        for part in (
            user.pk,
            user.get_username(),
            probe["pk"],
            probe["name"],
            probe["campaign_id"],
            probe["campaign__name"],
        )
    )
    digest = hashlib.sha256(shell.encode()).hexdigest()[:16]
    return f"sheet-shell:{RELEASE}:{get_language()}:{digest}"


def cached(key: str, render) -> str:
    """The cached text under `key`, or `render()`'s kept. The debug server renders every time
    (templates change under it)."""
    if settings.DEBUG:
        return render()
    return content_cache.get_or_render(key, render, TIMEOUT)


def page(shell: str, body: str) -> str:
    head, _, tail = shell.partition(BODY_PLACEHOLDER)
    return head + body + tail


def pieces(text: str) -> tuple[bytes, ...]:
    """The page as UTF-8, cut where its CSRF token goes (`with_token` puts it in)."""
    return tuple(text.encode().split(CSRF_PLACEHOLDER.encode()))


def page_pieces(shell_key_: str, body_key: str, draw) -> tuple[bytes, ...]:
    """`pieces(draw())` of the page these two keys name, kept in this process: what both keys
    name never changes, and a hit then neither glues, searches nor encodes ~70 kB of text."""
    if settings.DEBUG:
        return pieces(draw())
    key = f"sheet-pieces:{shell_key_}:{body_key}"
    found = content_cache.local_get(key)
    if found is None:
        found = pieces(draw())
        content_cache.local_put(key, found)
    return found


def with_token(cut: tuple[bytes, ...], token: str) -> bytes:
    return token.encode().join(cut)


def etag(body_key: str, shell_key_: str, request) -> str:
    """The page's validator: the body's and the shell's keys and this session's CSRF secret (the
    page carries a token of it), so a 304 never hands back a page whose forms would be refused.
    `get_token(request)` has been asked first (it makes the secret of a new session)."""
    secret = request.META.get("CSRF_COOKIE", "")
    text = f"{body_key}:{shell_key_}:{secret}"
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
