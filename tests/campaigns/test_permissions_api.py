"""Every API endpoint of the campaigns, every method, every persona: the status each one gets.

anonymous → 401 (JSON, `WWW-Authenticate: Token`); outsider → 404 for anything inside a campaign
(its existence is never revealed); player → 200 on reads, 403 on the Conteur's actions; Conteur →
the success status. The table must name every route of the `campaigns_api` namespace and every
method its view allows. Personas run in that order, the Conteur last, so the refusals happen
against the same rows the Conteur's request then changes.
"""

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns import api_urls, webhooks
from campaigns.models import Membership
from sessions import api_urls as session_api_urls

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "player", "storyteller")


def expect(*, outsider, player, storyteller):
    return {"anonymous": 401, "outsider": outsider, "player": player, "storyteller": storyteller}


READ = expect(outsider=404, player=200, storyteller=200)
ANY_USER = expect(outsider=200, player=200, storyteller=200)


def conteur(status):
    return expect(outsider=404, player=403, storyteller=status)


ENTRY_DATA = {
    "species": lambda w: {
        "name": "Ondin",
        "favourite_characteristics": ["will"],
        "modifiers": {"will": 1},
    },
    "classes": lambda w: {"name": "Mage", "tier": "founding"},
    "branches": lambda w: {"name": "Veilleur", "character_class": w["compendium"]["classes"].pk},
    "abilities": lambda w: {"name": "Parade", "tier": "founding", "cost": 1},
    "assets": lambda w: {"name": "Polyglotte", "cost": 2},
    "flaws": lambda w: {"name": "Myope", "value": 2},
    "spells": lambda w: {"name": "Éclair", "energy_cost": 2},
}


def _campaign(w):
    return {"campaign_id": w["campaign"].pk}


def _hooked(w):
    """The campaign, with a webhook (the Conteur's; its address never reaches anyone else)."""
    webhooks.webhook_save(campaign=w["campaign"], url="https://discord.com/api/webhooks/1/a")
    return _campaign(w)


def _object(key):
    return lambda w: {"campaign_id": w["campaign"].pk, "pk": w[key].pk}


def _entry(slug):
    return lambda w: {"campaign_id": w["campaign"].pk, "pk": w["compendium"][slug].pk}


# route name → (url kwargs, {method: (request body, expected status by persona)})
MATRIX = {
    "campaign-list": (
        lambda w: {},
        {
            "GET": (None, ANY_USER),
            "POST": (
                lambda w: {"name": "Nouvelle table"},
                expect(outsider=201, player=201, storyteller=201),
            ),
        },
    ),
    "campaign-detail": (
        _campaign,
        {"GET": (None, READ), "PATCH": (lambda w: {"name": "Renommée"}, conteur(200))},
    ),
    # Any member may leave; the Conteur must hand the role over first.
    "campaign-leave": (
        _campaign,
        {"POST": (None, expect(outsider=404, player=204, storyteller=400))},
    ),
    "member-list": (_campaign, {"GET": (None, READ)}),
    "member-detail": (
        _object("other_membership"),
        {"GET": (None, READ), "DELETE": (None, conteur(204))},
    ),
    "member-hand-over": (_object("other_membership"), {"POST": (None, conteur(200))}),
    "invitation-list": (
        _campaign,
        {
            "GET": (None, conteur(200)),
            "POST": (lambda w: {"days": 3, "max_uses": 2}, conteur(201)),
        },
    ),
    "invitation-revoke": (_object("invitation"), {"POST": (None, conteur(200))}),
    "webhook": (
        _hooked,
        {
            "GET": (None, conteur(200)),
            "PUT": (lambda w: {"url": "https://discord.com/api/webhooks/2/b"}, conteur(200)),
            "DELETE": (None, conteur(204)),
        },
    ),
    "webhook-test": (_hooked, {"POST": (None, conteur(200))}),
    "webhook-enable": (_hooked, {"POST": (None, conteur(200))}),
    "invitation-accept": (
        lambda w: {},
        {
            # Outsiders join; the player is already a member; the Conteur's own link is refused.
            "POST": (
                lambda w: {"token": w["invitation"].token},
                expect(outsider=201, player=400, storyteller=400),
            )
        },
    ),
    "arc-list": (
        _campaign,
        {"GET": (None, READ), "POST": (lambda w: {"title": "La marée noire"}, conteur(201))},
    ),
    "arc-detail": (
        _object("arc"),
        {
            "GET": (None, READ),
            "PATCH": (lambda w: {"summary": "Tout change."}, conteur(200)),
            "DELETE": (None, conteur(204)),
        },
    ),
    "arc-close": (_object("arc"), {"POST": (None, conteur(200))}),
    "arc-reopen": (_object("arc"), {"POST": (None, conteur(200))}),
    "sessions_api:play-session-list": (
        _campaign,
        {
            "GET": (None, READ),
            "POST": (
                lambda w: {"title": "Séance 2", "scheduled_at": "2030-05-01T20:00:00+02:00"},
                conteur(201),
            ),
        },
    ),
    "sessions_api:play-session-detail": (
        _object("play_session"),
        {
            "GET": (None, READ),
            "PATCH": (lambda w: {"notes": "Ils ont fui."}, conteur(200)),
            "DELETE": (None, conteur(204)),
        },
    ),
}
for _slug, _data in ENTRY_DATA.items():
    MATRIX[f"compendium-{_slug}-list"] = (
        _campaign,
        {"GET": (None, READ), "POST": (_data, conteur(201))},
    )
    MATRIX[f"compendium-{_slug}-detail"] = (
        _entry(_slug),
        {
            "GET": (None, READ),
            "PATCH": (lambda w: {"description": "Revue."}, conteur(200)),
            "DELETE": (None, conteur(204)),
        },
    )


