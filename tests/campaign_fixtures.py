"""Campaign fixtures: a fast password hasher, clients signed in as each persona, and factories."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import (
    Ability,
    Arc,
    Asset,
    Branch,
    CharacterClass,
    Flaw,
    Membership,
    Species,
    SpellEntry,
)
from campaigns.services import campaign_create, invitation_create
from sessions.models import PlaySession


@pytest.fixture
def client_for(client):
    """A test client signed in as the given user (None: anonymous)."""
    from django.test import Client

    def make(user):
        if user is None:
            return client
        other = Client()
        other.force_login(user)
        return other

    return make


@pytest.fixture
def storyteller_client(client_for, storyteller):
    return client_for(storyteller)


@pytest.fixture
def player_client(client_for, player):
    return client_for(player)


@pytest.fixture
def outsider_client(client_for, outsider):
    return client_for(outsider)


@pytest.fixture
def make_arc():
    def make(campaign, title="Le phare éteint", **fields):
        return Arc.objects.create(campaign=campaign, title=title, **fields)

    return make


@pytest.fixture
def make_play_session():
    def make(campaign, title="Arrivée à Vael", days=7, **fields):
        return PlaySession.objects.create(
            campaign=campaign,
            title=title,
            scheduled_at=timezone.now() + timedelta(days=days),
            **fields,
        )

    return make


@pytest.fixture
def arc(campaign, make_arc):
    return make_arc(campaign)


@pytest.fixture
def play_session(campaign, arc, make_play_session):
    return make_play_session(campaign, arc=arc, notes="Le groupe arrive à **Vael**.")


@pytest.fixture
def invitation(campaign, storyteller):
    return invitation_create(campaign=campaign, by=storyteller)


@pytest.fixture
def player_membership(campaign, player):
    return Membership.objects.get(campaign=campaign, user=player)


@pytest.fixture
def compendium(campaign):
    """One entry of each kind, keyed by the compendium section's slug."""
    character_class = CharacterClass.objects.create(campaign=campaign, name="Guerrier")
    return {
        "species": Species.objects.create(
            campaign=campaign,
            name="Sylvain",
            favourite_characteristics=["agility"],
            modifiers={"agility": 1, "vigor": -1},
        ),
        "classes": character_class,
        "branches": Branch.objects.create(
            campaign=campaign, character_class=character_class, name="Gardien"
        ),
        "abilities": Ability.objects.create(
            campaign=campaign, character_class=character_class, name="Coup puissant", cost=1
        ),
        "assets": Asset.objects.create(campaign=campaign, name="Ambidextre", cost=3),
        "flaws": Flaw.objects.create(campaign=campaign, name="Borgne", value=3),
        "spells": SpellEntry.objects.create(
            campaign=campaign, name="Trait de feu", spell_points=2, energy_cost=3
        ),
    }


@pytest.fixture
def other_campaign(outsider):
    """A campaign the personas of `campaign` are not part of (its Conteur is the outsider)."""
    return campaign_create(creator=outsider, name="Une autre table")
