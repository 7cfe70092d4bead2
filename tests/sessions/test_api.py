"""The table API: a REST client runs a session (roll, read the log, move the Moral)."""

import pytest
from django.db.models import F
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaigns import services as campaign_services
from campaigns.models import Membership
from characters.models import Character
from rules.check import Check
from rules.odds import check_odds
from sessions.models import MoralePool, Roll
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


def test_a_rest_client_runs_a_session(storyteller, player, campaign, aelis, brann):
    conteur, joueur = api(storyteller), api(player)
    log = joueur.get(url("log", campaign)).json()
    assert log == {"cursor": 0, "results": []}
    made = joueur.post(
        url("roll-list", campaign),
        {"character": aelis.pk, "characteristic": "strength", "skills": ["melee"], "difficulty": 8},
        format="json",
    )
    assert made.status_code == 201, made.json()
    roll = made.json()
    assert roll["character_name"] == "Aelis" and roll["rolled_by"] == "aelis"
    assert roll["breakdown"]["dice"] and roll["total"] == roll["breakdown"]["total"]
    moved = conteur.post(url("morale-action", campaign), {"action": "gain_hope"}, format="json")
    assert moved.status_code == 201 and moved.json()["morale"]["hope"] == 1
    spent = joueur.post(
        url("morale-action", campaign),
        {"action": "spend_hope", "character": aelis.pk, "source": "group"},
        format="json",
    )
    assert spent.status_code == 201 and spent.json()["morale"]["hope"] == 0
    after = joueur.get(url("log", campaign), {"after": log["cursor"]}).json()
    assert [e["kind"] for e in after["results"]] == ["morale", "morale", "roll"]
    assert joueur.get(url("log", campaign), {"after": after["cursor"]}).json()["results"] == []
    state = joueur.get(url("morale", campaign)).json()
    assert (state["hope"], state["capacity"]) == (0, 2)


