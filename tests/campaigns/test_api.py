"""The campaign API as a client sees it: what each endpoint returns and changes.

Who may call what is in test_permissions_api.py; query counts in test_api_queries.py.
"""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaigns.models import (
    Ability,
    Arc,
    CharacterClass,
    Invitation,
    Membership,
    PlaySession,
    Role,
    Species,
)

pytestmark = pytest.mark.django_db


def url(name, **kwargs):
    return reverse(f"campaigns_api:{name}", kwargs=kwargs)


@pytest.fixture
def api_as():
    def make(user):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return make


def send(client, method, path, body=None):
    return client.generic(
        method,
        path,
        data=None if body is None else json.dumps(body),
        content_type="application/json",
    )


# --- campaigns ----------------------------------------------------------------------------------


def test_creating_a_campaign_makes_you_its_conteur(api_as, outsider):
    client = api_as(outsider)
    response = send(client, "POST", url("campaign-list"), {"name": "Les Marches", "tier": "hero"})
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Les Marches"
    assert body["tier"] == "hero"
    assert body["role"] == "storyteller"
    assert body["creation_budget"] == 75
    assert body["member_count"] == 1
    assert body["storyteller_name"] == "intrus"
    membership = Membership.objects.get(campaign_id=body["id"], user=outsider)
    assert membership.role == Role.STORYTELLER


def test_my_campaigns_lists_only_mine_with_my_role(api_as, campaign, player, other_campaign):
    body = api_as(player).get(url("campaign-list")).json()
    assert body["count"] == 1
    [row] = body["results"]
    assert row["id"] == campaign.pk
    assert row["role"] == "player"
    assert row["member_count"] == 3
    assert row["storyteller_name"] == "conteur"


def test_my_campaigns_filter_by_role_and_name(api_as, campaign, storyteller, player):
    from campaigns.services import campaign_create

    campaign_create(creator=player, name="La table d'Aelis")
    client = api_as(player)
    mine = client.get(url("campaign-list"), {"role": "storyteller"}).json()["results"]
    assert [row["name"] for row in mine] == ["La table d'Aelis"]
    named = client.get(url("campaign-list"), {"name": "brumes"}).json()["results"]
    assert [row["id"] for row in named] == [campaign.pk]
    bad = client.get(url("campaign-list"), {"role": "roi"})
    assert bad.status_code == 400
    assert "role" in bad.json()["errors"]


def test_conteur_updates_the_campaign_and_bad_values_change_nothing(api_as, campaign, storyteller):
    client = api_as(storyteller)
    response = send(
        client, "PATCH", url("campaign-detail", campaign_id=campaign.pk), {"in_game_day": 12}
    )
    assert response.status_code == 200
    assert response.json()["in_game_day"] == 12
    refused = send(
        client,
        "PATCH",
        url("campaign-detail", campaign_id=campaign.pk),
        {"name": "Nouveau", "creation_budget": 0},
    )
    assert refused.status_code == 400
    assert list(refused.json()["errors"]) == ["creation_budget"]
    campaign.refresh_from_db()
    assert (campaign.name, campaign.in_game_day) == ("Les Brumes d'Emeshar", 12)


def test_a_missing_name_is_a_field_error_in_french(api_as, outsider):
    response = send(api_as(outsider), "POST", url("campaign-list"), {"description": "…"})
    assert response.status_code == 400
    assert response.json() == {
        "detail": "Champ « name » : Ce champ est obligatoire.",
        "errors": {"name": ["Ce champ est obligatoire."]},
    }


def test_token_authentication_works_without_a_session(campaign, player):
    token = Token.objects.create(user=player)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(url("campaign-detail", campaign_id=campaign.pk)).status_code == 200
    client.credentials(HTTP_AUTHORIZATION="Token pas-le-bon")
    refused = client.get(url("campaign-detail", campaign_id=campaign.pk))
    assert refused.status_code == 401
    assert refused.json()["detail"].startswith("Authentification refusée")


