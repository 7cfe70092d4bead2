"""The campaign's webhook: what every member may see of the table, posted to a chat.

The Conteur points the campaign at a URL taking JSON (a Discord webhook: `{"content": …}`).
Writers call `webhook_post` inside their transaction: after the commit, when the campaign has an
enabled hook, one delivery row is made per `key` (a log row, a journal text, an arc's award) and
the task `WEBHOOK_DELIVER` is queued. The task claims the row before posting, so a retry or a
second worker never posts it twice; failures are retried with backoff by Celery, counted on the
hook, and the hook is disabled after `WEBHOOK_FAILURE_LIMIT` failed attempts in a row.

Only what the callers pass is posted: they pass what every member of the campaign may see (the
table's public rows, never a secret roll or a hidden NPC's; see `sessions.webhook_news`).
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
import uuid
from datetime import timedelta
from urllib.parse import urlsplit

import requests
from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import connections, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.live import notify
from campaigns.models import (
    Campaign,
    DeliveryStatus,
    Membership,
    Notification,
    Role,
    Webhook,
    WebhookDelivery,
)

logger = logging.getLogger(__name__)

WEBHOOK_DELIVER = "campaigns.tasks.webhook_deliver"
DELIVERIES_REQUEUE = "campaigns.tasks.webhook_deliveries_requeue"
RETRIES = 5  # after the first attempt, with Celery's exponential backoff (1, 2, 4, 8, 16 s…)
CONTENT_MAX = 2000  # Discord's limit for a message's `content`
SENDING_LEASE = timedelta(seconds=60)  # a claimed delivery whose worker died is claimed again
USERNAME = "Altherion"
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}
HOOK_CACHE_SECONDS = 300  # the enabled hook as every public roll reads it; forgotten on change


class DeliveryRetry(Exception):
    """A failed attempt worth trying again (no answer, 429 or 5xx): the task retries on it."""


# --- the URL, checked at the boundary ---------------------------------------------------------


def webhook_url_check(url: str) -> str:
    """The URL, stripped, if a hook may post to it; else a French ValidationError.

    https only, to a public host; plain http only to this machine, and only where
    `WEBHOOK_ALLOW_LOOPBACK` is on (DEBUG, tests). An address written as an IP must be public
    (no private, link-local or reserved range); names are not resolved here."""
    url = (url or "").strip()
    try:
        URLValidator(schemes=["http", "https"])(url)
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except (ValidationError, ValueError):
        host = ""
    if not host:
        raise ValidationError({"url": _("Donnez une adresse complète, commençant par https://.")})
    if parts.username or parts.password:
        raise ValidationError({"url": _("L'adresse ne doit pas contenir d'identifiants.")})
    if _is_loopback(host):
        if settings.WEBHOOK_ALLOW_LOOPBACK:
            return url
        raise ValidationError({"url": _("Cette machine ne peut pas recevoir le webhook.")})
    if parts.scheme != "https":
        raise ValidationError({"url": _("L'adresse doit commencer par https://.")})
    if _is_private(host):
        raise ValidationError({"url": _("Une adresse de réseau privé ne peut pas servir.")})
    return url


def _is_loopback(host: str) -> bool:
    return host in LOOPBACK_NAMES or host.endswith(".localhost")


def _is_private(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host.endswith((".local", ".internal", ".lan")) or "." not in host
    return not address.is_global


# --- the Conteur's settings --------------------------------------------------------------------


@transaction.atomic
def webhook_save(*, campaign: Campaign, url: str) -> Webhook:
    """Point the campaign at `url` (a new hook, or a changed one enabled again with a clean
    slate). Returns the hook."""
    url = webhook_url_check(url)
    hook, _created = Webhook.objects.select_for_update().get_or_create(
        campaign=campaign, defaults={"url": url}
    )
    hook.url = url
    _reset(hook)
    hook.save()
    _forget(campaign.pk)
    return hook


@transaction.atomic
def webhook_delete(*, campaign: Campaign) -> None:
    """Stop posting: the hook and its deliveries go."""
    Webhook.objects.filter(campaign=campaign).delete()
    _forget(campaign.pk)


@transaction.atomic
def webhook_enable(*, campaign: Campaign) -> Webhook:
    """« Réactiver »: post again, the failures forgotten."""
    hook = _hook_locked(campaign)
    _reset(hook)
    hook.save(update_fields=["enabled", "failures", "disabled_at", "last_error", "last_error_at"])
    _forget(campaign.pk)
    return hook


@transaction.atomic
def webhook_test(*, campaign: Campaign) -> WebhookDelivery:
    """« Envoyer un test »: a short message, posted like the others (after the commit)."""
    hook = _hook_locked(campaign)
    if not hook.enabled:
        raise ValidationError(_("Le webhook est désactivé : réactivez-le d'abord."))
    text = message_text("test", campaign=campaign.name)
    delivery = WebhookDelivery.objects.create(webhook=hook, key=f"test:{uuid.uuid4()}", text=text)
    transaction.on_commit(lambda: deliver(delivery.pk), robust=True)
    return delivery


def _hook_locked(campaign: Campaign) -> Webhook:
    hook = Webhook.objects.select_for_update().filter(campaign=campaign).first()
    if hook is None:
        raise ValidationError(_("Cette campagne n'a pas de webhook."))
    return hook


def _reset(hook: Webhook) -> None:
    hook.enabled = True
    hook.failures = 0
    hook.disabled_at = None
    hook.last_error = ""
    hook.last_error_at = None


# --- what writers call ---------------------------------------------------------------------------


def message_text(kind: str, **context) -> str:
    """The French plain text posted for `kind` (templates/campaigns/webhook/message.txt),
    cut to what a Discord message holds."""
    text = render_to_string("campaigns/webhook/message.txt", {"kind": kind, **context}).strip()
    return text if len(text) <= CONTENT_MAX else text[: CONTENT_MAX - 1] + "…"


def webhook_post(*, campaign_id: int, key: str, kind: str, **context) -> None:
    """Post the message `kind` (drawn from `context`, which every member may see) to the
    campaign's hook, once per `key`, after the current transaction commits; nothing when the
    campaign has no enabled hook (the message is drawn only then)."""
    # robust: a failure to queue the news is logged, never the writer's error.
    transaction.on_commit(lambda: _queue(campaign_id, key, kind, context), robust=True)


def enabled_hook_id(campaign_id: int) -> int | None:
    """The campaign's enabled hook, kept in the cache: every public roll asks, few campaigns
    have one. Each change of a hook's state forgets it (`_forget`)."""
    hook_id = cache.get(_cache_key(campaign_id))
    if hook_id is None:
        hook_id = (
            Webhook.objects.filter(campaign_id=campaign_id, enabled=True)
            .values_list("pk", flat=True)
            .first()
        ) or 0
        cache.set(_cache_key(campaign_id), hook_id, HOOK_CACHE_SECONDS)
    return hook_id or None