def test_the_idempotency_key_makes_a_retry_return_the_same_roll(player, campaign, aelis):
    client = api(player)
    body = {"character": aelis.pk, "characteristic": "strength", "impact": 1}
    first = client.post(url("roll-list", campaign), body, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    again = client.post(url("roll-list", campaign), body, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    aelis.refresh_from_db()
    assert aelis.impact_points == 1 and Roll.objects.count() == 1


def test_the_key_sent_again_with_another_request_is_a_422_that_changes_nothing(
    player, campaign, aelis
):
    """Issue 12 §5: the first roll is not silently returned for a different request."""
    client = api(player)
    body = {"character": aelis.pk, "characteristic": "strength", "impact": 1}
    first = client.post(url("roll-list", campaign), body, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    other = client.post(
        url("roll-list", campaign),
        {**body, "characteristic": "agility"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="r1",
    )
    assert (first.status_code, other.status_code) == (201, 422)
    assert "déjà servi pour une autre requête" in other.json()["detail"]
    assert other["Content-Type"] == "application/json"
    aelis.refresh_from_db()
    assert aelis.impact_points == 1 and Roll.objects.count() == 1


def test_a_roll_that_cannot_be_paid_is_a_400_that_changes_nothing(player, campaign, aelis):
    response = api(player).post(
        url("roll-list", campaign),
        {"character": aelis.pk, "characteristic": "strength", "impact": 1, "hope": 1},
        format="json",
    )
    assert response.status_code == 400
    assert "espoir" in response.json()["detail"]
    aelis.refresh_from_db()
    assert aelis.impact_points == 2 and not Roll.objects.exists()


def test_secret_rolls_stay_out_of_other_players_lists(
    player, other_player, storyteller, campaign, aelis
):
    made = (
        api(player)
        .post(
            url("roll-list", campaign),
            {"character": aelis.pk, "characteristic": "strength", "visibility": "storyteller"},
            format="json",
        )
        .json()
    )
    other = api(other_player)
    assert other.get(url("roll-list", campaign)).json()["results"] == []
    assert other.get(url("roll-detail", campaign, made["id"])).status_code == 404
    assert other.get(url("log", campaign)).json()["results"] == []
    assert len(api(storyteller).get(url("roll-list", campaign)).json()["results"]) == 1
    assert len(api(player).get(url("log", campaign)).json()["results"]) == 1


def test_the_roll_list_is_cursor_paginated_and_filtered(player, campaign, aelis, brann):
    client = api(player)
    for _ in range(3):
        client.post(
            url("roll-list", campaign),
            {"character": aelis.pk, "characteristic": "agility"},
            format="json",
        )
    page = client.get(url("roll-list", campaign), {"page_size": 2}).json()
    assert len(page["results"]) == 2 and page["next"]
    rest = client.get(page["next"]).json()
    assert len(rest["results"]) == 1
    assert client.get(url("roll-list", campaign), {"character": brann.pk}).json()["results"] == []


def test_odds_take_the_checks_inputs(player, campaign, aelis):
    response = api(player).get(
        url("odds", campaign),
        {"character": aelis.pk, "characteristic": "strength", "skills": "melee", "difficulty": 9},
    )
    expected = check_odds(Check(skill=3, characteristic=4, difficulty=9))
    assert response.status_code == 200
    assert response.json()["success"] == pytest.approx(expected.success)
    assert response.json()["critical_failure"] == pytest.approx(expected.critical_failure)


def test_permissions(player, other_player, outsider, campaign, aelis, brann):
    assert api(outsider).get(url("morale", campaign)).status_code == 404
    assert api(outsider).get(url("log", campaign)).status_code == 404
    response = api(player).post(url("morale-action", campaign), {"action": "gain_hope"})
    assert response.status_code == 403
    response = api(other_player).post(
        url("roll-list", campaign), {"character": aelis.pk, "characteristic": "strength"}
    )
    assert response.status_code == 403
    assert APIClient().get(url("log", campaign)).status_code == 401


def test_the_storyteller_applies_a_consequence(storyteller, player, campaign, aelis):
    made = api(player).post(
        url("roll-list", campaign), {"character": aelis.pk, "characteristic": "strength"}
    )
    Roll.objects.filter(pk=made.json()["id"]).update(outcome="critical_failure")
    response = api(storyteller).post(
        url("roll-consequence", campaign, made.json()["id"]), {"kind": "fate"}, format="json"
    )
    assert response.status_code == 201 and "Fatalité" in response.json()["summary"]
    assert MoralePool.objects.get().fate == 1
    again = api(storyteller).post(
        url("roll-consequence", campaign, made.json()["id"]), {"kind": "fate"}, format="json"
    )
    assert again.status_code == 400


def test_a_refused_moral_move_is_explained(storyteller, campaign, aelis, brann):
    set_pool(campaign, hope=2)
    response = api(storyteller).post(
        url("morale-action", campaign), {"action": "hope_exploit", "agreeing": [aelis.pk]}
    )
    assert response.status_code == 400
    assert response.json()["detail"] == ("Un exploit demande l'unanimité ; manquent : Brann.")
    assert MoralePool.objects.get().hope == 2


def test_injuries_are_listed_declared_and_healed(storyteller, player, campaign, aelis, brann):
    from sessions.models import Injury

    injury = Injury.objects.create(campaign=campaign, character=aelis, row=2, effect="broken_bones")
    state = api(player).get(url("morale", campaign)).json()
    listed = next(m for m in state["members"] if m["name"] == "Aelis")["injuries"]
    assert [i["id"] for i in listed] == [injury.pk]
    made = api(player).post(
        url("roll-list", campaign),
        {"character": aelis.pk, "characteristic": "strength", "injuries": [injury.pk]},
    )
    assert made.status_code == 201 and made.json()["inputs"]["check"]["bane"] == 1
    assert api(player).post(url("injury-heal", campaign, injury.pk)).status_code == 403
    assert api(storyteller).post(url("injury-heal", campaign, injury.pk)).status_code == 201
    assert api(storyteller).post(url("injury-heal", campaign, injury.pk)).status_code == 400


def test_what_each_character_used_in_an_arc(storyteller, player, outsider, campaign, aelis):
    from campaigns.models import Arc

    arc = Arc.objects.create(campaign=campaign, title="Le phare")
    client = api(player)
    for characteristic, skills in [("strength", ["melee"]), ("finesse", ["sport", "melee"])]:
        client.post(
            url("roll-list", campaign),
            {"character": aelis.pk, "characteristic": characteristic, "skills": skills},
        )
    used = api(storyteller).get(url("used-in-arc", campaign, arc.pk)).json()
    assert used == [
        {
            "character": aelis.pk,
            "characteristics": ["finesse", "strength"],
            "skills": ["melee", "sport"],
        }
    ]
    assert api(outsider).get(url("used-in-arc", campaign, arc.pk)).status_code == 404


def test_a_roll_read_again_with_its_etag_is_a_304_until_it_changes(
    storyteller, player, other_player, outsider, campaign, aelis
):
    made = api(player).post(
        url("roll-list", campaign), {"character": aelis.pk, "characteristic": "strength"}
    )
    detail = url("roll-detail", campaign, made.json()["id"])
    first = api(player).get(detail)
    etag = first["ETag"]
    assert first.status_code == 200 and first.json() == made.json()
    again = api(player).get(detail, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert api(player).get(detail, HTTP_IF_NONE_MATCH=f"W/{etag}").status_code == 304
    assert api(player).get(detail, HTTP_IF_NONE_MATCH='"autre"').status_code == 200
    # A consequence applied: a new answer, with a new ETag.
    Roll.objects.filter(pk=made.json()["id"]).update(outcome="critical_failure")
    api(storyteller).post(
        url("roll-consequence", campaign, made.json()["id"]), {"kind": "fate"}, format="json"
    )
    fresh = api(player).get(detail, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh.json()["consequences"] == ["fate"]
    assert fresh["ETag"] != etag
    # The roller renamed: a new answer too.
    Character.objects.filter(pk=aelis.pk).update(name="Aelis la Brune", version=F("version") + 1)
    renamed = api(player).get(detail, HTTP_IF_NONE_MATCH=fresh["ETag"])
    assert renamed.status_code == 200 and renamed.json()["character_name"] == "Aelis la Brune"
    # An ETag opens nothing: a stranger still gets a 404.
    assert api(outsider).get(detail, HTTP_IF_NONE_MATCH=renamed["ETag"]).status_code == 404


def test_a_secret_roll_s_etag_gives_other_players_a_404(player, other_player, campaign, aelis):
    made = api(player).post(
        url("roll-list", campaign),
        {"character": aelis.pk, "characteristic": "strength", "visibility": "storyteller"},
        format="json",
    )
    detail = url("roll-detail", campaign, made.json()["id"])
    etag = api(player).get(detail)["ETag"]
    assert api(other_player).get(detail, HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert api(other_player).get(detail, HTTP_IF_NONE_MATCH="*").status_code == 404


def test_a_member_removed_is_a_404_at_the_next_call(player, campaign, aelis):
    client = APIClient(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player).key}")
    log = url("log", campaign)
    assert client.get(log).status_code == 200
    campaign_services.membership_remove(
        membership=Membership.objects.get(campaign=campaign, user=player)
    )
    assert client.get(log).status_code == 404
    body = {"character": aelis.pk, "characteristic": "strength"}
    assert client.post(url("roll-list", campaign), body, format="json").status_code == 404
