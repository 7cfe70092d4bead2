"""Schemathesis fuzzes the whole API on a live server, as a player and as the Conteur.

The schema is the one `/api/schema/` serves (drf-spectacular, generated in-process). Every
operation gets a bounded number of generated requests — valid and invalid bodies, queries and
path parameters — sent over HTTP to pytest-django's live server, on a freshly seeded campaign
(a Conteur, two players with a sheet each, the example compendium, an arc, sessions, an open
ellipse with a training, rolls and an injury). Path parameters mostly point at those seeded
objects, so the fuzzer reaches the code behind the 404s.

Each response must: not be a 5xx, have a status code, content type, headers and body that the
schema documents, and — for a 4xx — carry a non-empty French `detail` sentence (and French
per-field messages). A failure shows the request as a reproducible `curl` command.

Bounded so CI stays within minutes: a fixed seed (derandomized), MAX_EXAMPLES generated cases
per operation without shrinking, and a budget on the coverage phase's boundary cases. About
3.5 minutes on SQLite, 6 on PostgreSQL (two cores). To reproduce one operation:
`FUZZ_PATHS='sessions/$' FUZZ_METHODS=POST pytest tests/hardening/test_schemathesis.py`.
"""

import os
import re
import uuid
from datetime import timedelta

import pytest
import schemathesis
from django.test import Client
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import TestPhase
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.django_db(transaction=True)

# A few minutes on two cores for the whole pass (both personas, every operation).
MAX_EXAMPLES = 10
# The coverage phase derives cases from every field's bounds (hundreds for a 50-field body): run
# the first COVERAGE_BUDGET, then only a kind of case (scenario × parameter) not yet sent, up to
# COVERAGE_MAX.
COVERAGE_BUDGET = 30
COVERAGE_MAX = 60


def _load_schema():
    raw = SchemaGenerator().get_schema(request=None, public=True)
    # The schema generator returns OrderedDicts and lazy strings: round-trip to plain JSON.
    import json

    from rest_framework.utils.encoders import JSONEncoder

    return json.loads(json.dumps(raw, cls=JSONEncoder))


schema = schemathesis.openapi.from_dict(_load_schema())
schema.config.generation.update(
    max_examples=MAX_EXAMPLES,
    deterministic=True,
    no_shrink=True,
    with_security_parameters=False,
)
schema.config.update(suppress_health_check=[schemathesis.config.HealthCheck.all])
# FUZZ_PATHS=<regex> [FUZZ_METHODS=GET,POST] narrow the pass down, to reproduce one operation.
if os.environ.get("FUZZ_PATHS") or os.environ.get("FUZZ_METHODS"):
    schema = schema.include(
        path_regex=os.environ.get("FUZZ_PATHS") or None,
        method=os.environ["FUZZ_METHODS"].split(",") if os.environ.get("FUZZ_METHODS") else None,
    )

# --- the seeded campaign ----------------------------------------------------------------------

# What the path parameters point at during the current test (filled by the `seeded` fixture).
SEEDED: dict[str, object] = {}


