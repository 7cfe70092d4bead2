"""The creation body's skills, languages, characteristics and prémices are typed in the schema
— their names, ranges and fields — and the server takes exactly what the schema says
(issue 41, « the first evening »)."""

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from characters.models import Character
from rules import reference

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def components(django_db_blocker):
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


def resolved(components, schema):
    """A property's schema, through its `$ref` (or drf-spectacular's `allOf: [$ref]`)."""
    if "allOf" in schema:
        schema = schema["allOf"][0]
    if "$ref" in schema:
        return components[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def creation_property(components, name):
    return resolved(components, components["CreationIn"]["properties"][name])


def test_characteristics_are_the_nine_by_name_from_0_to_20(components):
    characteristics = creation_property(components, "characteristics")
    assert characteristics["additionalProperties"] is False
    assert list(characteristics["properties"]) == list(reference.CHARACTERISTICS)
    strength = characteristics["properties"]["strength"]
    assert (strength["type"], strength["minimum"], strength["maximum"]) == ("integer", 0, 20)
    assert strength["description"] == "Force"


def test_skills_are_the_thirty_by_key_each_a_level_and_expertises(components):
    skills = creation_property(components, "skills")
    assert skills["additionalProperties"] is False
    assert set(skills["properties"]) == {skill.key for skill in reference.SKILLS}
    assert len(skills["properties"]) == 30
    assert skills["properties"]["melee"]["description"] == "Mêlée"
    skill = resolved(components, skills["properties"]["melee"])
    assert skill["properties"]["level"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 10,
        "default": 0,
    }
    expertises = skill["properties"]["expertises"]
    assert expertises["type"] == "array" and expertises["items"]["type"] == "string"


def test_languages_are_by_key_each_a_level_and_writing(components):
    languages = creation_property(components, "languages")
    assert languages["additionalProperties"] is False
    assert set(languages["properties"]) == {lang.key for lang in reference.LANGUAGES}
    language = resolved(components, languages["properties"]["occidental"])
    assert language["properties"]["writing"]["type"] == "boolean"
    assert language["properties"]["level"]["maximum"] == 10


def test_nothing_in_the_creation_body_is_left_untyped(components):
    def walk(schema, seen):
        schema = resolved(components, schema)
        if id(schema) in seen:
            return
        seen.add(id(schema))
        assert schema != {}, "an untyped value"
        assert schema.get("additionalProperties") not in ({}, True), schema
        for child in schema.get("properties", {}).values():
            walk(child, seen)
        if "items" in schema:
            walk(schema["items"], seen)

    walk(components["CreationIn"], set())


@pytest.fixture
def api(player):
    client = APIClient()
    client.force_authenticate(player)
    return client


def test_a_skill_or_language_the_game_lacks_is_refused_by_name(api, campaign, creation_data):
    body = {**creation_data, "campaign": campaign.pk}
    body["skills"] = {**creation_data["skills"], "jonglage": {"level": 1}}
    body["languages"] = {"elfique": {"level": 2}}
    response = api.post("/api/characters/", body, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors["skills.jonglage"] == ["Compétence inconnue."]
    assert errors["languages.elfique"] == ["Langue inconnue."]
    assert not Character.objects.exists()


def test_a_level_out_of_range_names_its_skill(api, campaign, creation_data):
    body = {**creation_data, "campaign": campaign.pk}
    body["skills"] = {**creation_data["skills"], "tir": {"level": 11}}
    response = api.post("/api/characters/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["skills.tir.level"]
    assert not Character.objects.exists()


def test_an_entry_without_its_optional_fields_is_level_0(api, campaign, creation_data):
    body = {**creation_data, "campaign": campaign.pk}
    body["skills"] = {**creation_data["skills"], "nature": {}}
    body["languages"] = {"occidental": {"level": 5}}
    response = api.post("/api/characters/", body, format="json")
    assert response.status_code == 201, response.json()
    assert "nature" not in [skill["key"] for skill in response.json()["skills"]]
    assert response.json()["languages"][0]["writing"] is False
