"""Delivering to the webhook (a local receiver): retries, a hook disabled after failures and
shown so to the Conteur, each message posted once, and a request that never waits on the hook."""

import threading
from datetime import timedelta

import pytest
from django.urls import reverse

from campaigns import webhooks
from campaigns.models import DeliveryStatus, Notification, WebhookDelivery
from campaigns.tasks import webhook_deliver
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook(campaign, receiver):
    return webhooks.webhook_save(campaign=campaign, url=receiver.url)


def roll_data(character, label="Crocheter la serrure"):
    return {
        "character": character.pk,
        "characteristic": "strength",
        "skills": ["melee"],
        "complexity": 1,
        "difficulty": 8,
        "boon": 0,
        "bane": 0,
        "impact": 0,
        "hope": 0,
        "hope_source": "personal",
        "despair_source": "personal",
        "visibility": "public",
        "idempotency_key": key(),
        "label": label,
    }


@pytest.fixture
def roll_posted(client, player, aelis, campaign, django_capture_on_commit_callbacks):
    """Roll through the table's page; the deliveries run after the commit, inline."""
    client.force_login(player)

    def post(label="Crocheter la serrure"):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                reverse("sessions:roll", args=[campaign.pk]), roll_data(aelis, label)
            )
        assert response.status_code == 302

    return post


def test_a_receiver_answering_500_is_retried_until_it_takes_the_message(
    hook, receiver, roll_posted
):
    receiver.statuses = [500, 503]
    roll_posted()
    assert len(receiver.wait_for(3)) == 3
    assert len({text for text in receiver.texts}) == 1  # the same message each time
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 3)
    hook.refresh_from_db()
    assert hook.enabled and hook.failures == 0 and hook.last_success_at is not None


def test_a_message_failing_every_retry_is_given_up(hook, receiver, roll_posted):
    receiver.statuses = [500] * 10
    roll_posted()
    assert len(receiver.wait_for(webhooks.RETRIES + 1)) == webhooks.RETRIES + 1
    assert WebhookDelivery.objects.get().status == DeliveryStatus.FAILED
    hook.refresh_from_db()
    assert hook.enabled and hook.failures == webhooks.RETRIES + 1
    assert hook.last_error == "Le serveur a répondu 500."


def test_a_refused_message_is_not_retried(hook, receiver, roll_posted):
    receiver.statuses = [404]
    roll_posted()
    assert len(receiver.wait_for(2, timeout=0.5)) == 1
    assert WebhookDelivery.objects.get().status == DeliveryStatus.FAILED


def test_repeated_failures_disable_the_hook_and_the_conteur_sees_it(
    hook, receiver, roll_posted, storyteller, storyteller_client, campaign, settings
):
    settings.WEBHOOK_FAILURE_LIMIT = 3
    receiver.statuses = [500] * 10
    roll_posted()
    assert len(receiver.wait_for(4, timeout=0.5)) == 3  # disabled at the third: no more tries
    hook.refresh_from_db()
    assert not hook.enabled and hook.disabled_at is not None
    roll_posted("Pendant la panne")
    assert len(receiver.texts) == 3  # a disabled hook gets nothing
    page = storyteller_client.get(reverse("campaigns:settings", args=[campaign.pk]))
    body = page.content.decode()
    assert "Désactivé" in body and "après 3 échecs d'affilée" in body
    assert "Le serveur a répondu 500." in body and "Réactiver" in body
    note = Notification.objects.get(user=storyteller)
    assert note.text == "Le webhook de la campagne est désactivé après 3 échecs d'affilée."
    assert note.link == reverse("campaigns:settings", args=[campaign.pk])

    response = storyteller_client.post(reverse("campaigns:webhook_enable", args=[campaign.pk]))
    assert response.status_code == 302
    receiver.statuses = []
    roll_posted("Après la panne")
    assert "Après la panne" in receiver.wait_for(4)[-1]
    hook.refresh_from_db()
    assert hook.enabled and hook.failures == 0


def test_each_message_is_posted_once(hook, receiver, roll_posted, campaign):
    roll_posted()
    delivery = WebhookDelivery.objects.get()
    webhook_deliver.apply(args=[delivery.pk])  # a duplicate or retried task message
    webhooks.webhook_post(campaign_id=campaign.pk, key=delivery.key, kind="roll", text="encore")
    assert len(receiver.wait_for(2, timeout=0.5)) == 1
    assert WebhookDelivery.objects.count() == 1


