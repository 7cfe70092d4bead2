"""The table bench's in-process figures of the poll: CPU time and SQL statements of each kind of
poll a page makes, through Django's whole stack (middleware, session, user) with the bench's
settings — PostgreSQL, the shared cache in Redis, DEBUG off.

Kinds: nothing new (without, then with the stamp of the page's last answer); a secret roll the player may not see; a new row already rendered by another
page of the same kind (what nearly every open page gets after a roll); the first page of its
kind to ask (it renders the row and keeps it); the Conteur's page for a new row. And the table
page itself, for the Conteur and for a player.
"""

from __future__ import annotations

import json

from _cost import request_cost

SAMPLES = 100


def poll_costs(data: dict, roll, newest_event) -> dict[str, dict]:
    """kind → {"ms": mean CPU ms, "queries": most statements seen}."""
    from django.test import Client

    storyteller, player = _page(data["sessions"][0], Client), _page(data["sessions"][2], Client)
    # Another page of the same viewer (their other session) asks first.
    first = {id(storyteller): _page(data["sessions"][5], Client)}
    first[id(player)] = _page(data["sessions"][7], Client)
    api = Client(HTTP_HOST="127.0.0.1")
    path = f"/campaigns/{data['campaign']}/table/poll/"

    def land(visibility: str) -> None:
        method, url, body, headers = roll(0, {})
        payload = {**json.loads(body), "visibility": visibility}
        answer = api.post(
            url,
            json.dumps(payload),
            content_type=headers["Content-Type"],
            HTTP_AUTHORIZATION=headers["Authorization"],
        )
        if answer.status_code != 201:
            raise SystemExit(f"POST rolls/ → {answer.status_code}: {answer.content[:200]!r}")

    def measure(page, visibility: str | None, warmed: bool, status: int) -> dict:
        cursor = {}

        def before() -> None:
            cursor["after"] = newest_event()
            if visibility:
                land(visibility)
                if warmed:
                    first[id(page)].get(path, cursor, HTTP_HX_REQUEST="true")

        def poll():
            return page.get(path, cursor, HTTP_HX_REQUEST="true")

        return request_cost(poll, samples=SAMPLES, before=before, status=status)

    def table_page(page) -> dict:
        """The table page itself (its last rows of the log, their rows from the shared cache
        once a first page rendered them)."""
        path = f"/campaigns/{data['campaign']}/table/"
        return request_cost(lambda: page.get(path), samples=SAMPLES // 4)

    def stamped() -> dict:
        """Nothing new, asked with the stamp of the last answer, as the page asks."""
        cursor = {"after": newest_event()}
        first = player.get(path, cursor, HTTP_HX_REQUEST="true")
        cursor["stamp"] = first["X-Table-Stamp"]
        return request_cost(
            lambda: player.get(path, cursor, HTTP_HX_REQUEST="true"), samples=SAMPLES, status=204
        )

    return {
        "page de la table, Conteur": table_page(storyteller),
        "rien de neuf, avec le tampon de la réponse d'avant": stamped(),
        "page de la table, joueur": table_page(player),
        "rien de neuf": measure(player, None, False, 204),
        "un jet secret d'un autre": measure(player, "storyteller", False, 204),
        "une ligne neuve, déjà rendue par une autre page": measure(player, "public", True, 200),
        "une ligne neuve, Conteur, déjà rendue": measure(storyteller, "public", True, 200),
        "une ligne neuve, première page à la demander": measure(player, "public", False, 200),
    }


def _page(session: str, client_class):
    page = client_class(HTTP_HOST="127.0.0.1")
    page.cookies["sessionid"] = session
    return page
