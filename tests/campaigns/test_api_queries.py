"""Every API list costs the same number of queries for 1 row as for 20: more rows, same queries."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns import api_urls
from campaigns.models import (
    Ability,
    Arc,
    Asset,
    Branch,
    CharacterClass,
    Flaw,
    Invitation,
    Membership,
    Role,
    Species,
    SpellEntry,
)
from campaigns.services import campaign_create
from sessions.models import PlaySession

pytestmark = pytest.mark.django_db


def add_rows(campaign, storyteller, make_user, start: int, count: int) -> None:
    """`count` more rows of every kind, each with what its list shows (class, arc, author…)."""
    for i in range(start, start + count):
        arc = Arc.objects.create(campaign=campaign, title=f"Arc {i}")
        PlaySession.objects.create(
            campaign=campaign, arc=arc, title=f"Séance {i}", scheduled_at=timezone.now()
        )
        Invitation.objects.create(
            campaign=campaign,
            created_by=storyteller,
            token=f"jeton-{i}",
            expires_at=timezone.now() + timedelta(days=1),
        )
        Membership.objects.create(campaign=campaign, user=make_user(f"joueur{i}"), role=Role.PLAYER)
        character_class = CharacterClass.objects.create(campaign=campaign, name=f"Classe {i}")
        Branch.objects.create(campaign=campaign, character_class=character_class, name="Branche")
        Ability.objects.create(campaign=campaign, character_class=character_class, name=f"Apt {i}")
        Species.objects.create(campaign=campaign, name=f"Espèce {i}", modifiers={"will": 1})
        Asset.objects.create(campaign=campaign, name=f"Atout {i}")
        Flaw.objects.create(campaign=campaign, name=f"Handicap {i}")
        SpellEntry.objects.create(campaign=campaign, name=f"Sort {i}", energy_cost=2)
        # One more campaign of the Conteur's, for "my campaigns".
        campaign_create(creator=storyteller, name=f"Table {i}")


LISTS = [
    f"campaigns_api:{pattern.name}"
    for pattern in api_urls.urlpatterns
    if pattern.name.endswith("-list")
] + ["sessions_api:play-session-list"]


def test_every_list_route_is_measured():
    assert len(LISTS) == 12  # campaigns, members, invitations, arcs, sessions, seven compendium


@pytest.mark.parametrize("name", LISTS)
def test_more_rows_same_number_of_queries(
    name, campaign, storyteller, make_user, django_assert_max_num_queries
):
    client = APIClient()
    client.force_login(storyteller)
    kwargs = {} if name == "campaigns_api:campaign-list" else {"campaign_id": campaign.pk}
    path = reverse(name, kwargs=kwargs)

    add_rows(campaign, storyteller, make_user, 0, 1)
    with CaptureQueriesContext(connection) as one_row:
        response = client.get(path)
    assert response.status_code == 200
    assert response.json()["results"]

    add_rows(campaign, storyteller, make_user, 1, 19)
    with django_assert_max_num_queries(len(one_row)):
        response = client.get(path)
    assert response.status_code == 200
    assert len(response.json()["results"]) >= 20