def _cache_key(campaign_id: int) -> str:
    return f"webhook-enabled:{campaign_id}"


def _forget(campaign_id: int) -> None:
    # Now, and again once committed: a reader between the two may have cached the old state.
    cache.delete(_cache_key(campaign_id))
    transaction.on_commit(lambda: cache.delete(_cache_key(campaign_id)))


def _queue(campaign_id: int, key: str, kind: str, context: dict) -> None:
    hook_id = enabled_hook_id(campaign_id)
    if hook_id is None:
        return
    text = message_text(kind, **context)
    WebhookDelivery.objects.bulk_create(
        [WebhookDelivery(webhook_id=hook_id, key=key, text=text)], ignore_conflicts=True
    )
    delivery_id = (
        WebhookDelivery.objects.filter(webhook_id=hook_id, key=key, status=DeliveryStatus.PENDING)
        .values_list("pk", flat=True)
        .first()
    )
    if delivery_id is not None:
        deliver(delivery_id)


def deliver(delivery_id: int) -> None:
    """Queue the delivery's task. Without a broker (the embedded mode) it is tried in-process
    instead, in a thread of its own so that the request that wrote the news never waits on the
    hook (the test suite runs it inline: `WEBHOOK_EAGER_IN_THREAD`)."""
    if not current_app.conf.task_always_eager:
        _send_task(delivery_id)
    elif settings.WEBHOOK_EAGER_IN_THREAD:
        threading.Thread(target=_deliver_in_thread, args=(delivery_id,), daemon=True).start()
    else:
        deliver_now(delivery_id)


def deliver_now(delivery_id: int, *, backoff: bool = False) -> None:
    """Every attempt of a delivery, in this process: what the task's retries do on a worker
    (Celery's eager mode does not retry), waiting 1, 2, 4… s between them if `backoff`."""
    for attempt in range(RETRIES + 1):
        try:
            delivery_send(delivery_id=delivery_id, final=attempt == RETRIES)
        except DeliveryRetry:
            if backoff:
                time.sleep(2**attempt)
        else:
            return


def _deliver_in_thread(delivery_id: int) -> None:
    try:
        deliver_now(delivery_id, backoff=True)
    except Exception:
        logger.warning("webhook delivery %s failed", delivery_id, exc_info=True)
    finally:
        connections.close_all()  # this thread's own connections


def _send_task(delivery_id: int) -> None:
    try:
        current_app.signature(WEBHOOK_DELIVER, args=(delivery_id,)).apply_async()
    except Exception:
        logger.warning("webhook delivery %s not queued", delivery_id, exc_info=True)


# --- the task's work -------------------------------------------------------------------------