def _route(name: str) -> str:
    """A matrix name is a campaign route's name, or namespaced when it is another app's."""
    return name if ":" in name else f"campaigns_api:{name}"


CASES = [(name, method) for name, (_kwargs, methods) in MATRIX.items() for method in methods]


@pytest.fixture
def world(campaign, other_player, arc, play_session, invitation, compendium):
    return {
        "campaign": campaign,
        "arc": arc,
        "play_session": play_session,
        "invitation": invitation,
        "compendium": compendium,
        "other_membership": Membership.objects.get(campaign=campaign, user=other_player),
    }


@pytest.fixture
def clients(storyteller, player, outsider):
    def signed_in(user):
        client = APIClient()
        client.force_login(user)
        return client

    return {
        "anonymous": APIClient(),
        "outsider": signed_in(outsider),
        "player": signed_in(player),
        "storyteller": signed_in(storyteller),
    }


def test_the_table_names_every_route_and_every_method_it_allows():
    routes = {pattern.name: pattern for pattern in api_urls.urlpatterns} | {
        f"sessions_api:{pattern.name}": pattern
        for pattern in session_api_urls.urlpatterns
        if pattern.name.startswith("play-session")  # the table's routes: tests/sessions
    }
    assert set(routes) == set(MATRIX), "a route of campaigns_api has no row (or a row no route)"
    for name, pattern in routes.items():
        allowed = set(pattern.callback.cls().allowed_methods) - {"HEAD", "OPTIONS"}
        assert allowed == set(MATRIX[name][1]), name


@pytest.mark.parametrize(("name", "method"), CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_status_by_persona(name, method, world, clients):
    url_kwargs, methods = MATRIX[name]
    body, expected = methods[method]
    url = reverse(_route(name), kwargs=url_kwargs(world))
    seen = {}
    for persona in PERSONAS:
        response = clients[persona].generic(
            method,
            url,
            data=None if body is None else json.dumps(body(world)),
            content_type="application/json",
        )
        seen[persona] = response.status_code
        if response.status_code != 204:
            assert response["Content-Type"] == "application/json", (persona, response.content)
        if response.status_code >= 400:
            assert response.json()["detail"], (persona, response.content)
        if response.status_code == 401:
            assert response["WWW-Authenticate"] == "Token"
    assert seen == expected


def test_a_foreign_campaigns_rows_are_not_found_even_for_a_conteur(world, clients, other_campaign):
    """Ids of rows of one campaign under another campaign's URL: 404, never the row."""
    foreign = other_campaign.pk  # the outsider's campaign: the Conteur here is not a member
    client = clients["outsider"]
    for name, (url_kwargs, methods) in MATRIX.items():
        kwargs = url_kwargs(world)
        if "campaign_id" not in kwargs or "pk" not in kwargs:
            continue
        kwargs["campaign_id"] = foreign  # the outsider's own campaign, world's row id
        for method in methods:
            response = client.generic(method, reverse(_route(name), kwargs=kwargs))
            assert response.status_code == 404, (name, method, response.content)
