"""More rows, same number of queries: each campaign page costs a fixed number of queries."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import (
    Ability,
    Arc,
    Asset,
    Branch,
    CharacterClass,
    Flaw,
    Membership,
    Role,
    Species,
)
from campaigns.services import campaign_create, invitation_create
from characters.models import Character
from sessions.models import PlaySession

pytestmark = pytest.mark.django_db


def grow(campaign, storyteller, make_user, start, count):
    """Add `count` of everything a campaign page lists."""
    for i in range(start, start + count):
        user = make_user(f"joueur{i}")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        species = Species.objects.create(
            campaign=campaign, name=f"Espèce {i}", modifiers={"will": 1}
        )
        Character.objects.create(campaign=campaign, owner=user, name=f"Perso {i}", species=species)
        arc = Arc.objects.create(campaign=campaign, title=f"Arc {i}")
        PlaySession.objects.create(
            campaign=campaign,
            arc=arc,
            title=f"Séance {i}",
            scheduled_at=timezone.now() + timedelta(days=i - 3),
        )
        invitation_create(campaign=campaign, by=storyteller)
        character_class = CharacterClass.objects.create(campaign=campaign, name=f"Classe {i}")
        Branch.objects.create(campaign=campaign, character_class=character_class, name="Voie")
        Ability.objects.create(campaign=campaign, character_class=character_class, name=f"Apt {i}")
        Asset.objects.create(campaign=campaign, name=f"Atout {i}")
        Flaw.objects.create(campaign=campaign, name=f"Handicap {i}")
        # a campaign of one's own, for "Mes campagnes"
        own = campaign_create(creator=storyteller, name=f"Table {i}")
        Membership.objects.create(campaign=own, user=user, role=Role.PLAYER)


PAGES = [
    ("home", lambda c: reverse("home")),
    ("list", lambda c: reverse("campaigns:list")),
    ("dashboard", lambda c: reverse("campaigns:dashboard", args=[c.pk])),
    ("members", lambda c: reverse("campaigns:members", args=[c.pk])),
    ("invitations", lambda c: reverse("campaigns:invitations", args=[c.pk])),
    ("arc_list", lambda c: reverse("campaigns:arc_list", args=[c.pk])),
    ("arc_detail", lambda c: reverse("campaigns:arc_detail", args=[c.pk, c.arcs.last().pk])),
    ("session_list", lambda c: reverse("sessions:list", args=[c.pk])),
    ("compendium", lambda c: reverse("campaigns:compendium", args=[c.pk])),
]


def count_queries(client, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize(("name", "path"), PAGES, ids=[name for name, _path in PAGES])
def test_more_rows_same_number_of_queries(
    campaign, storyteller, storyteller_client, make_user, django_assert_max_num_queries, name, path
):
    grow(campaign, storyteller, make_user, 0, 1)
    few = count_queries(storyteller_client, path(campaign))
    grow(campaign, storyteller, make_user, 1, 8)
    many = path(campaign)
    with django_assert_max_num_queries(few):
        storyteller_client.get(many)


@pytest.mark.parametrize("name", ["dashboard", "compendium", "arc_list", "sessions:list"])
def test_pages_stay_small(campaign, storyteller, storyteller_client, make_user,
                          django_assert_max_num_queries, name):  # fmt: skip
    """An absolute ceiling too, so a page cannot quietly grow a query per section."""
    grow(campaign, storyteller, make_user, 0, 3)
    # session, user and membership, then the page's own reads (the compendium: six sections,
    # the classes' branches, and the class choices of the branch and ability forms). The
    # dashboard's 7 leave room for the characters panel (characters.selectors).
    ceiling = {"dashboard": 10, "compendium": 12, "arc_list": 5, "sessions:list": 5}[name]
    with django_assert_max_num_queries(ceiling):
        storyteller_client.get(
            reverse(name if ":" in name else f"campaigns:{name}", args=[campaign.pk])
        )
