"""The OpenAPI schema generates cleanly and says what the API really answers; the docs are local."""

import re

import pytest
import yaml
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import include, reverse
from django.urls import path as route
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

from campaigns import api_urls
from sessions import api_urls as session_api_urls

pytestmark = pytest.mark.django_db

SUCCESS = {"get": "200", "post": ("200", "201", "204"), "patch": "200", "delete": "204"}


@pytest.fixture(scope="module")
def schema(tmp_path_factory, django_db_blocker):
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    with django_db_blocker.unblock():
        call_command("spectacular", "--validate", "--file", str(path))
    return yaml.safe_load(path.read_text())


def test_the_campaign_api_alone_generates_without_a_warning():
    """The campaign routes on their own, so another app's unfinished views cannot hide ours."""
    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[route("api/", include("campaigns.api_urls"))])
    generator.get_schema(request=None, public=True)
    assert not GENERATOR_STATS._warn_cache, dict(GENERATOR_STATS._warn_cache)
    assert not GENERATOR_STATS._error_cache, dict(GENERATOR_STATS._error_cache)


def test_the_schema_generates_without_a_single_warning(tmp_path):
    # --fail-on-warn: a serializer or path parameter the generator had to guess at fails.
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml")
    )


def campaign_routes() -> set[str]:
    """The campaign API's paths, each parameter written `{}`."""
    patterns = [*api_urls.urlpatterns, *session_api_urls.urlpatterns]
    return {"/api/" + re.sub(r"<[^>]+>", "{}", str(p.pattern)) for p in patterns}


def campaign_operations(schema):
    routes = campaign_routes()
    for path, operations in schema["paths"].items():
        if re.sub(r"\{[^}]+\}", "{}", path) in routes:
            for method, operation in operations.items():
                if method in SUCCESS:
                    yield path, method, operation


def test_every_campaign_route_is_in_the_schema(schema):
    documented = {re.sub(r"\{[^}]+\}", "{}", path) for path in schema["paths"]}
    assert campaign_routes() <= documented


def test_every_operation_documents_its_success_and_its_errors(schema):
    operations = list(campaign_operations(schema))
    assert len(operations) > 50
    for path, method, operation in operations:
        responses = operation["responses"]
        success = SUCCESS[method]
        assert any(
            code in responses for code in ((success,) if isinstance(success, str) else success)
        )
        for code in ("401", "404"):
            error = responses[code]["content"]["application/json"]["schema"]
            assert error == {"$ref": "#/components/schemas/ApiError"}, (path, method, code)
        if method != "get":
            assert "403" in responses, (path, method)
        if method != "get":
            assert "400" in responses, (path, method)
        if "requestBody" in operation:
            assert list(operation["requestBody"]["content"]) == ["application/json"]


