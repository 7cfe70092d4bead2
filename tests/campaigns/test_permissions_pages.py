"""Every campaign page, every method, every persona: the status each one gets.

anonymous → redirect to the login page (but an invitation's page); outsider → 404 (the campaign's existence is never
revealed); player → 200 on reads, 403 on the Conteur's actions; Conteur → 200 or a redirect after
a successful action. The table must name every URL of the `campaigns` namespace.
"""

import pytest
from django.urls import reverse

from altherion.urls import campaign_routes
from sessions import urls as session_urls
from sessions.models import StatBlock

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "player", "storyteller")

# Expected status per persona (anonymous is a redirect to login unless the row says otherwise).
READ = {"outsider": 404, "player": 200, "storyteller": 200}
MANAGE_PAGE = {"outsider": 404, "player": 403, "storyteller": 200}
MANAGE_ACTION = {"outsider": 404, "player": 403, "storyteller": 302}
ANY_USER_PAGE = {"outsider": 200, "player": 200, "storyteller": 200}
ANY_USER_ACTION = {"outsider": 302, "player": 302, "storyteller": 302}

CAMPAIGN_DATA = {"name": "Autre nom", "creation_budget": 80, "tier": "hero", "in_game_day": 3}
ARC_DATA = {"title": "Nouvel arc", "chapter": 1, "act": 1, "closes": "", "length_unit": "weeks"}
SESSION_DATA = {"title": "Séance 2", "scheduled_at": "2030-05-01T20:00", "arc": "", "notes": ""}


def entry_data(kind, world):
    return {
        "species": {"name": "Nouvelle espèce", "favourites": ["will"], "modifier_will": 1},
        "classes": {"name": "Nouvelle classe", "tier": "founding"},
        "branches": {"character_class": world["compendium"]["classes"].pk, "name": "Nouvelle"},
        "abilities": {"name": "Nouvelle aptitude", "tier": "founding", "cost": 1},
        "assets": {"name": "Nouvel atout", "cost": 2},
        "flaws": {"name": "Nouveau handicap", "value": 2},
    }[kind]


def campaign_kwargs(world):
    return {"pk": world["campaign"].pk}


def entry_kwargs(kind):
    return lambda world: {
        "pk": world["campaign"].pk,
        "kind": kind,
        "entry_pk": world["compendium"][kind].pk,
    }


def _c(world):
    return {"pk": world["campaign"].pk}


def _arc(world):
    return {"pk": world["campaign"].pk, "arc_pk": world["arc"].pk}


def _session(world):
    return {"pk": world["campaign"].pk, "session_pk": world["play_session"].pk}


def _member(world):
    return {"pk": world["campaign"].pk, "membership_pk": world["other_membership"].pk}


def _invitation(world):
    return {"pk": world["campaign"].pk, "invitation_pk": world["invitation"].pk}


# (url name, kwargs, method, POST data, expected by persona)
STAT_BLOCK_DATA = {
    "name": "Brigand",
    "agility": 3,
    "perception": 2,
    "wisdom": 2,
    "strength": 3,
    "vigor": 3,
    "combativeness": 2,
    "vitality_max": 15,
    "energy_max": 15,
    "confidence_max": 15,
    "annulation": 0,
    "resistance": 0,
}


def _block(world):
    block, _ = StatBlock.objects.get_or_create(campaign=world["campaign"], name="Loup")
    return {**_c(world), "block_pk": block.pk}


