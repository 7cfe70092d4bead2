"""What the table posts to the campaign's webhook: public rolls, Moral moves, a fight's end, a
journal saved, an arc's experience; never a secret roll or a hidden NPC."""

import pytest

from campaigns import webhooks
from campaigns.models import DeliveryStatus, WebhookDelivery
from sessions import services
from sessions.checks import RollRequest
from sessions.models import Visibility
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key

pytestmark = pytest.mark.django_db


@pytest.fixture
def hooked(campaign, receiver):
    webhooks.webhook_save(campaign=campaign, url=receiver.url)
    return campaign


def roll(campaign, user, character, as_member, visibility=Visibility.PUBLIC, **declared):
    declared.setdefault("characteristic", "strength")
    declared.setdefault("skills", ("melee",))
    return services.roll_create(
        campaign=as_member(campaign, user),
        by=user,
        request=RollRequest(**declared),
        character_id=character.pk if character else None,
        visibility=visibility,
        idempotency_key=key(),
    )


def test_a_public_roll_is_posted_in_french(
    hooked, player, aelis, as_member, receiver, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        made = roll(hooked, player, aelis, as_member, label="Forcer la grille")
    [text] = receiver.wait_for(1)
    assert text.startswith("Jet · Aelis : Force + ")
    assert "Forcer la grille" in text and f"{made.total} contre {made.target}" in text
    assert receiver.bodies[0]["allowed_mentions"] == {"parse": []}
    assert WebhookDelivery.objects.get().status == DeliveryStatus.SENT
