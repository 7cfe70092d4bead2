"""The API's content negotiation remembered per `Accept` header (common/negotiation.py, issue
15): each header still gets its own answer, a refusal is not remembered, and `?format=` still
overrides."""

import pytest
from rest_framework.test import APIClient

from common.negotiation import RememberedNegotiation

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(player):
    RememberedNegotiation._answers.clear()
    client = APIClient()
    client.force_authenticate(player)
    yield client
    RememberedNegotiation._answers.clear()


def content_type(response) -> str:
    return response["Content-Type"].split(";")[0]


def test_each_accept_header_keeps_its_own_answer(api):
    for _ in range(2):  # learnt, then remembered
        assert content_type(api.get("/api/campaigns/")) == "application/json"
        assert content_type(api.get("/api/campaigns/", HTTP_ACCEPT="text/html")) == "text/html"
        json_too = api.get("/api/campaigns/", HTTP_ACCEPT="application/json; indent=2")
        assert content_type(json_too) == "application/json"
        assert json_too.content.startswith(b"{\n  ")  # its parameters are kept with it


def test_a_header_no_renderer_accepts_is_refused_every_time(api):
    for _ in range(2):
        assert api.get("/api/campaigns/", HTTP_ACCEPT="image/png").status_code == 406
    assert content_type(api.get("/api/campaigns/")) == "application/json"


def test_the_format_parameter_still_overrides_a_remembered_header(api):
    assert content_type(api.get("/api/campaigns/", HTTP_ACCEPT="text/html")) == "text/html"
    as_json = api.get("/api/campaigns/?format=json", HTTP_ACCEPT="text/html")
    assert content_type(as_json) == "application/json"