MATRIX = [
    ("list", lambda w: {}, "get", None, ANY_USER_PAGE),
    ("create", lambda w: {}, "get", None, ANY_USER_PAGE),
    ("create", lambda w: {}, "post", lambda w: CAMPAIGN_DATA, ANY_USER_ACTION),
    ("dashboard", _c, "get", None, READ),
    ("settings", _c, "get", None, MANAGE_PAGE),
    ("settings", _c, "post", lambda w: CAMPAIGN_DATA, MANAGE_ACTION),
    ("members", _c, "get", None, READ),
    ("member_remove", _member, "get", None, MANAGE_PAGE),
    ("member_remove", _member, "post", None, MANAGE_ACTION),
    ("hand_over", _member, "get", None, MANAGE_PAGE),
    ("hand_over", _member, "post", None, MANAGE_ACTION),
    # Any member may leave, except the Conteur, who is sent back with the reason.
    ("leave", _c, "get", None, READ),
    ("leave", _c, "post", None, {"outsider": 404, "player": 302, "storyteller": 302}),
    ("invitations", _c, "get", None, MANAGE_PAGE),
    ("invitation_create", _c, "post", lambda w: {"days": 7, "max_uses": 3}, MANAGE_ACTION),
    ("invitation_revoke", _invitation, "post", None, MANAGE_ACTION),
    (
        "webhook_save",
        _c,
        "post",
        lambda w: {"url": "https://discord.com/api/webhooks/1/a"},
        MANAGE_ACTION,
    ),
    ("webhook_test", _c, "post", None, MANAGE_ACTION),
    ("webhook_enable", _c, "post", None, MANAGE_ACTION),
    ("webhook_delete", _c, "post", None, MANAGE_ACTION),
    # The join page is for people outside the campaign; members are told they are in already.
    # A signed-out visitor sees whom the link is from and for, and how to sign up or log in.
    (
        "join",
        lambda w: {"token": w["invitation"].token},
        "get",
        None,
        {**ANY_USER_PAGE, "anonymous": 200},
    ),
    (
        "join",
        lambda w: {"token": w["invitation"].token},
        "post",
        None,
        {"outsider": 302, "player": 200, "storyteller": 200},
    ),
    ("arc_list", _c, "get", None, READ),
    ("arc_create", _c, "get", None, MANAGE_PAGE),
    ("arc_create", _c, "post", lambda w: ARC_DATA, MANAGE_ACTION),
    ("arc_detail", _arc, "get", None, READ),
    ("arc_edit", _arc, "get", None, MANAGE_PAGE),
    ("arc_edit", _arc, "post", lambda w: ARC_DATA, MANAGE_ACTION),
    ("arc_close", _arc, "post", None, MANAGE_ACTION),
    ("arc_reopen", _arc, "post", None, MANAGE_ACTION),
    ("sessions:list", _c, "get", None, READ),
    ("sessions:create", _c, "get", None, MANAGE_PAGE),
    ("sessions:create", _c, "post", lambda w: SESSION_DATA, MANAGE_ACTION),
    ("sessions:detail", _session, "get", None, READ),
    ("sessions:edit", _session, "get", None, MANAGE_PAGE),
    ("sessions:edit", _session, "post", lambda w: SESSION_DATA, MANAGE_ACTION),
    ("sessions:delete", _session, "get", None, MANAGE_PAGE),
    ("sessions:delete", _session, "post", None, MANAGE_ACTION),
    ("compendium", _c, "get", None, READ),
    ("compendium_examples", _c, "post", None, MANAGE_ACTION),
    ("sessions:bestiary", _c, "get", None, READ),
    ("sessions:stat_block_create", _c, "get", None, MANAGE_PAGE),
    ("sessions:stat_block_create", _c, "post", lambda w: STAT_BLOCK_DATA, MANAGE_ACTION),
    ("sessions:stat_block_edit", _block, "get", None, MANAGE_PAGE),
    ("sessions:stat_block_edit", _block, "post", lambda w: STAT_BLOCK_DATA, MANAGE_ACTION),
    ("sessions:stat_block_delete", _block, "get", None, MANAGE_PAGE),
    ("sessions:stat_block_delete", _block, "post", None, MANAGE_ACTION),
]
for _kind in ("species", "classes", "branches", "abilities", "assets", "flaws"):
    MATRIX += [
        ("entry_create", lambda w, k=_kind: {**_c(w), "kind": k}, "get", None, MANAGE_PAGE),
        (
            "entry_create",
            lambda w, k=_kind: {**_c(w), "kind": k},
            "post",
            lambda w, k=_kind: entry_data(k, w),
            MANAGE_ACTION,
        ),
        ("entry_edit", entry_kwargs(_kind), "get", None, MANAGE_PAGE),
        (
            "entry_edit",
            entry_kwargs(_kind),
            "post",
            lambda w, k=_kind: entry_data(k, w),
            MANAGE_ACTION,
        ),
        ("entry_delete", entry_kwargs(_kind), "get", None, MANAGE_PAGE),
        ("entry_delete", entry_kwargs(_kind), "post", None, MANAGE_ACTION),
    ]


def _route(name: str) -> str:
    """A matrix name is a campaign page's name, or namespaced when it is another app's."""
    return name if ":" in name else f"campaigns:{name}"


CASES = [
    pytest.param(
        name, kwargs, method, data, persona, expected,
        id=f"{name}-{method}-{persona}-{i}",
    )
    for i, (name, kwargs, method, data, expected_by_persona) in enumerate(MATRIX)
    for persona in PERSONAS
    for expected in [expected_by_persona.get(persona, 302)]
]  # fmt: skip


@pytest.fixture
def world(campaign, arc, play_session, invitation, compendium, other_player):
    return {
        "campaign": campaign,
        "arc": arc,
        "play_session": play_session,
        "invitation": invitation,
        "compendium": compendium,
        "other_membership": campaign.memberships.get(user=other_player),
    }


@pytest.fixture
def persona_client(client, storyteller, player, outsider):
    users = {"anonymous": None, "outsider": outsider, "player": player, "storyteller": storyteller}

    def for_persona(persona):
        if users[persona] is not None:
            client.force_login(users[persona])
        return client

    return for_persona


@pytest.mark.parametrize(("name", "kwargs", "method", "data", "persona", "expected"), CASES)
def test_status_by_persona(world, persona_client, name, kwargs, method, data, persona, expected):
    url = reverse(_route(name), kwargs=kwargs(world))
    client = persona_client(persona)
    payload = data(world) if data else {}
    response = getattr(client, method)(url, payload)
    assert response.status_code == expected, response.content.decode()[:500]
    if persona == "anonymous" and expected == 302:
        assert response.url.startswith(reverse("login") + "?next=")


def test_the_matrix_names_every_campaign_page():
    named = {pattern.name for pattern in campaign_routes} | {
        f"sessions:{pattern.name}"
        for pattern in session_urls.urlpatterns
        # The table's pages, and the campaign's event stream (never ends): tests/sessions.
        if "table/" not in str(pattern.pattern) and pattern.name != "stream"
    }
    assert named == {name for name, *_ in MATRIX}


@pytest.mark.parametrize(
    ("name", "kwargs", "allowed"),
    [
        pytest.param(name, kwargs, {m for n, _k, m, *_ in MATRIX if n == name}, id=name)
        for name, kwargs in {name: kwargs for name, kwargs, *_ in MATRIX}.items()
    ],
)
def test_other_methods_are_refused(world, storyteller_client, name, kwargs, allowed):
    """Each URL answers only the methods listed in the matrix: the table is the whole truth."""
    url = reverse(_route(name), kwargs=kwargs(world))
    for method in {"get", "post", "put", "patch", "delete"} - allowed:
        assert getattr(storyteller_client, method)(url).status_code == 405, method
