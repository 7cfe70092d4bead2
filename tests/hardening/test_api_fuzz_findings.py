"""What the schemathesis pass found, pinned one by one so each fix stays fixed."""

import pytest
from rest_framework.test import APIClient

from campaigns.models import Arc

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(campaign, storyteller):
    client = APIClient()
    client.force_authenticate(storyteller)
    return client


def test_an_address_no_api_route_matches_answers_the_api_json_404(api):
    for url in ("/api/campaigns/-1/", "/api/campaigns/1/arcs/abc/", "/api/nothing/here/"):
        response = api.get(url)
        assert response.status_code == 404
        assert response.json()["detail"] == "Introuvable."


def test_a_null_body_is_refused_in_french(api, campaign):
    arc = Arc.objects.create(campaign=campaign, title="Le phare")
    response = api.patch(
        f"/api/campaigns/{campaign.pk}/arcs/{arc.pk}/", "null", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["detail"].startswith("Aucune donnée envoyée")


def test_options_on_leave_describes_the_route_instead_of_crashing(api, campaign):
    response = api.options(f"/api/campaigns/{campaign.pk}/leave/")
    assert response.status_code == 200


def test_a_session_in_year_584_is_refused_and_nothing_is_created(api, campaign):
    response = api.post(
        f"/api/campaigns/{campaign.pk}/sessions/",
        {"title": "Trop tôt", "scheduled_at": "0584-03-10T11:26:10-02:41"},
        format="json",
    )
    assert response.status_code == 400
    assert "an 2000" in response.json()["errors"]["scheduled_at"][0]
    assert not campaign.play_sessions.exists()


def test_character_ids_and_bodies_of_the_wrong_shape_are_400_not_500(api, campaign):
    assert api.post("/api/characters/", [None, None], format="json").status_code == 400
    listed = api.get("/api/characters/", {"campaign": "4" * 40})
    assert listed.status_code == 400
    assert listed.json()["errors"]["campaign"] == ["Identifiant invalide."]
    imported = api.post(f"/api/campaigns/{2**63}/characters/import/", {}, format="json")
    assert imported.status_code == 404


def test_a_bad_table_filter_is_a_400_that_names_it(api, campaign):
    response = api.get(f"/api/campaigns/{campaign.pk}/rolls/", {"character": "abc"})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["character"]
