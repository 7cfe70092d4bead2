"""The idle poll answered before the middleware stack: one round trip to the shared cache.

Almost every poll of an open table page is "nothing new" and comes with the stamp of the page's
last answer (sessions/poll_stamp.py). The stamp names its user, so the session, the user and the
table's counter are read in one `get_many`; when the session still signs that user in, exactly
as `django.contrib.auth.get_user` would accept it (the backend whose cache holds the user, the
session's hash against the user's password hash, an active user), and the stamp is the one this
page, cursor and counter give, the answer is the 204 the view would give. Anything else — no
stamp, a session or user not in the cache, a counter that moved — goes on to the view, which
decides as it always does: nothing is answered here that the view would not answer. A poll that
goes on with its session checked (the counter moved: a new row) hands the view the user and the
counter it read (`handed_over`): the view then reads neither again.
"""

from __future__ import annotations

import re
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.crypto import constant_time_compare

from altherion.auth_backends import user_cache_key
from sessions import poll_stamp

CACHED_BACKEND = "altherion.auth_backends.CachedUserBackend"
_MARKER = 987654321


def _poll_path() -> re.Pattern:
    """`/campaigns/<pk>/table/poll/` as the URLconf spells it, under the site's script prefix
    (matched against `request.path`, which carries it)."""
    path = reverse("sessions:poll", args=[_MARKER])
    return re.compile(re.escape(path).replace(str(_MARKER), r"([0-9]{1,18})"))


def _signed_in(session: dict | None, user, user_id: int) -> bool:
    """The cached session signs in the cached user, as `get_user` checks it."""
    if not session or user is None or not getattr(user, "is_active", False):
        return False
    return (
        session.get(SESSION_KEY) == str(user_id)
        and session.get(BACKEND_SESSION_KEY) == CACHED_BACKEND
        and constant_time_compare(session.get(HASH_SESSION_KEY), user.get_session_auth_hash())
    )


def idle_answer(request: HttpRequest, pattern: re.Pattern, store) -> HttpResponse | None:
    """The view's 204 for a stamped idle poll, or None for the view to answer."""
    found = pattern.fullmatch(request.path) if request.method == "GET" else None
    given = request.GET.get("stamp", "") if found else ""
    user_id = poll_stamp.stamp_user(given)
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    after = poll_stamp.row_id(request.GET.get("after", "0")) if user_id else None
    if after is None or not session_key:
        return None
    raw_filter = request.GET.get("filter")
    filter_id = poll_stamp.row_id(raw_filter)
    if raw_filter is not None and filter_id is None:
        return None
    campaign_id = int(found[1])
    session_cache_key = store(session_key).cache_key
    gen_key, user_key = poll_stamp.generation_key(campaign_id), user_cache_key(user_id)
    values = cache.get_many([session_cache_key, user_key, gen_key])
    gen, user = values.get(gen_key), values.get(user_key)
    if not _signed_in(values.get(session_cache_key), user, user_id):
        return None
    handed_over(request, user, campaign_id, gen)
    if gen is None:
        return None
    asked = {"user_id": user_id, "campaign_id": campaign_id, "filter_id": filter_id}
    if not poll_stamp.still_fresh(given, after=after, gen=gen, **asked):
        return None
    response = HttpResponse(status=204)
    response["X-Table-Cursor"] = str(after)
    response["X-Table-Stamp"] = given
    response["Cache-Control"] = "private, no-store"
    response["Vary"] = "Cookie"
    return response


def handed_over(request: HttpRequest, user, campaign_id: int, gen: int | None) -> None:
    """What the view would read again if the poll goes on to it (the counter moved), read here
    before its statement: the user this session signs in, checked as `get_user` checks it, in
    `django.contrib.auth`'s own memo of the request's user (neither the session nor the user is
    read again), and the table's counter (`poll_stamp.generation_for`)."""
    request._cached_user = user
    if gen is not None:
        request.table_generation = (campaign_id, gen)


class IdlePollMiddleware:
    """Answers a stamped idle poll (`idle_answer`) before the session middleware. Placed after
    the security middleware (its headers) and before the session middleware; it is off unless
    sessions live in the default cache, where the user and the counter are."""

    def __init__(self, get_response):
        self.get_response = get_response
        engine = import_module(settings.SESSION_ENGINE)
        self.store = engine.SessionStore
        self.enabled = (
            settings.SESSION_ENGINE.endswith(("backends.cache", "backends.cached_db"))
            and settings.SESSION_CACHE_ALIAS == "default"
            and CACHED_BACKEND in settings.AUTHENTICATION_BACKENDS
        )
        self.pattern = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.enabled:
            if self.pattern is None:
                self.pattern = _poll_path()
            answer = idle_answer(request, self.pattern, self.store)
            if answer is not None:
                return answer
        return self.get_response(request)
