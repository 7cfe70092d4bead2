"""Isolation between campaigns, walked over the whole URLconf.

A player of campaign A builds every URL of the site that takes a row id with the real ids of
campaign B's rows (the campaign, its arcs, sessions, members, invitations, compendium entries,
characters and their history, rolls, injuries, ellipses, trainings, the bestiary and fights) and
tries every method on it: each answer is 404 (or 405 where the route takes no such method at all,
whatever the id), and no row anywhere changed. A route with a new kind of id fails the test until it is covered here.
Then: no one but B's Conteur ever sees the Conteur's hidden rolls, and no one but the owner and
the Conteur sees a character's private notes — in pages, the poll, the API and the export.
"""

import json

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.hardening.conftest import B_ONLY, HIDDEN_ROLL, PRIVATE_NOTE

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]
# Namespaces not reachable by players at all (Django's admin answers non-staff with its login).
OUT_OF_SCOPE = {"admin"}

# Which of B's rows a named id parameter takes, whatever the route.
ROW_BY_PARAM = {
    "campaign_id": "campaign",
    "campaign_pk": "campaign",
    "membership_pk": "membership",
    "invitation_pk": "invitation",
    "arc_pk": "arc",
    "arc_id": "arc",
    "session_pk": "play_session",
    "roll_pk": "roll",
    "injury_pk": "injury",
    "character_pk": "character",
    "character_id": "character",
    "training_pk": "training",
    "training_id": "training",
    "ellipse_pk": "ellipse",
    "ellipse_id": "ellipse",
    "change_pk": "change",
    "block_pk": "stat_block",
    "encounter_pk": "encounter",
    "combatant_pk": "combatant",
    "combatant_id": "combatant",
    "event_pk": "fortune_request",
    "page_pk": "world_page",
    "revision_pk": "world_revision",
    "handout_pk": "world_handout",
}
# What a bare `pk` is, by namespace (and, in the APIs, by the route name's first word).
PK_BY_NAMESPACE = {
    "campaigns": "campaign",
    "sessions": "campaign",
    "progression": "campaign",
    "world": "campaign",
    "handouts": "campaign",
    "characters": "character",
    "characters_api": "character",
}
PK_BY_API_ROUTE = {
    "campaign": "campaign",
    "member": "membership",
    "invitation": "invitation",
    "arc": "arc",
    "play-session": "play_session",
    "roll": "roll",
    "injury": "injury",
    "stat-block": "stat_block",
    "encounter": "encounter",
    "combatant": "encounter",  # encounters/<pk>/combatants/<combatant_id>/
    "fortune": "fortune_request",  # morale/fortune/requests/<pk>/answer/
    "page": "world_page",  # world/pages/<pk>/…
    "handout": "world_handout",  # world/handouts/<pk>/
}
# Values of the text parameters: each is tried with every value.
TEXT_VALUES = {
    "field": ["name", "notes", "private_notes"],
    "key": ["melee", "occidental"],
    "relation": ["classes", "assets", "flaws"],
}
COMPENDIUM_SLUGS = ["species", "classes", "branches", "abilities", "assets", "flaws", "spells"]


def _walk(patterns, namespace="", converters=None):
    for entry in patterns:
        found = {**(converters or {}), **entry.pattern.converters}
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry.url_patterns, inner, found)
        elif isinstance(entry, URLPattern) and entry.name:
            yield namespace, entry.name, found


def _is_id(converter) -> bool:
    return converter.regex.startswith("[0-9]")


def routes_with_ids():
    """(namespace, name, {param: converter}) of every named route that takes a row id."""
    return [
        (namespace, name, params)
        for namespace, name, params in _walk(get_resolver().url_patterns)
        if namespace.split(":")[0] not in OUT_OF_SCOPE and any(map(_is_id, params.values()))
    ]


def routes_without_ids():
    return [
        (namespace, name, params)
        for namespace, name, params in _walk(get_resolver().url_patterns)
        if namespace.split(":")[0] not in OUT_OF_SCOPE and not any(map(_is_id, params.values()))
    ]