def delivery_send(*, delivery_id: int, final: bool) -> str:
    """Post one delivery if it is still to be sent; returns its status afterwards. A failure
    worth retrying raises `DeliveryRetry` unless this is the `final` attempt."""
    delivery = _claim(delivery_id)
    if delivery is None:
        return "claimed elsewhere"
    hook = delivery.webhook
    if not hook.enabled:
        _finish(delivery, DeliveryStatus.DROPPED)
        return DeliveryStatus.DROPPED
    error, retryable = _post(hook.url, delivery.text)
    if error is None:
        _finish(delivery, DeliveryStatus.SENT, sent_at=timezone.now())
        Webhook.objects.filter(pk=hook.pk).update(failures=0, last_success_at=timezone.now())
        return DeliveryStatus.SENT
    disabled = _failure(hook, error)
    if retryable and not final and not disabled:
        _finish(delivery, DeliveryStatus.PENDING)
        raise DeliveryRetry(error)
    _finish(delivery, DeliveryStatus.FAILED)
    return DeliveryStatus.FAILED


def _claim(delivery_id: int) -> WebhookDelivery | None:
    """The delivery, marked as being sent by this run; None if it is sent, given up, or being
    sent by another run (whose claim is younger than SENDING_LEASE)."""
    now = timezone.now()
    free = Q(status=DeliveryStatus.PENDING) | Q(
        status=DeliveryStatus.SENDING, claimed_at__lt=now - SENDING_LEASE
    )
    claimed = (
        WebhookDelivery.objects.filter(free, pk=delivery_id).update(
            status=DeliveryStatus.SENDING, claimed_at=now, attempts=F("attempts") + 1
        )
        == 1
    )
    if not claimed:
        return None
    return WebhookDelivery.objects.select_related("webhook").get(pk=delivery_id)


def _finish(delivery: WebhookDelivery, status: str, **fields) -> None:
    WebhookDelivery.objects.filter(pk=delivery.pk).update(status=status, **fields)


def _post(url: str, text: str) -> tuple[str | None, bool]:
    """Post the message: (None, _) when the receiver took it, else (a French reason, whether
    trying again may help). Redirects are not followed: the Conteur gave this address."""
    body = {"content": text, "username": USERNAME, "allowed_mentions": {"parse": []}}
    try:
        response = requests.post(
            url, json=body, timeout=settings.WEBHOOK_TIMEOUT, allow_redirects=False
        )
    except requests.Timeout:
        return _("Pas de réponse dans le délai."), True
    except requests.RequestException:
        return _("Adresse injoignable."), True
    if 200 <= response.status_code < 300:
        return None, False
    reason = _("Le serveur a répondu %(status)d.") % {"status": response.status_code}
    return reason, response.status_code == 429 or response.status_code >= 500


def _failure(hook: Webhook, error: str) -> bool:
    """Count a failed attempt on the hook; True if it is (now) disabled."""
    now = timezone.now()
    Webhook.objects.filter(pk=hook.pk).update(
        failures=F("failures") + 1, last_error=error[:300], last_error_at=now
    )
    disabled = Webhook.objects.filter(
        pk=hook.pk, enabled=True, failures__gte=settings.WEBHOOK_FAILURE_LIMIT
    ).update(enabled=False, disabled_at=now)
    if disabled:
        _forget(hook.campaign_id)
        _tell_storyteller(hook, now)
    return not Webhook.objects.filter(pk=hook.pk, enabled=True).exists()


def _tell_storyteller(hook: Webhook, when) -> None:
    """A notification to the Conteur: the hook stopped, and where to turn it back on."""
    storyteller = Membership.objects.filter(
        campaign_id=hook.campaign_id, role=Role.STORYTELLER
    ).first()
    if storyteller is None:
        return
    text = _("Le webhook de la campagne est désactivé après %(n)d échecs d'affilée.") % {
        "n": settings.WEBHOOK_FAILURE_LIMIT
    }
    note = Notification(
        user_id=storyteller.user_id,
        campaign_id=hook.campaign_id,
        kind="webhook_disabled",
        key=f"webhook:{hook.pk}:disabled:{when.isoformat()}",
        text=text,
        link=reverse("campaigns:settings", args=[hook.campaign_id]),
    )
    notify([note])


# --- the beat's sweep --------------------------------------------------------------------------

REQUEUE_AFTER = timedelta(minutes=5)  # longer than a delivery's retries take (about 31 s)
TOO_OLD = timedelta(days=1)  # news older than this is not posted any more


def deliveries_requeue(*, now=None) -> int:
    """The beat's sweep: send again the deliveries left waiting (the broker was down when they
    were queued, or their worker died), give up those too old or whose hook is disabled.
    Returns how many were sent again."""
    now = now or timezone.now()
    waiting = WebhookDelivery.objects.filter(
        Q(status=DeliveryStatus.PENDING) | Q(status=DeliveryStatus.SENDING),
        created_at__lt=now - REQUEUE_AFTER,
    )
    waiting.filter(Q(created_at__lt=now - TOO_OLD) | Q(webhook__enabled=False)).update(
        status=DeliveryStatus.DROPPED
    )
    stale = Q(status=DeliveryStatus.PENDING) | Q(claimed_at__lt=now - SENDING_LEASE)
    ids = list(waiting.filter(stale).values_list("pk", flat=True)[:500])
    for delivery_id in ids:
        _send_task(delivery_id)
    return len(ids)
