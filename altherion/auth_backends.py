"""Signing in: django-axes' lockout check for logins that come with a request, the French page a
locked-out login gets, and the signed-in user (by session or API token) read from the shared
cache."""

import hashlib

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token

from common import counted_read, throttles, user_prefetch


class LoginAttemptsBackend(AxesStandaloneBackend):
    """Refuses a login while its username+address pair is locked out (django-axes).

    A login from a web request (the login form, the admin) always carries the request. Code
    without one (management commands, the test client's `login()`) has no address to lock out:
    it is left to the next backend instead of failing, as django-axes' own backend would.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


# How long a signed-in user's row is kept in the shared cache. Every save or deletion of the row
# drops it at once (`forget_user`); the timeout bounds only writes that bypass the model (a
# queryset's update(), raw SQL).
USER_CACHE_SECONDS = 300


def user_cache_key(user_id) -> str:
    return f"auth-user:{user_id}"


class CachedUserBackend(ModelBackend):
    """Django's model backend, the user of a signed-in request read from the shared cache.

    Every request of a signed-in page (the table polls every 1.5 s) would otherwise load the
    user's row; from the cache it costs no query. Nothing of the checks is lost: Django still
    compares the session's hash with the cached user's password hash (a password change signs
    the other sessions out), and an inactive user is refused here as by ModelBackend.
    """

    def get_user(self, user_id, *, token_entry: str | None = None):
        """The user, or None; with `token_entry`, the user only if the cache still names them
        under that token entry, read in the same round trip (else UNCONFIRMED)."""
        return self.user_counting(user_id, token_entry=token_entry)[0]

    def user_counting(self, user_id, *, token_entry: str | None = None, counters=None):
        """`get_user`'s answer, and the throttle `counters` counted in the same round trip
        (common/counted_read.py): their counts, {} where the throttle counts itself."""
        key = user_cache_key(user_id)
        extra = user_prefetch.keys_for(user_id)
        counts = {}
        if extra or token_entry or counters:  # in the same round trip (common/user_prefetch.py)
            keys = [key, *extra, *([token_entry] if token_entry else [])]
            values, counts = counted_read.read_counting(keys, counters or {})
            if token_entry and values.get(token_entry) != user_id:
                return UNCONFIRMED, counts
            user_prefetch.keep({name: values.get(name) for name in extra})
            user = values.get(key)
        else:
            user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is None:
                return None, counts
            cache.set(key, user, USER_CACHE_SECONDS)
        return (user if self.user_can_authenticate(user) else None), counts


def token_cache_key(key: str) -> str:
    """The cache names a token by its digest: the cache never holds a usable secret."""
    return "auth-token:" + hashlib.sha256(key.encode()).hexdigest()


UNCONFIRMED = object()  # `get_user(token_entry=…)`: the cache no longer names that user there

# Whose each token is, as this process last saw the shared cache say (a token never changes
# hands: regenerating one makes a new key). Only a hint of which user to read with the token's
# entry; the entry itself, read in the same round trip, still decides.
_token_users: dict[str, int] = {}
TOKEN_HINTS = 4096


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, the token's user id kept in the shared cache and the user
    read as `CachedUserBackend` reads it: an API request after the first loads neither row, and
    a token this process has seen costs one round trip to the cache (its entry, its user, and its
    count in the view's user throttle: common/counted_read.py).

    A deleted token (revoked, regenerated, its account deleted) is dropped from the cache at
    once (`forget_token`); an inactive user is refused by DRF's own check, with its message."""

    def authenticate(self, request):
        self.request = request  # its view's throttle is counted with the user's read
        return super().authenticate(request)

    def authenticate_credentials(self, key):
        entry = token_cache_key(key)
        hinted = _token_users.get(entry)
        if hinted is not None:
            request = getattr(self, "request", None)
            user, counts = CachedUserBackend().user_counting(
                hinted, token_entry=entry, counters=throttles.counters_for(request, hinted)
            )
            if user is not None and user is not UNCONFIRMED:
                throttles.keep_counts(request, counts)
                return user, _token(key, user)
        user_id = cache.get(entry)
        if user_id is not None:
            user = CachedUserBackend().get_user(user_id)
            if user is not None:
                _remember(entry, user_id)
                return user, _token(key, user)
        user, token = super().authenticate_credentials(key)
        cache.set(entry, user.pk, USER_CACHE_SECONDS)
        _remember(entry, user.pk)
        # The user cached as a session's is (not this instance: it holds its token).
        return CachedUserBackend().get_user(user.pk) or user, token


class CookieSessionAuthentication(SessionAuthentication):
    """DRF's session authentication, passed at once by a request without a session cookie (an
    API client's, with its token): Django would find no session and an anonymous user."""

    def authenticate(self, request):
        if settings.SESSION_COOKIE_NAME not in request._request.COOKIES:
            return None
        return super().authenticate(request)


_TOKEN_FIELDS = ("key", "user_id", "created")


def _token(key: str, user) -> Token:
    """The request's token (its `auth`), as read with its user (not its creation date)."""
    token = Token.from_db(None, _TOKEN_FIELDS, (key, user.pk, None))
    token._state.fields_cache["user"] = user
    return token


def _remember(entry: str, user_id: int) -> None:
    if len(_token_users) >= TOKEN_HINTS:
        _token_users.clear()  # a bound, not a cache policy: the next requests learn them again
    _token_users[entry] = user_id


def forget_token(sender, instance, **kwargs) -> None:
    """Drops a token from the cache when it is saved or deleted (connected in AltherionConfig):
    at once and again at commit, as `forget_user`."""
    key = token_cache_key(instance.key)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key), robust=True)


def forget_user(sender, instance, **kwargs) -> None:
    """Drops a user's cached row when the row is saved or deleted (connected in AltherionConfig):
    at once, and again at commit, since a request that read the row before the commit may have
    put the old row back (an old password hash would keep other sessions signed in)."""
    key = user_cache_key(instance.pk)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key), robust=True)


def lockout_response(request, response, credentials) -> HttpResponse:
    """What a locked-out login gets (AXES_LOCKOUT_CALLABLE): 429, in French, with the wait — the
    page for the login form, the API's JSON error for /api/auth/token/."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    if request.path.startswith("/api/"):
        message = ngettext(
            "Trop d'échecs de connexion : réessayez dans %(minutes)d minute.",
            "Trop d'échecs de connexion : réessayez dans %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
        page = JsonResponse({"detail": message, "errors": {}}, status=429)
    else:
        context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": minutes}
        page = render(request, "registration/lockout.html", context, status=429)
    page["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return page