def _pk_row(namespace: str, name: str) -> str:
    if namespace in PK_BY_NAMESPACE:
        return PK_BY_NAMESPACE[namespace]
    if name.startswith("compendium-"):
        return "compendium:" + name.split("-")[1]
    for prefix, row in PK_BY_API_ROUTE.items():
        if name.startswith(prefix + "-") or name == prefix:
            return row
    raise AssertionError(f"{namespace}:{name}: what is its `pk`? Cover the route in this test.")


def _row_pk(rows: dict, row: str, kind: str | None) -> int:
    if row.startswith("compendium:"):
        return rows["compendium"][row.split(":")[1]].pk
    if row == "compendium":
        return rows["compendium"][kind].pk
    return rows[row].pk


def urls_for(rows: dict, namespace: str, name: str, params: dict) -> list[str]:
    """Every URL of the route built with the rows' ids (one per value of its text params)."""
    variants = [{}]
    for param in params:
        if param == "kind":
            values = COMPENDIUM_SLUGS
        elif param in TEXT_VALUES:
            values = TEXT_VALUES[param]
        elif param == "token":
            values = [rows["invitation"].token]
        else:
            continue
        variants = [{**v, param: value} for v in variants for value in values]
    urls = []
    for variant in variants:
        kwargs = dict(variant)
        for param, converter in params.items():
            if not _is_id(converter):
                assert param in variant, f"{namespace}:{name}: no value for <{param}>"
                continue
            if param == "pk":
                row = _pk_row(namespace, name)
            elif param == "entry_pk":
                row = "compendium"
            else:
                assert param in ROW_BY_PARAM, (
                    f"{namespace}:{name}: which row is <{param}>? Cover the route in this test."
                )
                row = ROW_BY_PARAM[param]
            kwargs[param] = _row_pk(rows, row, variant.get("kind"))
        urls.append(reverse(f"{namespace}:{name}", kwargs=kwargs))
    return urls


def snapshot() -> dict:
    """Every row of the project's apps, field by field."""
    state = {}
    for label in ("campaigns", "characters", "play", "progression", "world", "authtoken"):
        for model in apps.get_app_config(label).get_models():
            state[model._meta.label] = list(model.objects.order_by("pk").values())
    state["auth.User"] = list(
        apps.get_model("auth", "User").objects.order_by("pk").values("pk", "username", "password")
    )
    return state


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode(errors="replace")


@pytest.mark.django_db
def test_every_route_with_an_id_is_covered_and_points_at_a_row_of_b(two_campaigns):
    routes = routes_with_ids()
    # The walk does see the whole site: pages and APIs of every app.
    namespaces = {namespace for namespace, _name, _params in routes}
    assert {
        "campaigns",
        "sessions",
        "progression",
        "characters",
        "campaigns_api",
        "sessions_api",
        "progression_api",
        "characters_api",
    } <= namespaces
    assert len(routes) > 80
    for namespace, name, params in routes:
        assert urls_for(two_campaigns.b, namespace, name, params), (namespace, name)


@pytest.mark.django_db
def test_a_player_of_a_gets_404_for_everything_of_b_and_changes_nothing(two_campaigns):
    client = _client(two_campaigns.player_a)
    before = snapshot()
    answered = {}
    for namespace, name, params in routes_with_ids():
        statuses = set()
        for url in urls_for(two_campaigns.b, namespace, name, params):
            for method in METHODS:
                response = client.generic(
                    method, url, data=json.dumps({}), content_type="application/json"
                )
                statuses.add(response.status_code)
                assert response.status_code in (404, 405), (
                    f"{method} {url} ({namespace}:{name}) answered {response.status_code}"
                )
                assert B_ONLY not in _body(response), (method, url)
        answered[f"{namespace}:{name}"] = statuses
    not_found_once = [route for route, statuses in answered.items() if 404 not in statuses]
    assert not not_found_once, f"never reached the campaign check: {not_found_once}"
    assert snapshot() == before


