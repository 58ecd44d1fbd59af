"""Celery tasks of the webhooks app: thin wrappers that load by id and call one service."""

from celery import shared_task

from . import services


class WebhookDeliveryError(Exception):
    """The receiver did not take the delivery; the task tries again later."""


@shared_task(bind=True, name="webhooks.deliver", acks_late=True, reject_on_worker_lost=True)
def deliver(self, delivery_id: int) -> str:
    """Send one delivery (`services.deliver`), idempotent: a delivered, failed or leased
    one is skipped. After a failure the task retries itself when the delivery is due
    again (exponential backoff); if that message is lost the relay finds the row."""
    attempt = services.deliver(delivery_id)
    if attempt.outcome == "retry":
        return self.retry(
            countdown=attempt.retry_in,
            max_retries=None,
            exc=WebhookDeliveryError(f"delivery #{delivery_id} failed"),
            throw=not self.request.is_eager,
        )
    return attempt.outcome


@shared_task(name="webhooks.relay")
def relay() -> int:
    """Dispatch the due webhook deliveries: the beat job every minute."""
    return services.relay()
