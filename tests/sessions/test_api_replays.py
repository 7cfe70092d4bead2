"""One rule for every write a retry may replay (docs/api.md, « Idempotency keys »): done now is
201; the same request again with the same key is 200 with what was done the first time, and
nothing is done twice; the key with another request is 422, and nothing changes."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from characters.models import Character
from sessions.models import MoralePool, Roll, TableEvent
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import set_pool

pytestmark = pytest.mark.django_db


def api(user):
    client = APIClient()
    client.default_format = "json"
    client.force_authenticate(user)
    return client


def url(name, campaign, *args):
    return reverse(f"sessions_api:{name}", args=[campaign.pk, *args])


def sent_twice(client, address, body, key):
    first = client.post(address, body, HTTP_IDEMPOTENCY_KEY=key)
    again = client.post(address, body, HTTP_IDEMPOTENCY_KEY=key)
    return first, again


def test_a_roll_replayed_is_200_with_the_first_roll(player, campaign, aelis):
    body = {"character": aelis.pk, "characteristic": "strength", "impact": 1}
    first, again = sent_twice(api(player), url("roll-list", campaign), body, "roll-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert Roll.objects.count() == 1
    assert Character.objects.get(pk=aelis.pk).impact_points == 1


def test_a_fatalite_spend_replayed_is_200_and_spends_once(campaign, storyteller):
    set_pool(campaign, fate=4)
    body = {"points": 3, "reason": "le pont s'effondre"}
    first, again = sent_twice(api(storyteller), url("fate-spend", campaign), body, "fate-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert MoralePool.objects.get(campaign=campaign).fate == 1


def test_a_fatalite_key_sent_with_another_spend_is_422_and_spends_nothing(campaign, storyteller):
    set_pool(campaign, fate=4)
    client = api(storyteller)
    client.post(url("fate-spend", campaign), {"points": 1, "reason": "a"}, HTTP_IDEMPOTENCY_KEY="k")
    other = client.post(
        url("fate-spend", campaign), {"points": 2, "reason": "a"}, HTTP_IDEMPOTENCY_KEY="k"
    )
    assert other.status_code == 422
    assert "déjà servi pour une autre requête" in other.json()["detail"]
    assert MoralePool.objects.get(campaign=campaign).fate == 3


def test_a_fortune_request_replayed_is_200_with_the_same_request(campaign, player, aelis):
    aelis.fortune = 5
    aelis.save(update_fields=["fortune"])
    body = {"character": aelis.pk, "points": 2, "reason": "la corde tient"}
    address = url("fortune-request", campaign)
    first, again = sent_twice(api(player), address, body, "ask-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["event"] == first.json()["event"]
    other = api(player).post(address, {**body, "points": 1}, HTTP_IDEMPOTENCY_KEY="ask-1")
    assert other.status_code == 422
    assert TableEvent.objects.filter(campaign=campaign).count() == 1


def test_a_fortune_answer_given_again_is_200_and_spends_once(campaign, storyteller, player, aelis):
    aelis.fortune = 5
    aelis.save(update_fields=["fortune"])
    body = {"character": aelis.pk, "points": 2, "reason": "la corde tient"}
    asked = api(player).post(url("fortune-request", campaign), body, HTTP_IDEMPOTENCY_KEY="a")
    address = url("fortune-answer", campaign, asked.json()["event"]["id"])
    accepted = api(storyteller).post(address, {"accept": True})
    again = api(storyteller).post(address, {"accept": True})
    assert (accepted.status_code, again.status_code) == (201, 200)
    assert again.json()["event"] == accepted.json()["event"]
    assert Character.objects.get(pk=aelis.pk).fortune == 3


REPLAYABLE = {
    ("/api/campaigns/{campaign_id}/rolls/", "post"),
    ("/api/campaigns/{campaign_id}/morale/fate/spend/", "post"),
    ("/api/campaigns/{campaign_id}/morale/fortune/requests/", "post"),
}


def test_every_write_taking_a_key_documents_201_then_200_for_its_replay(django_db_blocker):
    """Rolls, Fatalité, Fortune and the fight's keyed writes (combatants, attacks, escapes,
    spells) say the same thing in the schema; their replays are tested with their API."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    keyed = set()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            names = {p["name"] for p in operation.get("parameters", []) if isinstance(p, dict)}
            if "Idempotency-Key" in names:
                keyed.add((path, method))
                assert {"200", "201"} <= set(operation["responses"]), (path, method)
    assert keyed >= REPLAYABLE
    assert len(keyed) >= 7  # and the fight's: combatants, attacks, escape, spells
