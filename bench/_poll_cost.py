"""The table bench's in-process figures of the poll: CPU time and SQL statements of each kind of
poll a page makes, through Django's whole stack (middleware, session, user) with the bench's
settings — PostgreSQL, the shared cache in Redis, DEBUG off — by requests through
`django.test.Client` and rolls made through the API, as the pages and the players make them.

Kinds: nothing new; a secret roll the player may not see; a new row another page of the same
viewer asked for first (what nearly every open page gets after a roll); the first page to ask
for a new row; the Conteur's page for a new row. And the table page itself, for the Conteur and
for a player.
"""

from __future__ import annotations

import json

from _cost import request_cost

SAMPLES = 100
# A poll with nothing to show answers 204, or an empty fragment where the page's script wants one.
NOTHING_NEW = (200, 204)


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

    def measure(page, visibility: str | None, warmed: bool, status: int | tuple) -> dict:
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
        """The table page itself, with the last rows of its log."""
        path = f"/campaigns/{data['campaign']}/table/"
        return request_cost(lambda: page.get(path), samples=SAMPLES // 4)

    return {
        "page de la table, Conteur": table_page(storyteller),
        "page de la table, joueur": table_page(player),
        "rien de neuf": measure(player, None, False, NOTHING_NEW),
        "un jet secret d'un autre": measure(player, "storyteller", False, NOTHING_NEW),
        "une ligne neuve, déjà rendue par une autre page": measure(player, "public", True, 200),
        "une ligne neuve, Conteur, déjà rendue": measure(storyteller, "public", True, 200),
        "une ligne neuve, première page à la demander": measure(player, "public", False, 200),
    }


def _page(session: str, client_class):
    page = client_class(HTTP_HOST="127.0.0.1")
    page.cookies["sessionid"] = session
    return page
