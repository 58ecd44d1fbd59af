"""Celery tasks of the notifications app: thin wrappers that load by id and call one service.

Nothing imports this module: the services dispatch these tasks by name through
`notifications.outbox` (`send`, `dispatch_after_commit`, `record_task`).
"""

from celery import shared_task
from django.core.management import call_command

from . import batches, delivery, outbox


class EmailDeliveryError(Exception):
    """A transient mail server failure; the task retries the rows it could not send."""


# `max_retries=None` here means "no limit" (in `retry()` it means "the task's limit", which
# Celery's default makes 3): the rows carry the retry budget
# (`NOTIFICATION_RETRY_BUDGET_HOURS`), after which they are failed and not retried.
@shared_task(
    bind=True,
    name="notifications.send_emails",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,
)
def send_emails(self, notification_ids: list[int]) -> dict:
    """Send the pending, due e-mails among `notification_ids`, each at most once.

    After a transient failure the task retries itself with only the ids still pending,
    when the earliest of them is due again; if that message is lost (broker restarted
    empty) the relay finds the rows. The rows themselves keep the retry budget.
    """
    report = delivery.deliver_emails(notification_ids=notification_ids)
    if report.retry:
        # A worker needs the raised `Retry`. An eager run (quick start, tests) would have it
        # re-raised by task_eager_propagates; returned instead, `apply` retries in-process.
        return self.retry(
            args=[report.retry],
            kwargs={},
            countdown=report.retry_in,
            exc=EmailDeliveryError(report.error),
            throw=not self.request.is_eager,
        )
    return report.as_dict()


@shared_task(
    bind=True, name="notifications.run_outbox_task", acks_late=True, reject_on_worker_lost=True
)
def run_outbox_task(self, entry_id: int) -> str:
    """Run one recorded task (`notifications.OutboxTask`) and mark it done."""
    return outbox.run_entry(entry_id, app=self.app, raise_errors=bool(self.request.is_eager))


@shared_task(name="notifications.relay")
def relay() -> dict:
    """Dispatch the due work of every kind (outbox tasks, e-mails, webhook deliveries): the
    one beat job, every minute."""
    return outbox.relay()


@shared_task(name="notifications.requeue_stalled_emails")
def requeue_stalled_emails() -> int:
    """The relay's e-mail part under its old name (beat entries of older deployments)."""
    return outbox.relay()["emails"]


@shared_task(name="notifications.clear_expired_sessions")
def clear_expired_sessions() -> None:
    """Delete expired sessions (`manage.py clearsessions`): the nightly beat job."""
    call_command("clearsessions")


@shared_task(name="notifications.run_outbox_batch", acks_late=True, reject_on_worker_lost=True)
def run_outbox_batch(ids: list[int] | None = None) -> int:
    """Do the due batched outbox rows (`notifications.batches`), or the relay's `ids`."""
    return batches.drain(ids)
