"""Background jobs of the campaigns: posting to a campaign's webhook (thin: the service claims
its delivery first, so a retry or a duplicate message posts nothing twice)."""

from celery import shared_task

from campaigns import webhooks


@shared_task(
    name=webhooks.WEBHOOK_DELIVER,
    bind=True,
    autoretry_for=(webhooks.DeliveryRetry,),
    retry_backoff=True,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=webhooks.RETRIES,
    acks_late=True,
)
def webhook_deliver(self, delivery_id: int) -> str:
    """Post one message to its campaign's webhook, retried with backoff while it fails."""
    final = self.request.retries >= self.max_retries
    return webhooks.delivery_send(delivery_id=delivery_id, final=final)


@shared_task(name=webhooks.DELIVERIES_REQUEUE, acks_late=True)
def webhook_deliveries_requeue() -> int:
    """Beat: send again the deliveries left waiting (broker down, worker lost)."""
    return webhooks.deliveries_requeue()
