"""Work recorded in the database and dispatched to the broker after commit, never lost.

Two kinds of work are recorded in the caller's transaction: e-mails (pending
`Notification` rows) and other tasks (`OutboxTask` rows, for example a standings
request). After commit each is dispatched once, protected (`dispatch`): a broker that is
down or hung costs the page at most the broker timeouts of `config/settings.py` ("Broker
and mail") and a log line, never a 500, and for `BROKER_BACKOFF_SECONDS` after a failure
no page tries the broker again. The relay (`relay`, a beat job every
`NOTIFICATION_RELAY_SECONDS`) then dispatches whatever is due and not in a live attempt:
work whose after-commit dispatch failed, whose message the broker lost (restarted empty),
or whose worker died (the lease ran out).

Every task dispatched from here must be idempotent: the relay may dispatch a copy of work
that is merely slow.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .models import EmailStatus, Notification, OutboxTask

logger = logging.getLogger(__name__)

#: After a failed publish, `time.monotonic()` until which publishing is skipped.
_broker_down_until = 0.0


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def lease_seconds() -> float:
    return _setting("NOTIFICATION_LEASE_SECONDS", 45)


def broker_skipped() -> bool:
    """Whether a recent publish failed and the broker is being left alone for a while."""
    return time.monotonic() < _broker_down_until


def broker_reachable() -> bool:
    """Whether the broker answers within the configured timeouts (one connection)."""
    try:
        with current_app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, timeout=2)
            # A hung server accepts the TCP connection: make it answer something.
            connection.default_channel  # noqa: B018
    except Exception:
        return False
    return True


def dispatch(send: Callable[[], object], what: str) -> bool:
    """Call `send` (a task's `delay`/`apply_async`), protected: a broker error is logged and
    remembered, not raised. Returns whether it was published. Eager tasks (the quick start,
    tests) run inside `send` and their errors are raised."""
    global _broker_down_until
    if current_app.conf.task_always_eager:
        send()
        return True
    if broker_skipped():
        logger.info("broker unreachable a moment ago: %s left to the relay", what)
        return False
    try:
        send()
    except Exception as exc:  # kombu raises OperationalError, OSError, timeouts...
        _broker_down_until = time.monotonic() + _setting("BROKER_BACKOFF_SECONDS", 10)
        logger.warning("broker unreachable (%s): %s left to the relay", exc, what)
        return False
    return True


def on_commit_dispatch(send: Callable[[], object], what: str) -> None:
    """`dispatch(send)` after the current transaction commits."""
    transaction.on_commit(lambda: dispatch(send, what))


# --- Outbox tasks -------------------------------------------------------------------


def record_task(
    task_name: str,
    *,
    args: list | None = None,
    kwargs: dict | None = None,
    key: str | None = None,
    countdown: float = 0,
) -> OutboxTask:
    """Record `task_name(*args, **kwargs)` in the current transaction and dispatch it after
    commit. With `key`, a second call with the same key records and dispatches nothing."""
    now = timezone.now()
    fields = {
        "task": task_name,
        "args": list(args or []),
        "kwargs": dict(kwargs or {}),
        "due_at": now + timedelta(seconds=countdown),
    }
    # No savepoint of its own: the row belongs to the caller's transaction, all or nothing.
    with transaction.atomic(savepoint=False):
        if key is None:
            entry, created = OutboxTask.objects.create(**fields), True
        else:
            entry, created = OutboxTask.objects.get_or_create(key=key, defaults=fields)
        if created:
            entry_id = entry.pk
            on_commit_dispatch(lambda: _send_entry(entry_id, countdown), f"{task_name} #{entry_id}")
    return entry


def _send_entry(entry_id: int, countdown: float = 0) -> None:
    from .tasks import run_outbox_task

    run_outbox_task.apply_async(args=[entry_id], countdown=countdown or None)
    if not current_app.conf.task_always_eager:
        OutboxTask.objects.filter(pk=entry_id, done_at__isnull=True).update(
            dispatched_at=timezone.now()
        )


def run_entry(entry_id: int, *, app=None, raise_errors: bool = False) -> str:
    """Run one outbox task here, at most once at a time: claim it with a lease, run the
    task's body, mark it done. A failure is logged and the entry is due again after a
    backoff. Returns what happened ("done", "skipped", "error").

    The claim's lock waits, it never skips: `_send_entry` updates the row just after
    publishing, often while the worker claims it, and skipping would leave the task to the
    relay. A second copy waits for the first claim to commit, then sees its lease."""
    now = timezone.now()
    with transaction.atomic():
        entry = (
            OutboxTask.objects.select_for_update()
            .filter(pk=entry_id, done_at__isnull=True)
            .filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now))
            .first()
        )
        if entry is None:
            return "skipped"
        entry.attempts += 1
        entry.leased_until = now + timedelta(seconds=lease_seconds())
        entry.save(update_fields=["attempts", "leased_until"])
    app = app or current_app
    if entry.task not in app.tasks:  # in a web process the apps' tasks load lazily
        app.loader.import_default_modules()
    task = app.tasks[entry.task]
    try:
        task(*entry.args, **entry.kwargs)
    except Exception as exc:
        delay = min(
            _setting("NOTIFICATION_RETRY_MAX_SECONDS", 900),
            _setting("NOTIFICATION_RETRY_BASE_SECONDS", 30) * 2 ** min(entry.attempts - 1, 20),
        )
        OutboxTask.objects.filter(pk=entry.pk).update(
            leased_until=None,
            due_at=timezone.now() + timedelta(seconds=delay),
            last_error=f"{type(exc).__name__}: {exc}"[:1000],
        )
        logger.exception(
            "outbox task %s #%s failed; due again in %.0f s", entry.task, entry.pk, delay
        )
        if raise_errors:
            raise
        return "error"
    OutboxTask.objects.filter(pk=entry.pk).update(done_at=timezone.now(), leased_until=None)
    return "done"


# --- The relay ----------------------------------------------------------------------


def due_outbox_tasks(now=None):
    now = now or timezone.now()
    grace = now - timedelta(seconds=_setting("NOTIFICATION_RELAY_GRACE_SECONDS", 20))
    return OutboxTask.objects.filter(done_at__isnull=True, due_at__lte=now).filter(
        Q(leased_until__isnull=True) | Q(leased_until__lt=now),
        Q(dispatched_at__isnull=True) | Q(dispatched_at__lt=grace),
    )


def due_emails(now=None):
    """Pending e-mails due at least the grace period ago and not in a live attempt,
    whatever their attempt count."""
    now = now or timezone.now()
    grace = now - timedelta(seconds=_setting("NOTIFICATION_RELAY_GRACE_SECONDS", 20))
    return Notification.objects.filter(email_status=EmailStatus.PENDING).filter(
        Q(email_next_attempt_at__isnull=True, created_at__lte=grace)
        | Q(email_next_attempt_at__lte=grace),
        Q(email_lease_until__isnull=True) | Q(email_lease_until__lt=now),
    )


def relay() -> dict:
    """Dispatch every due outbox task and every due e-mail (in batches); delete outbox
    tasks done more than a day ago. Returns counts. Stops at the first broker failure
    (the next run tries again)."""
    from .services import EMAIL_BATCH_SIZE
    from .tasks import send_emails

    global _broker_down_until
    _broker_down_until = 0.0  # the relay always tries: it is how we learn the broker is back
    counts = {"tasks": 0, "emails": 0}
    for entry_id in due_outbox_tasks().values_list("pk", flat=True)[:1000]:
        if not dispatch(lambda entry_id=entry_id: _send_entry(entry_id), f"outbox #{entry_id}"):
            return counts
        counts["tasks"] += 1
    _expire_stale_emails()
    ids = list(due_emails().order_by("pk").values_list("pk", flat=True)[:10_000])
    for start in range(0, len(ids), EMAIL_BATCH_SIZE):
        chunk = ids[start : start + EMAIL_BATCH_SIZE]
        if not dispatch(lambda chunk=chunk: send_emails.delay(chunk), f"{len(chunk)} e-mails"):
            return counts
        counts["emails"] += len(chunk)
    OutboxTask.objects.filter(done_at__lt=timezone.now() - timedelta(days=1)).delete()
    if counts["tasks"] or counts["emails"]:
        logger.info("relay dispatched %(tasks)d outbox tasks and %(emails)d e-mails", counts)
    return counts


def _expire_stale_emails() -> int:
    """Fail pending rows written longer ago than the retry budget (news that stale is not
    worth an e-mail; staff see them as failed and may retry)."""
    now = timezone.now()
    hours = _setting("NOTIFICATION_RETRY_BUDGET_HOURS", 24)
    stale = Notification.objects.filter(
        email_status=EmailStatus.PENDING, created_at__lt=now - timedelta(hours=hours)
    ).filter(Q(email_lease_until__isnull=True) | Q(email_lease_until__lt=now))
    count = stale.update(
        email_status=EmailStatus.FAILED, email_error=f"Not sent within {hours:g} hours."
    )
    if count:
        logger.error("%d e-mail(s) not sent within %g hours: marked failed", count, hours)
    return count
