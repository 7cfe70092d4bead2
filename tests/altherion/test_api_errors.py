"""API errors: JSON `{"detail": <French sentence>, "errors": {field: [...]}}` with the right status."""

import pytest
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.urls import reverse
from rest_framework import exceptions
from rest_framework.test import APIClient

from common.api_errors import exception_handler


def handle(exc):
    response = exception_handler(exc, {})
    return response.status_code, response.data, response


def test_a_services_field_error_is_a_400_with_field_details():
    status, body, _ = handle(DjangoValidationError({"days": "Entre 1 et 90 jours."}))
    assert status == 400
    assert body == {
        "detail": "Champ « days » : Entre 1 et 90 jours.",
        "errors": {"days": ["Entre 1 et 90 jours."]},
    }


def test_a_services_plain_error_is_the_detail():
    status, body, _ = handle(DjangoValidationError("Ce membre est déjà le Conteur."))
    assert status == 400
    assert body == {
        "detail": "Ce membre est déjà le Conteur.",
        "errors": {"non_field_errors": ["Ce membre est déjà le Conteur."]},
    }


def test_a_models_all_error_becomes_non_field_errors():
    error = DjangoValidationError({"__all__": ["Doublon."], "name": ["Trop long.", "Vide."]})
    status, body, _ = handle(error)
    assert status == 400
    assert body["errors"] == {"non_field_errors": ["Doublon."], "name": ["Trop long.", "Vide."]}
    assert body["detail"] == "Certaines données sont invalides : voyez le détail par champ."


def test_nested_errors_are_flattened_with_dotted_names():
    error = exceptions.ValidationError(
        {"modifiers": {"will": ["Trop grand."]}, "tags": {0: ["Non."]}}
    )
    _, body, _ = handle(error)
    assert body["errors"] == {"modifiers.will": ["Trop grand."], "tags.0": ["Non."]}


def test_django_404_never_says_what_was_looked_for():
    status, body, _ = handle(Http404("No Campaign matches the given query."))
    assert (status, body) == (404, {"detail": "Introuvable.", "errors": {}})


def test_the_policys_403_keeps_its_french_reason():
    status, body, _ = handle(PermissionDenied("Seul le Conteur de la campagne peut faire cela."))
    assert status == 403
    assert body["detail"] == "Seul le Conteur de la campagne peut faire cela."
    assert handle(PermissionDenied())[1]["detail"] == "Vous n'avez pas le droit de faire cela."


def test_not_authenticated_is_401_with_a_challenge():
    status, body, response = handle(exceptions.NotAuthenticated())
    assert status == 401
    assert body["detail"] == "Authentification requise."
    assert response["WWW-Authenticate"] == "Token"


def test_throttling_says_when_to_retry():
    status, body, response = handle(exceptions.Throttled(wait=30))
    assert status == 429
    assert body["detail"] == "Trop de requêtes : réessayez dans 30 secondes."
    assert response["Retry-After"] == "30"


def test_an_unexpected_error_is_left_to_django():
    assert exception_handler(RuntimeError("boom"), {}) is None


# --- through real requests ------------------------------------------------------------------


pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(player):
    client = APIClient()
    client.force_login(player)
    return client


def test_anonymous_gets_a_401_in_french(client):
    response = client.get(reverse("campaigns_api:campaign-list"))
    assert response.status_code == 401
    assert response.json() == {"detail": "Authentification requise.", "errors": {}}
    assert response["WWW-Authenticate"] == "Token"


def test_an_unknown_campaign_is_introuvable(signed_in):
    response = signed_in.get(reverse("campaigns_api:campaign-detail", kwargs={"campaign_id": 999}))
    assert response.status_code == 404
    assert response.json()["detail"] == "Introuvable."


def test_a_huge_id_is_a_404_not_a_crash(signed_in):
    path = reverse("campaigns_api:campaign-detail", kwargs={"campaign_id": 10**30})
    assert signed_in.get(path).status_code == 404


def test_malformed_json_is_a_400_in_french(signed_in):
    response = signed_in.post(
        reverse("campaigns_api:campaign-list"), data="{pas du json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "Corps de requête illisible : envoyez un objet JSON valide."


def test_a_json_list_instead_of_an_object_is_a_400(signed_in):
    response = signed_in.post(
        reverse("campaigns_api:campaign-list"), data="[1, 2]", content_type="application/json"
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["non_field_errors"]


def test_form_data_is_refused_as_an_unsupported_media_type(signed_in):
    response = signed_in.post(reverse("campaigns_api:campaign-list"), {"name": "Table"})
    assert response.status_code == 415
    assert "non supporté" in response.json()["detail"]


def test_an_unsupported_method_is_a_405_in_french(signed_in):
    response = signed_in.put(reverse("campaigns_api:campaign-list"), {}, format="json")
    assert response.status_code == 405
    assert response.json()["detail"] == "Méthode «\xa0PUT\xa0» non autorisée."


def test_a_session_write_without_csrf_token_is_refused_in_french(player):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("campaigns_api:campaign-list"), {"name": "T"}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"].startswith("Jeton CSRF manquant ou invalide")


def test_a_nul_character_is_a_field_error_not_a_crash(signed_in):
    response = signed_in.post(
        reverse("campaigns_api:campaign-list"), {"name": "Ta\x00ble"}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["name"]