# --- members --------------------------------------------------------------------------------------


def test_members_list_the_conteur_first(api_as, campaign, player):
    body = api_as(player).get(url("member-list", campaign_id=campaign.pk)).json()
    assert [(m["username"], m["role"]) for m in body["results"]] == [
        ("conteur", "storyteller"),
        ("aelis", "player"),
        ("brann", "player"),
    ]


def test_a_removed_member_loses_access_at_once(api_as, campaign, storyteller, player):
    player_client = api_as(player)
    detail = url("campaign-detail", campaign_id=campaign.pk)
    assert player_client.get(detail).status_code == 200
    membership = Membership.objects.get(campaign=campaign, user=player)
    removed = api_as(storyteller).delete(
        url("member-detail", campaign_id=campaign.pk, pk=membership.pk)
    )
    assert removed.status_code == 204
    assert player_client.get(detail).status_code == 404
    assert player_client.get(url("arc-list", campaign_id=campaign.pk)).status_code == 404


def test_a_player_who_leaves_loses_access_and_the_conteur_cannot_leave(
    api_as, campaign, storyteller, player
):
    client = api_as(player)
    assert client.post(url("campaign-leave", campaign_id=campaign.pk)).status_code == 204
    assert client.get(url("campaign-detail", campaign_id=campaign.pk)).status_code == 404
    refused = api_as(storyteller).post(url("campaign-leave", campaign_id=campaign.pk))
    assert refused.status_code == 400
    assert "confiez d'abord le rôle" in refused.json()["detail"]


def test_the_conteur_cannot_be_removed(api_as, campaign, storyteller):
    membership = Membership.objects.get(campaign=campaign, user=storyteller)
    response = api_as(storyteller).delete(
        url("member-detail", campaign_id=campaign.pk, pk=membership.pk)
    )
    assert response.status_code == 400
    assert "confiez d'abord le rôle" in response.json()["detail"]
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_hand_over_makes_the_member_conteur_and_the_old_one_a_player(
    api_as, campaign, storyteller, player
):
    client = api_as(storyteller)
    membership = Membership.objects.get(campaign=campaign, user=player)
    response = client.post(url("member-hand-over", campaign_id=campaign.pk, pk=membership.pk))
    assert response.status_code == 200
    assert response.json()["username"] == "aelis"
    assert response.json()["role"] == "storyteller"
    roles = dict(Membership.objects.filter(campaign=campaign).values_list("user__username", "role"))
    assert roles == {"conteur": "player", "aelis": "storyteller", "brann": "player"}
    # The former Conteur is now refused the Conteur's actions.
    again = client.post(url("member-hand-over", campaign_id=campaign.pk, pk=membership.pk))
    assert again.status_code == 403


