"""Issue 14 §2: « a notification to a player when their turn comes ». The player whose character
acts now gets one in-app notice (the badge counts it live), only the newest stays unread, and the
player who hands the turn on themselves is not told what they just did."""

import pytest

from campaigns.models import Notification
from sessions.combat import fights as combat
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_combat_services import quick, set_initiatives

pytestmark = pytest.mark.django_db


@pytest.fixture
def fight(campaign, storyteller, as_member, aelis, brann):
    conteur = as_member(campaign, storyteller)
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Embuscade")
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk, brann.pk]),
    )
    quick(conteur, storyteller, encounter, "Brigand")
    set_initiatives(encounter, {"Aelis": 8, "Brann": 12, "Brigand": 15})
    return conteur, encounter


def next_turn(campaign, user, encounter):
    encounter.refresh_from_db()
    return combat.turn_next(
        campaign=campaign, by=user, encounter_id=encounter.pk, turn=encounter.turn
    )


def unread(user):
    return list(
        Notification.objects.filter(user=user, read_at__isnull=True).values_list("text", flat=True)
    )


def test_the_player_is_told_when_their_turn_comes(fight, storyteller, player, other_player):
    conteur, encounter = fight
    next_turn(conteur, storyteller, encounter)  # Brigand → Brann
    assert unread(other_player) == ["À Brann d'agir (tour 1)."]
    assert unread(player) == []
    notice = Notification.objects.get(user=other_player)
    assert notice.link == f"/campaigns/{conteur.pk}/table/#combat-tracker"
    assert notice.campaign_id == conteur.pk


def test_only_the_newest_turn_notice_stays_unread(
    fight, storyteller, player, other_player, as_member
):
    conteur, encounter = fight
    next_turn(conteur, storyteller, encounter)  # → Brann
    next_turn(as_member(conteur, other_player), other_player, encounter)  # Brann ends → Aelis
    assert unread(player) == ["À Aelis d'agir (tour 1)."]
    next_turn(as_member(conteur, player), player, encounter)  # Aelis ends: round 2, Brigand
    next_turn(conteur, storyteller, encounter)  # → Brann again
    assert unread(other_player) == ["À Brann d'agir (tour 2)."]  # the round 1 notice is read
    assert Notification.objects.filter(user=other_player).count() == 2


def test_a_player_ending_their_own_turn_is_not_told_of_the_next(
    fight, storyteller, player, other_player, as_member
):
    conteur, encounter = fight
    # Brigand, Brann, Aelis: Brann hands over to Aelis — Brann is not notified, Aelis is.
    next_turn(conteur, storyteller, encounter)
    Notification.objects.update(read_at=None)
    before = Notification.objects.filter(user=other_player).count()
    next_turn(as_member(conteur, other_player), other_player, encounter)
    assert Notification.objects.filter(user=other_player).count() == before
    assert unread(player) == ["À Aelis d'agir (tour 1)."]
