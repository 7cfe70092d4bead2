"""Every operation sits in one of the API's declared sections (tags), and every section is used:
Swagger UI groups the operations by them (issue 41, « the first evening »)."""

import pytest
from django.conf import settings
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def declared_tags() -> list[str]:
    return [tag["name"] for tag in settings.SPECTACULAR_SETTINGS["TAGS"]]


def operations(schema):
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def test_the_schema_declares_the_fifteen_sections_with_a_french_description(schema):
    tags = schema["tags"]
    assert [tag["name"] for tag in tags] == declared_tags()
    assert len(tags) == 15
    assert all(tag["description"].strip() for tag in tags)


def test_every_operation_is_in_exactly_one_declared_section(schema):
    declared = set(declared_tags())
    for path, method, operation in operations(schema):
        assert len(operation.get("tags", [])) == 1, (path, method)
        assert operation["tags"][0] in declared, (path, method, operation["tags"])


def test_every_declared_section_has_operations(schema):
    used = {operation["tags"][0] for _, _, operation in operations(schema)}
    assert used == set(declared_tags())


def test_the_live_stream_is_beside_the_log(schema):
    stream = schema["paths"]["/api/campaigns/{campaign_id}/stream/"]["get"]
    log = schema["paths"]["/api/campaigns/{campaign_id}/log/"]["get"]
    assert stream["tags"] == log["tags"] == ["Table"]