def test_hand_over_to_yourself_is_refused(api_as, campaign, storyteller):
    membership = Membership.objects.get(campaign=campaign, user=storyteller)
    response = api_as(storyteller).post(
        url("member-hand-over", campaign_id=campaign.pk, pk=membership.pk)
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "Ce membre est déjà le Conteur."


# --- invitations ----------------------------------------------------------------------------------


def test_conteur_creates_lists_and_revokes_invitations(api_as, campaign, storyteller):
    client = api_as(storyteller)
    created = send(
        client, "POST", url("invitation-list", campaign_id=campaign.pk), {"days": 3, "max_uses": 2}
    )
    assert created.status_code == 201
    body = created.json()
    assert body["state"] == "active"
    assert body["max_uses"] == 2
    assert body["created_by"] == "conteur"
    assert len(body["token"]) >= 20
    invitation = Invitation.objects.get(pk=body["id"])
    assert timedelta(days=2, hours=23) < invitation.expires_at - timezone.now() <= timedelta(days=3)

    revoked = client.post(url("invitation-revoke", campaign_id=campaign.pk, pk=body["id"]))
    assert revoked.status_code == 200
    assert revoked.json()["state"] == "revoked"
    active = client.get(url("invitation-list", campaign_id=campaign.pk), {"active": "true"})
    assert active.json()["count"] == 0
    inactive = client.get(url("invitation-list", campaign_id=campaign.pk), {"active": "false"})
    assert [row["id"] for row in inactive.json()["results"]] == [body["id"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [({"days": 0}, "days"), ({"days": 91}, "days"), ({"max_uses": 0}, "max_uses")],
)
def test_invitation_bounds_are_field_errors(api_as, campaign, storyteller, body, field):
    response = send(
        api_as(storyteller), "POST", url("invitation-list", campaign_id=campaign.pk), body
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [field]
    assert not Invitation.objects.exists()


def test_accepting_an_invitation_joins_as_a_player(api_as, campaign, invitation, outsider):
    client = api_as(outsider)
    response = send(client, "POST", url("invitation-accept"), {"token": invitation.token})
    assert response.status_code == 201
    assert response.json()["campaign"] == campaign.pk
    assert response.json()["role"] == "player"
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert client.get(url("campaign-detail", campaign_id=campaign.pk)).json()["role"] == "player"


def _accept(client, token):
    return send(client, "POST", url("invitation-accept"), {"token": token})


def test_an_expired_invitation_is_refused(api_as, invitation, outsider):
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now())
    response = _accept(api_as(outsider), invitation.token)
    assert response.status_code == 400
    assert response.json()["errors"]["non_field_errors"] == [
        "Ce lien d'invitation a expiré : demandez-en un nouveau au Conteur."
    ]
    assert not Membership.objects.filter(user=outsider).exists()


def test_a_revoked_invitation_is_refused(api_as, campaign, storyteller, invitation, outsider):
    api_as(storyteller).post(url("invitation-revoke", campaign_id=campaign.pk, pk=invitation.pk))
    response = _accept(api_as(outsider), invitation.token)
    assert response.status_code == 400
    assert "révoqué" in response.json()["detail"]
    assert not Membership.objects.filter(user=outsider).exists()


def test_a_used_up_invitation_is_refused(api_as, invitation, outsider, make_user):
    Invitation.objects.filter(pk=invitation.pk).update(max_uses=1)
    assert _accept(api_as(make_user("morgane")), invitation.token).status_code == 201
    response = _accept(api_as(outsider), invitation.token)
    assert response.status_code == 400
    assert "autant de fois que permis" in response.json()["detail"]
    invitation.refresh_from_db()
    assert invitation.uses == 1


def test_an_invitation_is_refused_to_a_member_and_to_the_conteur(
    api_as, invitation, player, storyteller
):
    as_player = _accept(api_as(player), invitation.token)
    assert as_player.status_code == 400
    assert as_player.json()["detail"] == "Vous êtes déjà membre de cette campagne."
    as_conteur = _accept(api_as(storyteller), invitation.token)
    assert as_conteur.status_code == 400
    assert "ce lien est pour vos joueurs" in as_conteur.json()["detail"]
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_an_unknown_token_is_refused(api_as, outsider):
    response = _accept(api_as(outsider), "nimporte-quoi")
    assert response.status_code == 400
    assert response.json()["detail"] == "Ce lien d'invitation n'existe pas."


# --- arcs and play sessions ----------------------------------------------------------------------


def test_arcs_are_created_closed_and_reopened(api_as, campaign, storyteller, player):
    client = api_as(storyteller)
    created = send(
        client,
        "POST",
        url("arc-list", campaign_id=campaign.pk),
        {"title": "La marée noire", "chapter": 2, "closes": "chapter", "length_unit": "weeks"},
    )
    assert created.status_code == 201
    arc = created.json()
    assert (arc["status"], arc["closed_at"], arc["session_count"]) == ("open", None, 0)
    closed = client.post(url("arc-close", campaign_id=campaign.pk, pk=arc["id"]))
    assert closed.json()["status"] == "closed"
    assert closed.json()["closed_at"] is not None
    listed = api_as(player).get(url("arc-list", campaign_id=campaign.pk), {"status": "closed"})
    assert [row["id"] for row in listed.json()["results"]] == [arc["id"]]
    reopened = client.post(url("arc-reopen", campaign_id=campaign.pk, pk=arc["id"]))
    assert (reopened.json()["status"], reopened.json()["closed_at"]) == ("open", None)


def test_status_is_not_writable_through_patch(api_as, campaign, storyteller, arc):
    response = send(
        api_as(storyteller),
        "PATCH",
        url("arc-detail", campaign_id=campaign.pk, pk=arc.pk),
        {"status": "closed", "act": 0},
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["act"]
    arc.refresh_from_db()
    assert arc.status == "open"


def test_play_sessions_filter_by_arc_and_dates(
    api_as, campaign, storyteller, arc, make_play_session
):
    in_arc = make_play_session(campaign, title="Dans l'arc", days=3, arc=arc)
    later = make_play_session(campaign, title="Plus tard", days=40)
    client = api_as(storyteller)
    path = url("play-session-list", campaign_id=campaign.pk)
    by_arc = client.get(path, {"arc": arc.pk}).json()["results"]
    assert [row["id"] for row in by_arc] == [in_arc.pk]
    assert by_arc[0]["arc_title"] == arc.title
    after = (timezone.localdate() + timedelta(days=10)).isoformat()
    assert [row["id"] for row in client.get(path, {"after": after}).json()["results"]] == [later.pk]
    before = client.get(path, {"before": after}).json()["results"]
    assert [row["id"] for row in before] == [in_arc.pk]
    assert client.get(path, {"arc": "1.5"}).status_code == 400
    assert client.get(path, {"after": "demain"}).status_code == 400


def test_a_play_session_cannot_point_at_another_campaigns_arc(
    api_as, campaign, storyteller, other_campaign, make_arc
):
    foreign_arc = make_arc(other_campaign, title="Ailleurs")
    response = send(
        api_as(storyteller),
        "POST",
        url("play-session-list", campaign_id=campaign.pk),
        {"title": "Séance", "scheduled_at": "2030-01-01T20:00:00Z", "arc": foreign_arc.pk},
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["arc"]
    assert not PlaySession.objects.filter(campaign=campaign).exists()


def test_a_play_session_without_a_date_is_refused(api_as, campaign, storyteller):
    response = send(
        api_as(storyteller),
        "POST",
        url("play-session-list", campaign_id=campaign.pk),
        {"title": "Séance"},
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {"scheduled_at": ["Ce champ est obligatoire."]}


def test_deleting_an_arc_keeps_its_play_sessions(api_as, campaign, storyteller, play_session):
    response = api_as(storyteller).delete(
        url("arc-detail", campaign_id=campaign.pk, pk=play_session.arc_id)
    )
    assert response.status_code == 204
    assert not Arc.objects.filter(campaign=campaign).exists()
    play_session.refresh_from_db()
    assert play_session.arc is None


# --- compendium -----------------------------------------------------------------------------------


def test_species_characteristics_are_checked(api_as, campaign, storyteller):
    client = api_as(storyteller)
    path = url("compendium-species-list", campaign_id=campaign.pk)
    created = send(
        client,
        "POST",
        path,
        {
            "name": "Ondin",
            "favourite_characteristics": ["will", "wisdom"],
            "modifiers": {"will": 2, "strength": -1},
        },
    )
    assert created.status_code == 201
    assert created.json()["modifiers"] == {"will": 2, "strength": -1}
    for body, field in [
        ({"name": "A", "favourite_characteristics": ["chance"]}, "favourite_characteristics.0"),
        ({"name": "B", "favourite_characteristics": ["will", "will"]}, "favourite_characteristics"),
        ({"name": "C", "modifiers": {"will": 4}}, "modifiers.will"),
        ({"name": "D", "modifiers": {"chance": 1}}, "modifiers"),
        ({"name": "E", "modifiers": {"will": True}}, "modifiers.will"),
        ({"name": "F", "modifiers": [1]}, "modifiers"),
    ]:
        response = send(client, "POST", path, body)
        assert response.status_code == 400, body
        assert list(response.json()["errors"]) == [field], (body, response.json())
    assert list(Species.objects.values_list("name", flat=True)) == ["Ondin"]


def test_a_duplicate_name_is_refused_in_french(api_as, campaign, storyteller, compendium):
    response = send(
        api_as(storyteller),
        "POST",
        url("compendium-assets-list", campaign_id=campaign.pk),
        {"name": "Ambidextre"},
    )
    assert response.status_code == 400
    assert "existe déjà" in json.dumps(response.json(), ensure_ascii=False)


def test_abilities_filter_by_class_and_tier(api_as, campaign, player, compendium):
    warrior = compendium["classes"]
    Ability.objects.create(campaign=campaign, name="Vision nocturne", tier="founding")
    Ability.objects.create(
        campaign=campaign, name="Rage", character_class=warrior, tier="superior", cost=2
    )
    client = api_as(player)
    path = url("compendium-abilities-list", campaign_id=campaign.pk)

    def names(**query):
        return sorted(row["name"] for row in client.get(path, query).json()["results"])

    assert names(character_class=warrior.pk) == ["Coup puissant", "Rage"]
    assert names(tier="superior") == ["Rage"]
    assert names(species="true") == ["Vision nocturne"]
    assert names(name="coup") == ["Coup puissant"]


def test_classes_show_their_branches(api_as, campaign, player, compendium):
    body = api_as(player).get(url("compendium-classes-list", campaign_id=campaign.pk)).json()
    [warrior] = body["results"]
    assert [branch["name"] for branch in warrior["branches"]] == ["Gardien"]


def test_a_branch_needs_a_class_of_this_campaign(api_as, campaign, storyteller, other_campaign):
    foreign = CharacterClass.objects.create(campaign=other_campaign, name="Étranger")
    response = send(
        api_as(storyteller),
        "POST",
        url("compendium-branches-list", campaign_id=campaign.pk),
        {"name": "Branche", "character_class": foreign.pk},
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["character_class"]


def test_pagination_pages_the_list(api_as, campaign, player):
    Species.objects.bulk_create(
        Species(campaign=campaign, name=f"Espèce {i:03}") for i in range(55)
    )
    client = api_as(player)
    path = url("compendium-species-list", campaign_id=campaign.pk)
    first = client.get(path).json()
    assert first["count"] == 55
    assert len(first["results"]) == 50
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 5
    missing = client.get(path, {"page": 9})
    assert missing.status_code == 404
    assert missing.json()["detail"] == "Page non valide."


@pytest.mark.parametrize("arc", [10**30, -1, True, 1.5, "deux", [1]])
def test_an_impossible_arc_id_is_a_field_error_not_a_crash(api_as, campaign, storyteller, arc):
    response = send(
        api_as(storyteller),
        "POST",
        url("play-session-list", campaign_id=campaign.pk),
        {"title": "Séance", "scheduled_at": "2030-01-01T20:00:00Z", "arc": arc},
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["arc"]


def test_huge_ids_in_urls_and_filters_are_not_found_not_a_crash(api_as, campaign, storyteller):
    client = api_as(storyteller)
    huge = 10**30
    assert client.get(url("arc-detail", campaign_id=campaign.pk, pk=huge)).status_code == 404
    sessions = url("play-session-list", campaign_id=campaign.pk)
    assert client.get(sessions, {"arc": huge}).status_code == 400