@pytest.mark.django_db
def test_the_same_urls_with_as_own_ids_do_answer(two_campaigns):
    """The walk is not vacuous: with A's own ids, A's player gets pages and data back."""
    client = _client(two_campaigns.player_a)
    found = 0
    for namespace, name, params in routes_with_ids():
        for url in urls_for(two_campaigns.a, namespace, name, params):
            if client.get(url).status_code in (200, 302):
                found += 1
    assert found > 40


@pytest.mark.django_db
def test_lists_and_pages_without_ids_never_show_b_to_a_player_of_a(two_campaigns):
    client = _client(two_campaigns.player_a)
    seen = 0
    for namespace, name, params in routes_without_ids():
        # The user's event stream never ends: what it carries is tests/sessions/test_stream.py's.
        if params or name in ("logout", "live"):
            continue
        url = reverse(f"{namespace}:{name}" if namespace else name)
        response = client.get(url)
        assert response.status_code < 500, url
        assert B_ONLY not in _body(response), url
        seen += 1
    assert seen >= 10
    # A list that does reach B's name for B's own player: the marker would be seen.
    assert B_ONLY in _client(two_campaigns.player_b).get(reverse("campaigns:list")).content.decode()


# --- hidden rolls and private notes, even inside B ------------------------------------------


def _b_views(b) -> list[str]:
    campaign, character = b["campaign"].pk, b["character"].pk
    return [
        reverse("sessions:table", args=[campaign]),
        reverse("sessions:poll", args=[campaign]) + "?after=0",
        reverse("sessions:session_table", args=[campaign, b["play_session"].pk]),
        reverse("campaigns:dashboard", args=[campaign]),
        reverse("characters:sheet", args=[character]),
        reverse("characters:history", args=[character]),
        reverse("sessions_api:roll-list", kwargs={"campaign_id": campaign}),
        reverse("sessions_api:log", kwargs={"campaign_id": campaign}),
        reverse("characters_api:list"),
        reverse("characters_api:detail", kwargs={"pk": character}),
        reverse("characters_api:history", kwargs={"pk": character}),
        reverse("characters_api:export", kwargs={"pk": character}),
        reverse("progression:notifications"),
        reverse("progression_api:notification-list"),
    ]


def _bodies(user, urls) -> str:
    client = _client(user)
    bodies = []
    for url in urls:
        response = client.get(url, HTTP_HX_REQUEST="true" if "poll" in url else None)
        assert response.status_code in (200, 204), (url, response.status_code)
        bodies.append(_body(response))
    return "\n".join(bodies)


@pytest.mark.django_db
def test_another_player_of_b_never_sees_the_hidden_roll_nor_the_private_notes(two_campaigns):
    b = two_campaigns.b
    seen = _bodies(two_campaigns.player_b, _b_views(b))
    assert "Dorn" in seen  # B's player does see B's character and its public roll…
    assert f"Jet {B_ONLY}" in seen
    assert HIDDEN_ROLL not in seen  # …never the Conteur's hidden roll…
    assert PRIVATE_NOTE not in seen  # …nor the owner's private notes (not even in history)
    hidden = reverse(
        "sessions_api:roll-detail",
        kwargs={"campaign_id": b["campaign"].pk, "pk": b["hidden_roll"].pk},
    )
    assert _client(two_campaigns.player_b).get(hidden).status_code == 404


@pytest.mark.django_db
def test_the_owner_sees_the_private_notes_but_not_the_hidden_roll(two_campaigns):
    seen = _bodies(two_campaigns.owner_b, _b_views(two_campaigns.b))
    assert PRIVATE_NOTE in seen
    assert HIDDEN_ROLL not in seen


@pytest.mark.django_db
def test_the_conteur_of_b_sees_both(two_campaigns):
    """The markers do reach the pages for their rightful reader: the tests above can fail."""
    seen = _bodies(two_campaigns.storyteller_b, _b_views(two_campaigns.b))
    assert HIDDEN_ROLL in seen
    assert PRIVATE_NOTE in seen