def test_lists_are_paginated_and_accept_their_filters(schema):
    sessions = schema["paths"]["/api/campaigns/{campaign_id}/sessions/"]["get"]
    ref = sessions["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    paginated = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert {"count", "next", "previous", "results"} <= set(paginated["properties"])
    parameters = {parameter["name"] for parameter in sessions["parameters"]}
    assert {"page", "arc", "after", "before"} <= parameters
    abilities = schema["paths"]["/api/campaigns/{campaign_id}/compendium/abilities/"]["get"]
    assert {"character_class", "tier"} <= {p["name"] for p in abilities["parameters"]}


def test_species_shapes_are_typed_exactly(schema):
    species = schema["components"]["schemas"]["SpeciesIn"]["properties"]
    assert species["modifiers"]["additionalProperties"] is False
    assert species["modifiers"]["properties"]["will"] == {
        "type": "integer",
        "minimum": -3,
        "maximum": 3,
    }
    assert species["favourite_characteristics"]["uniqueItems"] is True
    items = species["favourite_characteristics"]["items"]
    if "$ref" in items:
        items = schema["components"]["schemas"][items["$ref"].rsplit("/", 1)[1]]
    assert set(items["enum"]) == {
        "strength",
        "vigor",
        "agility",
        "power",
        "charisma",
        "perception",
        "intellect",
        "will",
        "wisdom",
    }


def test_the_schema_is_served(client):
    response = client.get(reverse("api-schema"), {"format": "json"})
    assert response.status_code == 200
    assert "/api/campaigns/{campaign_id}/arcs/" in response.json()["paths"]


def test_swagger_ui_is_served_from_local_static_files(client):
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(asset.endswith("swagger-ui-bundle.js") for asset in assets)
    for asset in assets:
        assert asset.startswith("/"), f"{asset} is not local"
        assert not asset.startswith("//"), f"{asset} is not local"
        if asset.startswith("/static/"):
            assert finders.find(asset.removeprefix("/static/")), f"{asset} is missing"
    assert "https://" not in html and "http://" not in html


# --- the schema says what the server enforces (issue 12 §10) ----------------------------------

METHODS = ("get", "post", "put", "patch", "delete")
# What only the code's readers should see: a call, a module's function, a private name.
INTERNAL_NAME = re.compile(
    r"\w\(\)|\b(services|selectors|creation|awards|ellipses|trainings|self|kwargs)\.|\b_[a-z]\w*"
)


def operations(schema):
    for path, items in schema["paths"].items():
        for method, operation in items.items():
            if method in METHODS:
                yield path, method, operation


def test_every_operation_is_described_without_naming_the_code(schema):
    for path, method, operation in operations(schema):
        description = operation.get("description", "")
        assert description.strip(), (method, path)
        assert not INTERNAL_NAME.search(description), (method, path, description)


def test_one_name_for_the_campaign_everywhere(schema):
    names = set()
    for path in schema["paths"]:
        names.update(re.findall(r"campaigns/\{(\w+)\}", path))
    assert names == {"campaign_id"}


def _header(operation, name):
    return next(
        (p for p in operation.get("parameters", []) if p["in"] == "header" and p["name"] == name),
        None,
    )


def test_the_version_and_idempotency_headers_are_declared(schema):
    paths = schema["paths"]
    sheet = paths["/api/characters/{id}/"]
    assert "ETag" in sheet["get"]["responses"]["200"]["headers"]
    patch = sheet["patch"]
    assert not _header(patch, "If-Match").get("required")  # the `version` field may say it
    assert {"409", "412", "428"} <= set(patch["responses"])
    assert "412" in patch["description"] and "409" in patch["description"]
    for code in ("200", "409", "412"):
        assert "ETag" in patch["responses"][code]["headers"], code
    # A body-less write has only the header to say which version it read: without it, 428.
    removal = paths["/api/characters/{id}/skills/{key}/"]["delete"]
    assert _header(removal, "If-Match")["required"] is True
    roll = paths["/api/campaigns/{campaign_id}/rolls/"]["post"]
    assert _header(roll, "Idempotency-Key") is not None
    assert "422" in roll["responses"]
    for path, method, operation in operations(schema):
        assert "Retry-After" in operation["responses"]["429"]["headers"], (method, path)
        assert "Retry-After" in operation["responses"]["503"]["headers"], (method, path)


def test_refusals_before_any_view_are_documented(schema):
    for path, method, operation in operations(schema):
        codes = set(operation["responses"])
        assert {"405", "414", "429", "503"} <= codes, (method, path)
        if "requestBody" in operation:
            assert {"413", "415"} <= codes, (method, path)


def test_request_shapes_carry_the_checks_the_server_makes(schema):
    components = schema["components"]["schemas"]
    name = components["CampaignIn"]["properties"]["name"]
    assert name["minLength"] == 1 and "pattern" in name  # blank (or only spaces) is refused
    creation = components["CreationIn"]
    assert {"campaign", "name"} <= set(creation["required"])
    assert components["GroupChecklistIn"]["properties"]["balance"]["uniqueItems"] is True
    scheduled = components["PlaySessionIn"]["properties"]["scheduled_at"]
    assert scheduled["pattern"] == "^20[0-9]{2}-"  # the years the server takes
    body = schema["paths"]["/api/campaigns/{campaign_id}/characters/import/"]["post"]
    ref = body["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    imported = components[ref.rsplit("/", 1)[1]]
    assert "character" in imported["required"]
    sessions = schema["paths"]["/api/campaigns/{campaign_id}/sessions/"]["get"]
    arc = next(p for p in sessions["parameters"] if p["name"] == "arc")
    assert arc["schema"]["minimum"] == 1 and arc["allowEmptyValue"] is True


def _json_error(response, status):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["detail"].strip() and body["errors"] == {}
    return body


def test_a_method_the_route_lacks_is_405_in_json(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("lea"))
    response = client.put("/api/campaigns/", {}, content_type="application/json")
    body = _json_error(response, 405)
    assert "PUT" in body["detail"]
    assert "POST" in response["Allow"]


def test_a_body_not_in_json_is_415_in_json(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("lea"))
    response = client.post("/api/campaigns/", "name=Brumes", content_type="text/plain")
    _json_error(response, 415)


def test_a_request_line_too_long_is_414_in_json(client):
    from common.request_line import MAX_REQUEST_TARGET

    response = client.get("/api/campaigns/", {"name": "x" * MAX_REQUEST_TARGET})
    _json_error(response, 414)
    assert client.get("/accounts/login/?next=" + "x" * MAX_REQUEST_TARGET).status_code == 414
