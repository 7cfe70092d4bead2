"""DRF's content negotiation, its answer for an `Accept` header remembered.

Every API request parses its `Accept` header and matches it against the view's renderers; for
the API's clients the header is one of a handful (none, `*/*`, `application/json`), so each
process keeps the answer by header and renderers, and an API request after the first parses
nothing. A `?format=` override or a format suffix goes through DRF's own path, as does any
header the first time, whose refusal (406) is never remembered.
"""

from __future__ import annotations

from rest_framework.negotiation import DefaultContentNegotiation

ANSWERS_KEPT = 256  # a bound (the header is the client's): beyond it, learnt again


class RememberedNegotiation(DefaultContentNegotiation):
    _answers: dict[tuple, tuple[int, str]] = {}

    def select_renderer(self, request, renderers, format_suffix=None):
        if format_suffix or request.META.get("QUERY_STRING"):
            return super().select_renderer(request, renderers, format_suffix)
        key = (request.META.get("HTTP_ACCEPT"), *map(type, renderers))
        answer = self._answers.get(key)
        if answer is None:
            renderer, media_type = super().select_renderer(request, renderers, format_suffix)
            if len(self._answers) >= ANSWERS_KEPT:
                self._answers.clear()
            answer = self._answers[key] = (renderers.index(renderer), media_type)
        return renderers[answer[0]], answer[1]
