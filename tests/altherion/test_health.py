import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_healthz_reports_the_database_and_the_broker(client, settings):
    settings.CELERY_BROKER_URL = ""
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "embedded"}


def test_healthz_is_503_when_the_configured_broker_does_not_answer(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["broker"] == "down"
    assert response.json()["database"] == "ok"


def test_healthz_is_200_with_a_live_broker(client, redis_broker):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json()["broker"] == "ok"
