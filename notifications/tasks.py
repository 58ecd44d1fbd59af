"""Celery tasks of the notifications app: thin wrappers that load by id and call one service."""

from celery import shared_task
from django.core.management import call_command

from . import delivery, services


class EmailDeliveryError(Exception):
    """A transient mail server failure; the task retries the rows it could not send."""


@shared_task(bind=True, name="notifications.send_emails")
def send_emails(self, notification_ids: list[int]) -> dict:
    """Send the pending e-mails among `notification_ids`, each at most once.

    After a transient failure the task retries itself with only the ids still pending,
    after `NOTIFICATION_RETRY_BASE_SECONDS * 2**retries` seconds; the rows themselves count
    attempts and turn `failed` after `NOTIFICATION_MAX_ATTEMPTS`, which ends the retries.
    """
    report = delivery.deliver_emails(notification_ids=notification_ids)
    if report.retry:
        # A worker needs the raised `Retry`. An eager run (quick start, tests) would have it
        # re-raised by task_eager_propagates; returned instead, `apply` retries in-process.
        return self.retry(
            args=[report.retry],
            kwargs={},
            countdown=delivery.retry_countdown(self.request.retries),
            max_retries=delivery.max_attempts(),
            exc=EmailDeliveryError(report.error),
            throw=not self.request.is_eager,
        )
    return report.as_dict()


@shared_task(name="notifications.requeue_stalled_emails")
def requeue_stalled_emails() -> int:
    """Queue again the pending e-mails whose task was lost (broker down at commit time)."""
    return services.requeue_stalled_emails()


@shared_task(name="notifications.clear_expired_sessions")
def clear_expired_sessions() -> None:
    """Delete expired sessions (`manage.py clearsessions`): the nightly beat job."""
    call_command("clearsessions")
