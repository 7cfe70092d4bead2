"""The sheet bench's in-process figures: CPU time and SQL statements of the sheet page and the
API detail, from the cache and on a miss, and of a PATCH of one field — through Django's whole
stack (middleware, session, user) with the bench's settings: PostgreSQL, the shared cache in
Redis, DEBUG off. Run inside the bench's Django (`manage.py shell`); prints one JSON line.

A miss is made by changing the sheet behind the services' back (a queryset update of its Karma and
version, as the mixed load's writer does), so that nothing has refreshed the cache: what the first
reader after another client's write pays; and with the cache emptied as well, the page drawn from
nothing (every part of its body: characters/sheet_parts.py).
"""

from __future__ import annotations

import json

from _cost import request_cost

SAMPLES = 40


def sheet_costs(seed: dict) -> dict[str, dict]:
    """kind → {"ms": mean CPU ms, "queries": most statements seen}."""
    from django.core.cache import cache
    from django.db.models import F
    from django.test import Client

    from characters import probe_cache
    from characters.models import Character
    from common import content_cache

    pk = seed["character"]
    page = Client(HTTP_HOST="127.0.0.1")
    page.cookies["sessionid"] = seed["session"]
    api = {"HTTP_AUTHORIZATION": f"Token {seed['token']}", "HTTP_ACCEPT": "application/json"}
    writer = {**api, "HTTP_AUTHORIZATION": f"Token {seed['writer']}"}
    sheet, detail = f"/characters/{pk}/", f"/api/characters/{pk}/"

    def moved() -> None:
        """Another client's write, as the mixed load's: the Karma and a new version (and the
        sheet's counter moved, as every write of the row moves it: characters/probe_cache.py)."""
        Character.objects.filter(pk=pk).update(karma=F("karma") + 1, version=F("version") + 1)
        probe_cache.sheet_moved(pk)

    def forgotten() -> None:
        """A miss of every part of the page: a new version, and nothing of it in the cache."""
        moved()
        cache.delete_pattern("sheet-part:*")  # the bench's cache is django-redis's
        content_cache.clear_local()

    def patch():
        version = Character.objects.values_list("version", flat=True).get(pk=pk)
        body = json.dumps({"karma": (version + 1) % 10, "version": version})
        return page.patch(detail, body, content_type="application/json", **writer)

    def measure(request, before=None) -> dict:
        return request_cost(request, samples=SAMPLES, before=before)

    return {
        "page de la fiche, en cache": measure(lambda: page.get(sheet)),
        "page de la fiche, hors cache (une écriture du Karma)": measure(
            lambda: page.get(sheet), moved
        ),
        "page de la fiche, hors cache (rien en cache)": measure(lambda: page.get(sheet), forgotten),
        "API : détail, en cache": measure(lambda: page.get(detail, **api)),
        "API : détail, hors cache": measure(lambda: page.get(detail, **api), moved),
        "API : PATCH d'un champ (BEGIN/COMMIT et jeton compris)": measure(patch),
    }


def main(seed: dict) -> None:
    print("BENCH-COST " + json.dumps(sheet_costs(seed)))
