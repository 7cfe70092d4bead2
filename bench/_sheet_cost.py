"""The sheet bench's in-process figures: CPU time and SQL statements of the sheet page and the
API detail, from the cache and on a miss, and of a PATCH of one field — through Django's whole
stack (middleware, session, user) with the bench's settings: PostgreSQL, the shared cache in
Redis, DEBUG off. Run inside the bench's Django (`manage.py shell`); prints one JSON line.

A miss is made by moving the sheet's version behind the services' back (a queryset update), so
that nothing has refreshed the cache: what the first reader after another client's write pays.
"""

from __future__ import annotations

import json

from _cost import request_cost

SAMPLES = 40


def sheet_costs(seed: dict) -> dict[str, dict]:
    """kind → {"ms": mean CPU ms, "queries": most statements seen}."""
    from django.db.models import F
    from django.test import Client

    from characters.models import Character

    pk = seed["character"]
    page = Client(HTTP_HOST="127.0.0.1")
    page.cookies["sessionid"] = seed["session"]
    api = {"HTTP_AUTHORIZATION": f"Token {seed['token']}", "HTTP_ACCEPT": "application/json"}
    writer = {**api, "HTTP_AUTHORIZATION": f"Token {seed['writer']}"}
    sheet, detail = f"/characters/{pk}/", f"/api/characters/{pk}/"

    def moved() -> None:
        Character.objects.filter(pk=pk).update(version=F("version") + 1)

    def patch():
        version = Character.objects.values_list("version", flat=True).get(pk=pk)
        body = json.dumps({"karma": (version + 1) % 10, "version": version})
        return page.patch(detail, body, content_type="application/json", **writer)

    def measure(request, before=None) -> dict:
        return request_cost(request, samples=SAMPLES, before=before)

    return {
        "page de la fiche, en cache": measure(lambda: page.get(sheet)),
        "page de la fiche, hors cache": measure(lambda: page.get(sheet), moved),
        "API : détail, en cache": measure(lambda: page.get(detail, **api)),
        "API : détail, hors cache": measure(lambda: page.get(detail, **api), moved),
        "API : PATCH d'un champ (BEGIN/COMMIT et jeton compris)": measure(patch),
    }


def main(seed: dict) -> None:
    print("BENCH-COST " + json.dumps(sheet_costs(seed)))
