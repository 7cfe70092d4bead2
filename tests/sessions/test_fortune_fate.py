"""Fortune and Fatalité spent at the table (§14): the Conteur's Fatalité, a player's Fortune
with the Conteur's agreement — service, page and API."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.policy import campaign_get_for_member
from sessions import fortune
from sessions.models import MoralePool, TableEvent, Visibility
from sessions.selectors import events_for_user
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key, set_pool

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def spend(campaign, user, **kwargs):
    kwargs.setdefault("points", 2)
    kwargs.setdefault("reason", "le pont s'effondre")
    kwargs.setdefault("idempotency_key", key())
    return fortune.fate_spend(
        campaign=campaign_get_for_member(user=user, pk=campaign.pk), by=user, **kwargs
    )


def seen_by(campaign, user):
    return events_for_user(campaign=campaign_get_for_member(user=user, pk=campaign.pk), user=user)


def fate(campaign):
    return MoralePool.objects.get(campaign=campaign).fate


# --- service -----------------------------------------------------------------------------------


def test_the_conteur_spends_fatalite_and_the_log_says_why(campaign, storyteller, player, aelis):
    set_pool(campaign, fate=3)
    event = spend(campaign, storyteller, points=2)
    assert fate(campaign) == 1
    assert event.kind == "morale" and event.summary == (
        "Le Conteur dépense 2 Fatalité (le pont s'effondre) : reste 1."
    )
    assert event in seen_by(campaign, player)


def test_the_same_key_spends_once(campaign, storyteller):
    set_pool(campaign, fate=3)
    same = key()
    first = spend(campaign, storyteller, points=1, idempotency_key=same)
    again = spend(campaign, storyteller, points=1, idempotency_key=same)
    assert first.pk == again.pk and fate(campaign) == 2


def test_a_secret_spend_is_hidden_from_the_players(campaign, storyteller, player, aelis):
    set_pool(campaign, fate=2)
    event = spend(campaign, storyteller, points=1, visibility=Visibility.STORYTELLER)
    assert event not in seen_by(campaign, player)
    assert event in seen_by(campaign, storyteller)


def test_more_than_the_pool_or_a_player_is_refused_and_nothing_changes(
    campaign, storyteller, player, aelis
):
    set_pool(campaign, fate=1)
    with pytest.raises(ValidationError) as refused:
        spend(campaign, storyteller, points=2)
    assert "seulement 1 disponible" in " ".join(refused.value.messages)
    with pytest.raises(ValidationError):
        spend(campaign, storyteller, points=1, reason="   ")
    with pytest.raises(PermissionDenied):
        spend(campaign, player, points=1)
    assert fate(campaign) == 1 and not TableEvent.objects.filter(campaign=campaign).exists()


# --- page ----------------------------------------------------------------------------------------


def page_url(name, campaign):
    return reverse(f"sessions:{name}", args=[campaign.pk])


def form(**extra):
    data = {
        "points": 1,
        "reason": "une embuscade",
        "visibility": "public",
        "idempotency_key": key(),
    }
    data.update(extra)
    return data


def test_the_panel_offers_the_spend_to_the_conteur_only(
    client_for, campaign, storyteller, player, aelis
):
    set_pool(campaign, fate=2)
    assert (
        "Dépenser de la Fatalité"
        in client_for(storyteller).get(page_url("table", campaign)).content.decode()
    )
    assert (
        "Dépenser de la Fatalité"
        not in client_for(player).get(page_url("table", campaign)).content.decode()
    )


def test_a_spend_from_the_panel_htmx_and_without_javascript(
    client_for, campaign, storyteller, aelis
):
    set_pool(campaign, fate=3)
    conteur = client_for(storyteller)
    response = conteur.post(page_url("fate_spend", campaign), form(points=2), **HX)
    assert response.status_code == 200 and "table-poll" in response["HX-Trigger"]
    assert 'data-morale="fate">1<' in response.content.decode()
    redirected = conteur.post(page_url("fate_spend", campaign), form())
    assert redirected.status_code == 302 and fate(campaign) == 0


def test_a_spend_beyond_the_pool_is_a_french_error_in_the_panel(
    client_for, campaign, storyteller, aelis
):
    set_pool(campaign, fate=1)
    response = client_for(storyteller).post(
        page_url("fate_spend", campaign), form(points=3, reason="la tempête"), **HX
    )
    body = response.content.decode()
    assert response.status_code == 200 and "seulement 1 disponible" in body
    assert 'value="la tempête"' in body and fate(campaign) == 1


def test_strangers_and_players_cannot_spend(client_for, campaign, player, outsider, aelis):
    set_pool(campaign, fate=2)
    assert client_for(outsider).post(page_url("fate_spend", campaign), form()).status_code == 404
    assert client_for(player).post(page_url("fate_spend", campaign), form()).status_code == 403
    assert fate(campaign) == 2


# --- API -----------------------------------------------------------------------------------------


def api(user):
    client = APIClient()
    client.default_format = "json"
    client.force_authenticate(user)
    return client


def api_url(campaign):
    return reverse("sessions_api:fate-spend", args=[campaign.pk])


def test_a_rest_client_spends_fatalite_once_per_key(campaign, storyteller, player, aelis):
    set_pool(campaign, fate=4)
    body = {"points": 3, "reason": "malus au jet de chance"}
    made = api(storyteller).post(api_url(campaign), body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert made.status_code == 201, made.json()
    assert made.json()["morale"]["fate"] == 1
    again = api(storyteller).post(api_url(campaign), body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.json()["event"]["id"] == made.json()["event"]["id"] and fate(campaign) == 1
    log = api(player).get(reverse("sessions_api:log", args=[campaign.pk])).json()
    assert log["results"][0]["summary"].startswith("Le Conteur dépense 3 Fatalité")


def test_the_api_refuses_bad_spends_in_french(campaign, storyteller, player, outsider, aelis):
    set_pool(campaign, fate=1)
    too_many = api(storyteller).post(api_url(campaign), {"points": 2, "reason": "x"})
    assert too_many.status_code == 400 and "disponible" in str(too_many.json())
    negative = api(storyteller).post(api_url(campaign), {"points": -1, "reason": "x"})
    assert negative.status_code == 400
    assert api(player).post(api_url(campaign), {"points": 1, "reason": "x"}).status_code == 403
    assert api(outsider).post(api_url(campaign), {"points": 1, "reason": "x"}).status_code == 404
    assert fate(campaign) == 1


# --- Fortune: a player asks, the Conteur accepts or refuses ----------------------------------


def ask(campaign, user, character, **kwargs):
    kwargs.setdefault("points", 2)
    kwargs.setdefault("reason", "la corde tient")
    kwargs.setdefault("idempotency_key", key())
    return fortune.fortune_request(
        campaign=campaign_get_for_member(user=user, pk=campaign.pk),
        by=user,
        character_id=character.pk,
        **kwargs,
    )


def answer(campaign, user, asked, accept):
    return fortune.fortune_answer(
        campaign=campaign_get_for_member(user=user, pk=campaign.pk),
        by=user,
        request_id=asked.pk,
        accept=accept,
    )


def with_fortune(character, points):
    character.fortune = points
    character.save(update_fields=["fortune"])
    return character


def test_a_fortune_request_waits_then_the_accepted_points_leave_the_sheet(
    campaign, storyteller, player, aelis
):
    from characters.models import CharacterChange
    from sessions.selectors import morale_panel

    with_fortune(aelis, 4)
    asked = ask(campaign, player, aelis, points=3)
    aelis.refresh_from_db()
    assert aelis.fortune == 4 and asked.summary == (
        "Aelis demande à dépenser 3 Fortune (la corde tient)."
    )
    panel = morale_panel(campaign=campaign, user=storyteller)
    assert [(r.name, r.points) for r in panel.fortune_requests] == [("Aelis", 3)]
    version = aelis.version
    done = answer(campaign, storyteller, asked, accept=True)
    aelis.refresh_from_db()
    assert aelis.fortune == 1 and aelis.version == version + 1
    assert CharacterChange.objects.filter(character=aelis, field="fortune").exists()
    assert done.summary == (
        "Le Conteur accepte : Aelis dépense 3 Fortune (la corde tient) : reste 1."
    )
    assert not morale_panel(campaign=campaign, user=storyteller).fortune_requests
    assert answer(campaign, storyteller, asked, accept=True).pk == done.pk  # a retry
    aelis.refresh_from_db()
    assert aelis.fortune == 1


def test_a_refused_request_spends_nothing_and_is_logged(campaign, storyteller, player, aelis):
    with_fortune(aelis, 2)
    asked = ask(campaign, player, aelis)
    done = answer(campaign, storyteller, asked, accept=False)
    aelis.refresh_from_db()
    assert aelis.fortune == 2 and "refuse la dépense de 2 Fortune d'Aelis" in done.summary
    with pytest.raises(ValidationError):
        answer(campaign, storyteller, asked, accept=True)


def test_asking_more_fortune_than_held_or_for_another_is_refused(
    campaign, storyteller, player, other_player, aelis, brann
):
    with_fortune(aelis, 1)
    with pytest.raises(ValidationError) as refused:
        ask(campaign, player, aelis, points=2)
    assert "Fortune : 2 points demandés, seulement 1 disponible." in refused.value.messages
    with pytest.raises(PermissionDenied):
        ask(campaign, other_player, aelis, points=1)
    asked = ask(campaign, player, aelis, points=1)
    with pytest.raises(PermissionDenied):
        answer(campaign, player, asked, accept=True)
    assert TableEvent.objects.filter(campaign=campaign).count() == 1


def test_the_player_asks_from_the_panel_and_the_conteur_answers_there(
    client_for, campaign, storyteller, player, aelis
):
    with_fortune(aelis, 3)
    joueur, conteur = client_for(player), client_for(storyteller)
    assert "Demander de la Fortune" in joueur.get(page_url("table", campaign)).content.decode()
    data = {"character": aelis.pk, "points": 2, "reason": "un coup de chance",
            "idempotency_key": key()}  # fmt: skip
    response = joueur.post(page_url("fortune_request", campaign), data, **HX)
    body = response.content.decode()
    assert "Aelis demande 2 Fortune : un coup de chance" in body and "en attente du Conteur" in body
    asked = TableEvent.objects.get(campaign=campaign)
    panel = conteur.get(page_url("table", campaign)).content.decode()
    assert "Accepter" in panel and "Refuser" in panel
    answer_url = reverse("sessions:fortune_answer", args=[campaign.pk, asked.pk])
    assert joueur.post(answer_url, {"answer": "accept"}).status_code == 403
    accepted = conteur.post(answer_url, {"answer": "accept"}, **HX)
    assert accepted.status_code == 200 and 'data-personal="fortune">1<' in accepted.content.decode()
    again = conteur.post(answer_url, {"answer": "refuse"})  # no JavaScript: a redirect
    assert again.status_code == 302
    aelis.refresh_from_db()
    assert aelis.fortune == 1


def test_a_fortune_request_beyond_the_sheet_is_a_french_error_in_the_panel(
    client_for, campaign, player, outsider, aelis
):
    with_fortune(aelis, 1)
    data = {"character": aelis.pk, "points": 4, "reason": "x", "idempotency_key": key()}
    response = client_for(player).post(page_url("fortune_request", campaign), data, **HX)
    assert "seulement 1 disponible" in response.content.decode()
    stranger = client_for(outsider).post(page_url("fortune_request", campaign), data)
    assert stranger.status_code == 404
    assert not TableEvent.objects.filter(campaign=campaign).exists()


def test_a_rest_client_asks_for_fortune_and_the_conteur_accepts(
    campaign, storyteller, player, outsider, aelis
):
    with_fortune(aelis, 5)
    requests_url = reverse("sessions_api:fortune-request", args=[campaign.pk])
    body = {"character": aelis.pk, "points": 2, "reason": "bonus au jet de chance"}
    made = api(player).post(requests_url, body, HTTP_IDEMPOTENCY_KEY="f-1")
    assert made.status_code == 201, made.json()
    again = api(player).post(requests_url, body, HTTP_IDEMPOTENCY_KEY="f-1")
    assert again.json()["event"]["id"] == made.json()["event"]["id"]
    pending = api(storyteller).get(reverse("sessions_api:morale", args=[campaign.pk])).json()
    assert [r["points"] for r in pending["fortune_requests"]] == [2]
    answer_url = reverse(
        "sessions_api:fortune-answer", args=[campaign.pk, made.json()["event"]["id"]]
    )
    assert api(player).post(answer_url, {"accept": True}).status_code == 403
    assert api(outsider).post(answer_url, {"accept": True}).status_code == 404
    accepted = api(storyteller).post(answer_url, {"accept": True})
    assert accepted.status_code == 201
    member = accepted.json()["morale"]["members"][0]
    assert member["fortune"] == 3 and accepted.json()["morale"]["fortune_requests"] == []
    too_many = api(player).post(requests_url, {**body, "points": 4})
    assert too_many.status_code == 400 and "disponible" in str(too_many.json())
    assert api(player).post(requests_url, {**body, "points": 0}).status_code == 400


def test_answering_a_line_that_is_no_fortune_request_is_not_found(
    client_for, campaign, storyteller, aelis
):
    set_pool(campaign, fate=1)
    other = spend(campaign, storyteller, points=1)
    page = reverse("sessions:fortune_answer", args=[campaign.pk, other.pk])
    assert client_for(storyteller).post(page, {"answer": "accept"}).status_code == 404
    rest = reverse("sessions_api:fortune-answer", args=[campaign.pk, other.pk])
    assert api(storyteller).post(rest, {"accept": True}).status_code == 404
