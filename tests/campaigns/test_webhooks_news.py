"""What the table posts to the campaign's webhook (a local receiver): public rolls, Moral moves,
a fight's end, a journal saved and an arc's experience — never a secret roll, a hidden NPC's
roll or name, nor anything when the campaign has no hook."""

import pytest
from django.urls import reverse

from campaigns import webhooks
from campaigns.models import DeliveryStatus, WebhookDelivery
from sessions import morale, services
from sessions.checks import RollRequest
from sessions.combat import fights
from sessions.models import Visibility
from tests.progression.helpers import make_arc, pay
from tests.sessions.combat_fixtures import running_fight
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key

pytestmark = pytest.mark.django_db


@pytest.fixture
def hooked(campaign, receiver):
    webhooks.webhook_save(campaign=campaign, url=receiver.url)
    return campaign


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what the block queues after its commit (the deliveries), as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


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


def test_a_public_roll_is_posted_in_french(hooked, player, aelis, as_member, receiver, committed):
    with committed():
        made = roll(hooked, player, aelis, as_member, label="Forcer la grille")
    [text] = receiver.wait_for(1)
    assert text.startswith("Jet · Aelis : Force + ")
    assert "Forcer la grille" in text and f"{made.total} contre {made.target}" in text
    assert receiver.bodies[0]["allowed_mentions"] == {"parse": []}  # no @everyone from a name
    assert WebhookDelivery.objects.get().status == DeliveryStatus.SENT


def test_secret_and_hidden_rolls_are_never_posted(
    hooked, storyteller, player, aelis, as_member, receiver, committed
):
    npc = {"characteristic_value": 3, "skill_level": 2}
    with committed():
        roll(hooked, player, aelis, as_member, Visibility.STORYTELLER, label="En douce")
        roll(hooked, storyteller, None, as_member, Visibility.HIDDEN, **npc, label="Le traître")
        roll(hooked, storyteller, None, as_member, Visibility.STORYTELLER, **npc, label="Piège")
        roll(hooked, player, aelis, as_member, label="Au grand jour")
    texts = receiver.wait_for(1)
    assert len(texts) == 1 and "Au grand jour" in texts[0]
    assert WebhookDelivery.objects.count() == 1


def test_a_moral_move_is_posted(hooked, storyteller, aelis, as_member, receiver, committed):
    with committed():
        services.morale_change(
            campaign=as_member(hooked, storyteller), by=storyteller, action=morale.GAIN_HOPE
        )
    [text] = receiver.wait_for(1)
    assert text.startswith("Moral · ")


def test_a_fights_end_is_posted_without_its_hidden_npc(
    hooked, storyteller, aelis, brann, as_member, receiver, committed
):
    conteur = as_member(hooked, storyteller)
    encounter = running_fight(conteur, storyteller, aelis, brann, npc="Ombre", hidden=True)
    with committed():
        fights.encounter_end(campaign=conteur, by=storyteller, encounter_id=encounter.pk)
    [text] = receiver.wait_for(1)
    assert text.startswith("Combat · Fin du combat « Embuscade ».")
    assert "Aelis" in text and "Ombre" not in text


def test_the_turns_of_a_fight_are_not_posted(
    hooked, storyteller, aelis, brann, as_member, receiver, committed
):
    conteur = as_member(hooked, storyteller)
    with committed():
        encounter = running_fight(conteur, storyteller, aelis, brann)
        fights.encounter_end(campaign=conteur, by=storyteller, encounter_id=encounter.pk)
    texts = receiver.wait_for(1)
    assert [t.split(" · ")[0] for t in texts] == ["Combat"]
    assert texts[0].startswith("Combat · Fin du combat")


def test_a_journal_saved_with_a_new_text_is_posted_once(
    hooked, storyteller_client, play_session, receiver, committed
):
    url = reverse("sessions:edit", args=[hooked.pk, play_session.pk])
    data = {
        "title": play_session.title,
        "scheduled_at": play_session.scheduled_at.strftime("%Y-%m-%dT%H:%M"),
        "arc": play_session.arc_id,
        "notes": "Les héros atteignent **Vael** à la nuit tombée.",
    }
    with committed():
        assert storyteller_client.post(url, data).status_code == 302
    with committed():
        storyteller_client.post(url, data)  # saved again, same text: not posted again
    [text] = receiver.wait_for(1)
    assert text == (
        f"Journal de la séance « {play_session.title} » :\n\n"
        "Les héros atteignent **Vael** à la nuit tombée."
    )
    assert len(receiver.wait_for(2, timeout=0.5)) == 1


def test_an_arcs_experience_is_posted(
    hooked, storyteller, player, aelis, brann, receiver, committed
):
    arc = make_arc(hooked)
    pay(lambda execute: committed(), arc, [aelis, brann], storyteller)
    [text] = receiver.wait_for(1)
    assert text.splitlines() == [
        "Expérience de l'arc « La tour engloutie » :",
        "– Aelis : 15 points",
        "– Brann : 15 points",
    ]


def test_nothing_is_posted_without_a_hook(campaign, player, aelis, as_member, committed):
    with committed():
        roll(campaign, player, aelis, as_member)
    assert not WebhookDelivery.objects.exists()


def test_a_journal_written_through_the_api_is_posted(
    hooked, storyteller, play_session, receiver, committed
):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(storyteller)
    base = f"/api/campaigns/{hooked.pk}/sessions/"
    with committed():
        response = api.patch(f"{base}{play_session.pk}/", {"notes": "Vael brûle."}, format="json")
    assert response.status_code == 200
    with committed():
        created = api.post(
            base,
            {"title": "Le retour", "scheduled_at": "2030-05-01T20:00:00+02:00", "notes": "Fin."},
            format="json",
        )
    assert created.status_code == 201
    assert receiver.wait_for(2) == [
        f"Journal de la séance « {play_session.title} » :\n\nVael brûle.",
        "Journal de la séance « Le retour » :\n\nFin.",
    ]
