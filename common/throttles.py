"""The API's throttles, counting in the shared cache (Redis when configured, so every process and
node counts together). If that cache is unreachable they let the request through and say so in
the log: a throttle must never take the API down with it."""

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


class UserRateThrottle(_FailOpen, throttling.UserRateThrottle):
    pass


class AnonRateThrottle(_FailOpen, throttling.AnonRateThrottle):
    pass


class ScopedRateThrottle(_FailOpen, throttling.ScopedRateThrottle):
    pass