def test_a_delivery_being_sent_by_another_worker_is_left_to_it(hook, receiver, campaign):
    delivery = WebhookDelivery.objects.create(webhook=hook, key="event:1", text="Jet · Aelis")
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.SENDING, claimed_at=webhooks.timezone.now()
    )
    webhook_deliver.apply(args=[delivery.pk])
    assert receiver.texts == []


def test_the_roll_answers_before_the_hook_is_called(
    hook, receiver, client, player, aelis, campaign, django_capture_on_commit_callbacks
):
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(reverse("sessions:roll", args=[campaign.pk]), roll_data(aelis))
    assert response.status_code == 302
    assert receiver.texts == [] and not WebhookDelivery.objects.exists()
    for callback in callbacks:  # the commit's callbacks: only then is the message queued
        callback()
    assert len(receiver.wait_for(1)) == 1


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_delivery_runs_beside_the_request(
    receiver, client, player, aelis, campaign, settings
):
    """The embedded mode: the task runs in-process, in a thread, while the receiver still holds
    the message the roll's answer has already come back."""
    settings.WEBHOOK_EAGER_IN_THREAD = True
    webhooks.webhook_save(campaign=campaign, url=receiver.url)
    receiver.hold.clear()
    client.force_login(player)
    response = client.post(reverse("sessions:roll", args=[campaign.pk]), roll_data(aelis))
    assert response.status_code == 302
    assert receiver.texts == []  # the receiver has not answered yet, the roll has
    receiver.hold.set()
    assert len(receiver.wait_for(1)) == 1
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and thread.daemon:
            thread.join(timeout=0.2)


@pytest.mark.services
def test_a_real_worker_retries_with_backoff_and_posts_once(
    celery_worker, campaign, player, aelis, receiver
):
    """Through Redis and a `celery worker` process: the roll's request only queues the task; the
    worker posts, retries the receiver's 500 after Celery's backoff, and posts nothing twice."""
    from sessions import services
    from sessions.checks import RollRequest
    from sessions.models import Visibility

    webhooks.webhook_save(campaign=campaign, url=receiver.url)
    receiver.statuses = [500]
    services.roll_create(
        campaign=campaign_as(campaign, player),
        by=player,
        request=RollRequest(characteristic="strength", skills=("melee",), label="Au marché"),
        character_id=aelis.pk,
        visibility=Visibility.PUBLIC,
        idempotency_key=key(),
    )
    texts = receiver.wait_for(2, timeout=30)
    assert len(texts) == 2 and "Au marché" in texts[1]
    delivery = WebhookDelivery.objects.get()
    for _ in range(50):
        delivery.refresh_from_db()
        if delivery.status == DeliveryStatus.SENT:
            break
        threading.Event().wait(0.1)
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 2)
    assert len(receiver.wait_for(3, timeout=2)) == 2


def campaign_as(campaign, user):
    from campaigns.policy import campaign_get_for_member

    return campaign_get_for_member(user=user, pk=campaign.pk)


def test_the_sweep_sends_again_what_was_left_waiting_and_drops_old_news(hook, receiver):
    now = webhooks.timezone.now()
    left = WebhookDelivery.objects.create(webhook=hook, key="event:1", text="Jet · Aelis")
    fresh = WebhookDelivery.objects.create(webhook=hook, key="event:2", text="Jet · Brann")
    old = WebhookDelivery.objects.create(webhook=hook, key="event:3", text="Jet · hier")
    WebhookDelivery.objects.filter(pk=left.pk).update(created_at=now - timedelta(minutes=10))
    WebhookDelivery.objects.filter(pk=old.pk).update(created_at=now - timedelta(days=2))
    assert webhooks.deliveries_requeue(now=now) == 1
    assert receiver.wait_for(1) == ["Jet · Aelis"]
    statuses = dict(WebhookDelivery.objects.values_list("pk", "status"))
    assert statuses == {
        left.pk: DeliveryStatus.SENT,
        fresh.pk: DeliveryStatus.PENDING,  # its own task may still be on its way
        old.pk: DeliveryStatus.DROPPED,
    }


def test_the_beat_runs_the_sweep_and_both_tasks_are_registered(settings):
    from altherion.celery import app as celery_app

    sweep = settings.CELERY_BEAT_SCHEDULE["webhook-deliveries-requeue"]
    assert sweep["task"] == webhooks.DELIVERIES_REQUEUE
    assert {webhooks.DELIVERIES_REQUEUE, webhooks.WEBHOOK_DELIVER} <= set(celery_app.tasks)
