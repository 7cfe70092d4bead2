"""The sheet bench's in-process figures: CPU time and SQL statements of the sheet page and the
API detail — read again unchanged, read after another client's write, and drawn with the cache
emptied — and of a PATCH of one field, through Django's whole stack (middleware, session, user)
with the bench's settings: PostgreSQL, the shared cache in Redis, DEBUG off. Run inside the
bench's Django (`manage.py shell`); prints one JSON line.

Only public means: requests through `django.test.Client`, the other client's write as a real
write through the API (a PATCH of the Karma: the sheet gets a new version, so every key built on
it is new), and `cache.clear()` for a page drawn from nothing.
"""

from __future__ import annotations

import json

from _cost import request_cost

SAMPLES = 40


def sheet_costs(seed: dict) -> dict[str, dict]:
    """kind → {"ms": mean CPU ms, "queries": most statements seen}."""
    from django.core.cache import cache
    from django.test import Client

    pk = seed["character"]
    page = Client(HTTP_HOST="127.0.0.1")
    page.cookies["sessionid"] = seed["session"]
    api = {"HTTP_AUTHORIZATION": f"Token {seed['token']}", "HTTP_ACCEPT": "application/json"}
    other = Client(HTTP_HOST="127.0.0.1")
    writer = {"HTTP_AUTHORIZATION": f"Token {seed['writer']}", "HTTP_ACCEPT": "application/json"}
    sheet, detail = f"/characters/{pk}/", f"/api/characters/{pk}/"
    read = {}

    def read_version() -> None:
        read["version"] = other.get(detail, **writer).json()["version"]

    def patch():
        body = json.dumps({"karma": (read["version"] + 1) % 10, "version": read["version"]})
        answer = other.patch(detail, body, content_type="application/json", **writer)
        read["version"] = answer.json()["version"]
        return answer

    def written() -> None:
        """Another client's write, as the mixed load's: the Conteur's PATCH of the Karma."""
        read_version()
        patch()

    def forgotten() -> None:
        """A write, then nothing in the cache: the page drawn from nothing."""
        written()
        cache.clear()

    def measure(request, before=None) -> dict:
        return request_cost(request, samples=SAMPLES, before=before)

    return {
        "page de la fiche, en cache": measure(lambda: page.get(sheet)),
        "page de la fiche, hors cache (une écriture du Karma)": measure(
            lambda: page.get(sheet), written
        ),
        "page de la fiche, hors cache (rien en cache)": measure(lambda: page.get(sheet), forgotten),
        "API : détail, en cache": measure(lambda: page.get(detail, **api)),
        "API : détail, hors cache": measure(lambda: page.get(detail, **api), written),
        "API : PATCH d'un champ (BEGIN/COMMIT et jeton compris)": measure(patch, read_version),
    }


def main(seed: dict) -> None:
    print("BENCH-COST " + json.dumps(sheet_costs(seed)))
