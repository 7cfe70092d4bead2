"""The API's throttles, counting in the shared cache (Redis when configured, so every process and
node counts together). If that cache is unreachable they let the request through and say so in
the log: a throttle must never take the API down with it.

Each client's requests are counted in one cache counter per window: the window opens with the
client's first request and lasts the rate's period (a minute for `600/min`), and each request is
one `incr`. DRF's own throttle keeps instead the list of every timestamp of the last period,
read and written whole on every request (up to 600 floats, pickled both ways, at the default
rate)."""

import logging

from rest_framework import throttling

log = logging.getLogger(__name__)


class _FailOpen:
    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except Exception as error:  # the cache backend's own errors (redis' ConnectionError…)
            log.warning("throttle cache unavailable, request let through: %s", error)
            return True


class _Counted(throttling.SimpleRateThrottle):
    """SimpleRateThrottle's count, kept in one counter (placed after DRF's subclasses, which set
    the scope and rate, in each throttle's MRO)."""

    # Not DRF's key: a counter never lands on a list DRF's throttle left in the cache.
    cache_format = "throttle-count_%(scope)s_%(ident)s"

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        count = (getattr(request, "throttle_counts", None) or {}).pop(self.key, None)
        return (self._counted() if count is None else count) <= self.num_requests

    def _counted(self) -> int:
        try:
            return self.cache.incr(self.key)
        except ValueError:  # no window open for this client: this request opens one
            self.cache.add(f"{self.key}:since", self.now, self.duration)
            if self.cache.add(self.key, 1, self.duration):
                return 1
            return self.cache.incr(self.key)  # another process opened it meanwhile

    def wait(self) -> float:
        """Seconds until the client's window closes (and its count starts again)."""
        since = self.cache.get(f"{self.key}:since", self.now)
        return max(self.duration - (self.now - since), 1)


class UserRateThrottle(_FailOpen, throttling.UserRateThrottle, _Counted):
    pass


def counters_for(request, user_id: int) -> dict[str, tuple[int, float]]:
    """The counter of the user throttle of the view `request` goes to, with its period and the
    time now, when `user_id` is who sends it: counted in the round trip that reads that user
    (common/counted_read.py), its count then kept for the throttle (`keep_counts`)."""
    view = (getattr(request, "parser_context", None) or {}).get("view")
    for throttle in view.get_throttles() if view is not None else ():
        if isinstance(throttle, UserRateThrottle) and throttle.rate is not None:
            key = throttle.cache_format % {"scope": throttle.scope, "ident": user_id}
            return {key: (throttle.duration, throttle.timer())}
    return {}


def keep_counts(request, counts: dict[str, int]) -> None:
    """The counts made with the user's read: the throttle uses them instead of counting again."""
    if counts:
        request.throttle_counts = counts


class AnonRateThrottle(_FailOpen, throttling.AnonRateThrottle, _Counted):
    pass


class ScopedRateThrottle(_FailOpen, throttling.ScopedRateThrottle, _Counted):
    pass