def _seed() -> dict[str, object]:
    from altherion.demo import demo_users_seed
    from campaigns.demo import demo_campaign_seed
    from campaigns.models import (
        Ability,
        Arc,
        Asset,
        Branch,
        CharacterClass,
        Flaw,
        Invitation,
        Membership,
        Role,
        Species,
    )
    from campaigns.services import invitation_create
    from characters.demo import demo_characters_seed
    from characters.models import Character
    from progression import ellipses
    from progression.models import Training, TrainingStatus
    from sessions.demo import demo_sessions_seed
    from sessions.models import Injury, PlaySession

    users = demo_users_seed()
    campaign = demo_campaign_seed(users=users)
    demo_sessions_seed(campaign=campaign)
    demo_characters_seed(campaign=campaign, users=users)
    aelis = Character.objects.get(campaign=campaign, owner=users["aelis"])
    brann = Character.objects.get(campaign=campaign, owner=users["brann"])
    arc = Arc.objects.filter(campaign=campaign).first()
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=60)
    training = Training.objects.create(
        character=aelis,
        ellipse=ellipse,
        kind="skill",
        target="tir",
        label="Tir",
        trainer="trainer",
        days_needed=30,
        days_done=4,
        position=1,
        status=TrainingStatus.RUNNING,
    )
    invitation_create(campaign=campaign, by=users["conteur"])

    # Rolls through the API itself, as a player would make them.
    for username, character, characteristic, skill in (
        ("aelis", aelis, "agility", "tir"),
        ("brann", brann, "strength", "melee"),
    ):
        client = Client()
        client.force_login(users[username])
        response = client.post(
            f"/api/campaigns/{campaign.pk}/rolls/",
            {
                "character": character.pk,
                "characteristic": characteristic,
                "skills": [skill],
                "idempotency_key": uuid.uuid4().hex,
            },
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
    roll_id = response.json()["id"]
    injury = Injury.objects.create(campaign=campaign, character=aelis, row=2, effect="broken_bones")
    PlaySession.objects.create(
        campaign=campaign, arc=arc, title="Hors-série", scheduled_at=timezone.now() + timedelta(3)
    )

    def first(model):
        return model.objects.filter(campaign=campaign).order_by("pk").first().pk

    tokens = {
        "player": Token.objects.create(user=users["aelis"]).key,
        "storyteller": Token.objects.create(user=users["conteur"]).key,
    }
    return {
        "tokens": tokens,
        "campaign": campaign.pk,
        "member": Membership.objects.get(
            campaign=campaign, role=Role.PLAYER, user=users["brann"]
        ).pk,
        "invitation": Invitation.objects.filter(campaign=campaign).first().pk,
        "arc": arc.pk,
        "session": first(PlaySession),
        "species": first(Species),
        "classes": first(CharacterClass),
        "branches": first(Branch),
        "abilities": first(Ability),
        "assets": first(Asset),
        "flaws": first(Flaw),
        "roll": roll_id,
        "injury": injury.pk,
        "character": aelis.pk,
        "training": training.pk,
        "ellipse": ellipse.pk,
        "skill": "tir",
        "language": "occidental",
        "relation": "classes",
    }


# Which seeded object a path parameter names, from the segment before it in the path.
SEGMENT_OBJECTS = {
    "campaigns": "campaign",
    "members": "member",
    "invitations": "invitation",
    "arcs": "arc",
    "sessions": "session",
    "rolls": "roll",
    "injuries": "injury",
    "characters": "character",
    "trainings": "training",
    "ellipses": "ellipse",
    "skills": "skill",
    "languages": "language",
    "entries": "relation",
    **{slug: slug for slug in ("species", "classes", "branches", "abilities", "assets", "flaws")},
}


def _seeded_parameters(path: str, parameters: dict) -> dict:
    """`parameters` with each one replaced by the seeded object its path segment names."""
    if not parameters:
        return parameters
    result = dict(parameters)
    for segment, name in re.findall(r"([\w-]+)/\{(\w+)\}", path):
        kind = SEGMENT_OBJECTS.get(segment)
        if kind in SEEDED and name in result:
            result[name] = SEEDED[kind]
    return result


@schema.hook
def flatmap_path_parameters(context, path_parameters):
    # Nine requests in ten aim at the seeded objects; the others keep the fuzzer's ids.
    path = context.operation.path
    return st.integers(0, 9).map(
        lambda n: path_parameters if n == 0 else _seeded_parameters(path, path_parameters)
    )


SENT: dict[str, object] = {"count": 0, "kinds": set()}


def _within_budget(case) -> bool:
    meta = case.meta
    if meta is None or meta.phase.name != TestPhase.COVERAGE:
        return True
    data = meta.phase.data
    kind = (data.scenario, data.parameter_location, data.parameter)
    new = kind not in SENT["kinds"]
    SENT["kinds"].add(kind)
    SENT["count"] += 1
    return SENT["count"] <= COVERAGE_BUDGET or (new and SENT["count"] <= COVERAGE_MAX)


def _aim_at_seeded_objects(case) -> None:
    """The coverage phase's cases bypass the hook above and name object 0: point them at the
    seeded objects too, except those whose subject is a path parameter itself."""
    meta = case.meta
    if meta is None or meta.phase.name != TestPhase.COVERAGE:
        return
    if meta.phase.data.parameter_location == ParameterLocation.PATH:
        return
    case.path_parameters.update(_seeded_parameters(case.operation.path, case.path_parameters))


# --- checks -----------------------------------------------------------------------------------

ENGLISH = re.compile(
    r"\b(the|this|not|is|are|must|field|required|invalid|found|method|allowed|expected|"
    r"please|ensure|valid|credentials|provided|request|unsupported|media type)\b",
    re.IGNORECASE,
)


@schemathesis.check
def client_errors_explain_themselves_in_french(ctx, response, case):
    """A 4xx answers JSON with a non-empty French `detail` (and French field messages)."""
    if not 400 <= response.status_code < 500:
        return None
    try:
        body = response.json()
    except ValueError as error:
        raise AssertionError(f"{response.status_code} without a JSON body") from error
    detail = body.get("detail") if isinstance(body, dict) else None
    assert isinstance(detail, str) and detail.strip(), f"{response.status_code} without a detail"
    messages = [detail] + [
        message
        for items in (body.get("errors") or {}).values()
        for message in (items if isinstance(items, list) else [items])
    ]
    for message in messages:
        assert not ENGLISH.search(str(message)), f"not French: {message!r}"
    return True


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    client_errors_explain_themselves_in_french,
]


# --- the pass ---------------------------------------------------------------------------------


@pytest.fixture
def seeded(live_server, settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The fuzzer sends hundreds of requests a minute as one user: past the real throttle (whose
    # 429 the schema documents) it would only meet 429s.
    rates = {"user": "100000/min", "anon": "100000/min"}
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", rates)
    SEEDED.clear()
    SEEDED.update(_seed())
    SENT.update(count=0, kinds=set())
    yield SEEDED
    SEEDED.clear()


PERSONAS = ("player", "storyteller")


@schema.parametrize()
def test_the_api_survives_the_fuzzer(case, seeded, live_server):
    """Each generated request is sent as a player, then as the Conteur (one seeded campaign per
    operation: the database is flushed between operations, so half as many flushes)."""
    if not _within_budget(case):
        return
    _aim_at_seeded_objects(case)
    for persona in PERSONAS:
        token = seeded["tokens"][persona]
        response = case.call(base_url=live_server.url, headers={"Authorization": f"Token {token}"})
        if os.environ.get("FUZZ_DEBUG"):
            print("FUZZ", persona, case.method, response.request.url, response.status_code)
        try:
            case.validate_response(response, checks=CHECKS)
        except Exception as error:
            error.add_note(f"(sent as the {persona})")
            raise
