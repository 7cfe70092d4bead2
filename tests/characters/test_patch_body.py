"""The sheet PATCH body is one object — the fields to change by name, each with its own type,
bounds and French name, and the version read — not a choice among 46 shapes; the server takes
what it took before (issue 41, « the first evening »)."""

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from characters.fields import SHEET_FIELDS

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


@pytest.fixture(scope="module")
def body(schema):
    operation = schema["paths"]["/api/characters/{id}/"]["patch"]
    content = operation["requestBody"]["content"]["application/json"]
    return schema["components"]["schemas"][content["schema"]["$ref"].rsplit("/", 1)[1]], content


def test_the_body_is_one_object_of_the_sheet_fields_and_the_version(body):
    shape, _ = body
    assert shape["type"] == "object"
    assert not {"anyOf", "oneOf", "allOf"} & set(shape)
    assert set(shape["properties"]) == {*SHEET_FIELDS, "version"}


def test_each_field_says_its_french_name_and_bounds(body):
    properties = body[0]["properties"]
    assert properties["karma"]["description"] == "Karma"
    assert (properties["strength"]["minimum"], properties["strength"]["maximum"]) == (1, 20)
    assert properties["strength"]["description"] == "Force"
    assert properties["exaltation"]["description"] == "Exaltation (le Conteur seul)"


def test_the_examples_are_bodies_the_schema_takes(body):
    shape, content = body
    for example in content["examples"].values():
        jsonschema.validate(example["value"], shape)


def test_the_schema_refuses_a_body_without_a_sheet_field(body):
    shape, _ = body
    for refused in ({}, {"version": 3}, {"colour": "bleu"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(refused, shape)
    jsonschema.validate({"karma": 2, "colour": "bleu"}, shape)


@pytest.fixture
def api(player):
    client = APIClient()
    client.force_authenticate(player)
    return client


def test_the_server_takes_and_refuses_the_same_bodies(api, character):
    url = f"/api/characters/{character.pk}/"
    assert api.patch(url, {"version": 1}, format="json").status_code == 400
    assert api.patch(url, {"colour": "bleu", "version": 1}, format="json").status_code == 400
    saved = api.patch(url, {"karma": 2, "colour": "bleu", "version": 1}, format="json")
    assert saved.status_code == 200 and saved.json()["karma"] == 2
