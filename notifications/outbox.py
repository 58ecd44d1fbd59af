"""Work recorded in the database and dispatched to the broker after commit, never lost.

Three kinds of work are recorded in the caller's transaction: e-mails (pending
`Notification` rows), other tasks (`OutboxTask` rows, for example a standings request,
recorded with `record_task(name, ...)`) and webhook deliveries (`webhooks.WebhookDelivery`).
Each is leased work (`notifications.leases`: claim with a lease, attempts, one backoff
rule, "due"), and each is dispatched here, by task name (`send`), so no service imports a
tasks module: after commit each is dispatched once, protected (`dispatch`): a broker that
is down or hung costs the page at most the broker timeouts of `config/settings.py`
("Broker and mail") and a log line, never a 500, and for `BROKER_BACKOFF_SECONDS` after a
failure no page tries the broker again. The relay (`relay`, the one beat job, every
`NOTIFICATION_RELAY_SECONDS`) then dispatches whatever of every registered kind is due
and not in a live attempt: work whose after-commit dispatch failed, whose message the
broker lost (restarted empty), or whose worker died (the lease ran out).

Every task dispatched from here must be idempotent: the relay may dispatch a copy of work
that is merely slow.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import time
from collections.abc import Callable, Sequence
from datetime import timedelta

from celery import current_app
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import leases
from .models import EmailStatus, Notification, OutboxTask

logger = logging.getLogger(__name__)

#: The `task` of a batched row starts so (`notifications.batches`): not an ordinary task.
BATCH_PREFIX = "batch:"

#: Most notification ids one `send_emails` task carries.
EMAIL_BATCH_SIZE = 200

#: After a failed publish, `time.monotonic()` until which publishing is skipped.
_broker_down_until = 0.0


def _setting(name: str, default: float) -> float:
    return leases.setting(name, default)


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


# --- Dispatch by task name -----------------------------------------------------------


def task_named(name: str, app=None):
    """The registered Celery task called `name`. In a web process the apps' task modules
    load lazily: `<app>.<task>` is looked for in `<app>/tasks.py` (the house's naming),
    then in every app's."""
    app = app or current_app
    if name not in app.tasks:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"{name.partition('.')[0]}.tasks")
    if name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[name]


def send(kind: leases.Kind, ids: Sequence[int], countdown: float = 0) -> None:
    """Publish `kind`'s task for `ids` (one task: a batch kind takes the list, any other one
    id) and mark the rows dispatched. Unprotected: callers go through `dispatch`."""
    task = task_named(kind.task)
    ids = list(ids)
    if kind.batch > 1:
        if countdown:
            task.apply_async(args=[ids], countdown=countdown)
        else:
            task.delay(ids)
    else:
        (pk,) = ids
        task.apply_async(args=[pk], countdown=countdown or None)
    if kind.dispatched_field and not current_app.conf.task_always_eager:
        kind.model.objects.filter(pk__in=ids).update(**{kind.dispatched_field: timezone.now()})


def dispatch_after_commit(kind: leases.Kind, ids: Sequence[int], countdown: float = 0) -> int:
    """After the current transaction commits, dispatch `kind`'s task for `ids`, in tasks of
    `kind.batch` ids, each protected (`dispatch`). Returns the number of tasks."""
    ids = list(ids)
    chunks = [ids[i : i + kind.batch] for i in range(0, len(ids), kind.batch)]
    for chunk in chunks:
        on_commit_dispatch(
            lambda chunk=chunk: send(kind, chunk, countdown), f"{kind.name} {_named(chunk)}"
        )
    return len(chunks)


def _named(ids: list[int]) -> str:
    return f"#{ids[0]}" if len(ids) == 1 else f"({len(ids)} rows)"


# --- The kinds of this app -----------------------------------------------------------


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


TASKS = leases.register(
    leases.Kind(
        name="tasks",
        model=OutboxTask,
        task="notifications.run_outbox_task",
        pending=Q(done_at__isnull=True) & ~Q(task__startswith=BATCH_PREFIX),
        due_field="due_at",
        lease_field="leased_until",
        attempts_field="attempts",
        dispatched_field="dispatched_at",
        # Earliest due first: a standings run that publishes a round must not be overtaken
        # by a plain recompute recorded before it (which would publish without the notice).
        relay_order=("due_at", "id"),
    )
)

EMAILS = leases.register(
    leases.Kind(
        name="emails",
        model=Notification,
        task="notifications.send_emails",
        pending=Q(email_status=EmailStatus.PENDING),
        due_field="email_next_attempt_at",
        lease_field="email_lease_until",
        attempts_field="email_attempts",
        created_field="created_at",
        batch=EMAIL_BATCH_SIZE,
        relay_limit=10_000,
        # A batch's rows are claimed one by one as the batch is sent: a row another worker
        # holds is that worker's, and a row retried later may arrive before it is due.
        claim_only_due=True,
        skip_locked=True,
        before_relay=_expire_stale_emails,
    )
)


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
            dispatch_after_commit(TASKS, [entry.pk], countdown)
    return entry


def run_entry(entry_id: int, *, app=None, raise_errors: bool = False) -> str:
    """Run one outbox task here, at most once at a time: claim it with a lease
    (`leases.claim`), run the task's body, mark it done. A failure is logged and the entry
    is due again after the backoff. Returns what happened ("done", "skipped", "error")."""
    entry = leases.claim(TASKS, entry_id)
    if entry is None:
        return "skipped"
    task = task_named(entry.task, app)
    try:
        task(*entry.args, **entry.kwargs)
    except Exception as exc:
        delay = leases.retry_later(TASKS, entry, last_error=f"{type(exc).__name__}: {exc}"[:1000])
        logger.exception(
            "outbox task %s #%s failed; due again in %s s", entry.task, entry.pk, delay
        )
        if raise_errors:
            raise
        return "error"
    leases.finish(TASKS, entry, done_at=timezone.now())
    return "done"


# --- The relay ----------------------------------------------------------------------


def due_outbox_tasks(now=None):
    return leases.due(TASKS, now)


def due_emails(now=None):
    """Pending e-mails due at least the grace period ago and not in a live attempt,
    whatever their attempt count."""
    return leases.due(EMAILS, now)


def relay(kinds: Sequence[leases.Kind] | None = None) -> dict:
    """Dispatch every due row of every registered kind (`leases.kinds()`: outbox tasks,
    e-mails in batches, webhook deliveries), or of `kinds` only; delete outbox tasks done
    more than a day ago. Returns counts by kind name. Stops at the first broker failure
    (the next run tries again)."""
    global _broker_down_until
    _broker_down_until = 0.0  # the relay always tries: it is how we learn the broker is back
    kinds = leases.kinds() if kinds is None else list(kinds)
    counts = {kind.name: 0 for kind in kinds}
    for kind in kinds:
        if kind.before_relay is not None:
            kind.before_relay()
        due = leases.due(kind).order_by(*kind.relay_order)
        ids = list(due.values_list("pk", flat=True)[: kind.relay_limit])
        for start in range(0, len(ids), kind.batch):
            chunk = ids[start : start + kind.batch]
            what = f"{kind.name} {_named(chunk)}"
            if not dispatch(lambda kind=kind, chunk=chunk: send(kind, chunk), what):
                return counts
            counts[kind.name] += len(chunk)
    OutboxTask.objects.filter(done_at__lt=timezone.now() - timedelta(days=1)).delete()
    if any(counts.values()):
        logger.info("relay dispatched %s", ", ".join(f"{n} {k}" for k, n in counts.items()))
    return counts
