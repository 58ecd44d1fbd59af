"""Celery tasks of the webhooks app: thin wrappers that load by id and call one service.

Nothing imports this module: `webhooks.services` dispatches `webhooks.deliver` by name
through `notifications.outbox`, and the one relay (`notifications.relay`) finds the rows
whose message was lost.
"""

from celery import shared_task

from . import sending, services


class WebhookDeliveryError(Exception):
    """The receiver did not take the delivery; the task tries again later."""


# `max_retries=None`: no limit from Celery (whose default is 3); the delivery's own
# `WEBHOOK_MAX_ATTEMPTS` decides when it is `failed`.
@shared_task(
    bind=True,
    name="webhooks.deliver",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,
)
def deliver(self, delivery_id: int) -> str:
    """Send one delivery (`sending.deliver`), idempotent: a delivered, failed or leased
    one is skipped. After a failure the task retries itself when the delivery is due
    again (exponential backoff); if that message is lost the relay finds the row."""
    attempt = sending.deliver(delivery_id)
    if attempt.outcome == "retry":
        return self.retry(
            countdown=attempt.retry_in,
            exc=WebhookDeliveryError(f"delivery #{delivery_id} failed"),
            throw=not self.request.is_eager,
        )
    return attempt.outcome


@shared_task(name="webhooks.relay")
def relay() -> int:
    """The webhook part of the relay, under its old name (beat entries of older
    deployments; `notifications.relay` dispatches due deliveries with everything else)."""
    return services.relay()
