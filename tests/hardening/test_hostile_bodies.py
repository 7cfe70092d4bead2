"""Hostile bodies on every write operation of the API (issue 12 §3): deep nesting, lone
surrogates, wrong types, huge numbers, blank strings, unknown fields. None may answer 5xx, every
answer is JSON, and a refused body changes nothing.

The operations and their fields come from the OpenAPI schema; the ids in the URLs are rows of
campaign B of the hardening world, written as B's Conteur (so the body, not the access, decides).
"""

import json
import re
import uuid

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from tests.hardening.test_isolation import routes_with_ids, routes_without_ids, snapshot, urls_for

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch")
DEEP = 2000
HUGE = 10**30


def _schema_operations() -> list[tuple[re.Pattern, str, dict]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    operations = []
    for path, methods in schema["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
        for method, operation in methods.items():
            if method not in WRITES:
                continue
            body = operation.get("requestBody", {}).get("content", {})
            properties = {}
            for media in body.values():
                ref = media.get("schema", {}).get("$ref", "")
                properties = components.get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
                break
            operations.append((pattern, method, properties))
    return operations


def _bodies(properties: dict) -> list[tuple[str, str]]:
    """(what, raw JSON text) pairs: the structural attacks, then each field's."""
    bodies = [
        ("deep list", "[" * DEEP + "]" * DEEP),
        ("deep object", '{"a":' * DEEP + "1" + "}" * DEEP),
        ("deep field", '{"name": ' + "[" * DEEP + "]" * DEEP + "}"),
        ("surrogate key", '{"\\ud800": 1}'),
        ("unknown field", json.dumps({"no_such_field": "x"})),
        ("not an object", json.dumps([1, 2, 3])),
        ("a string", json.dumps("texte")),
    ]
    for name in properties:
        for what, value in (
            ("surrogate", '"\\ud800"'),
            ("surrogate in text", '"Aelis \\udfff"'),
            ("blank", '""'),
            ("spaces", '"   "'),
            ("huge", str(HUGE)),
            ("negative huge", str(-HUGE)),
            ("float", "1e308"),
            ("list", '["a", {"b": []}]'),
            ("object", '{"a": 1}'),
            ("null", "null"),
            ("true", "true"),
        ):
            bodies.append((f"{name}: {what}", "{" + json.dumps(name) + ": " + value + "}"))
    return bodies


def _write_targets(world) -> list[tuple[str, str, dict]]:
    """(url, method, schema properties) of every API write, with B's ids."""
    operations = _schema_operations()
    targets = []
    for namespace, name, params in routes_with_ids() + routes_without_ids():
        if not (namespace.endswith("_api") or name == "auth-token"):
            continue
        for url in (
            urls_for(world.b, namespace, name, params) if params else [_plain(namespace, name)]
        ):
            for pattern, method, properties in operations:
                if pattern.match(url):
                    targets.append((url, method, properties))
    return targets


def _plain(namespace: str, name: str) -> str:
    from django.urls import reverse

    return reverse(f"{namespace}:{name}" if namespace else name)


def _etag(client: Client, url: str) -> dict:
    response = client.get(url)
    return {"HTTP_IF_MATCH": response["ETag"]} if response.has_header("ETag") else {}


def test_a_thousand_hostile_bodies_get_json_4xx_and_change_nothing(two_campaigns):
    client = Client(raise_request_exception=False)
    client.force_login(two_campaigns.storyteller_b)
    targets = _write_targets(two_campaigns)
    assert len({(url, method) for url, method, _ in targets}) > 30
    before = snapshot()
    sent, failures = 0, []
    for url, method, properties in targets:
        headers = _etag(client, url)
        for what, raw in _bodies(properties):
            cache.clear()  # the throttles count every request; these are not what is tested
            savepoint = transaction.savepoint()
            response = getattr(client, method)(
                url,
                data=raw,
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
                **headers,
            )
            sent += 1
            where = f"{method.upper()} {url} [{what}] → {response.status_code}"
            if response.status_code >= 500:
                failures.append(where)
            elif response.status_code != 204:
                if response["Content-Type"] != "application/json":
                    failures.append(where + " not JSON")
                elif response.status_code >= 400 and not response.json().get("detail"):
                    failures.append(where + " without a French detail")
            if 400 <= response.status_code < 500 and snapshot() != before:
                failures.append(where + " changed rows")
            transaction.savepoint_rollback(savepoint)
    assert sent >= 1000
    assert failures == [], "\n".join(failures[:40])
