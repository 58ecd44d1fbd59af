"""Batched outbox work: after-work recorded with a change, done in batches by the worker.

A request that has work to leave for later (the opponent's notice, a webhook, a standings
request) records one `OutboxTask` row in its own transaction (`record`): nothing lost,
since the row commits with the change or not at all. Unlike an ordinary outbox task, the
row is not published to the broker one by one: after commit the request *kicks* the
drain (`kick`): one cache `add` of a flag, and one `notifications.run_outbox_batch` task
published only when no drain is already waiting, so a hundred reports a second cost the
broker a few messages, not a hundred, and the request no UPDATE of its row. The drain a
kick publishes waits `OUTBOX_BATCH_GATHER_SECONDS` (1 s by default) before it runs, so
the commits of that moment join its batch: at a hundred reports a second, about one
drain a second, where a drain run at once took a few rows each time (a broker message,
a task, a claim and a finish each, most of the worker's and much of PostgreSQL's CPU
for a report: `benchmarks/bench_load.py`). A notice arrives that much later.

The drain (`drain`, run by that task) claims due rows in batches with the one leased-work
mechanism (`leases.claim_many`), then does the whole batch *and* marks its rows done in
one transaction (`leases.finish_many`, conditional on the batch's lease): nothing twice,
because a worker killed mid-batch, or a batch that fails, commits none of its work, and a
batch whose lease was taken over rolls back. A failing batch is tried again row by row, so
one bad row cannot hold the others back; a failing row is due again after the backoff.
Rows whose kick was lost (broker down, a flag left behind) are found by the relay
(`outbox.relay`, kind `batches`) after the grace period.

Rows are `OutboxTask`s whose `task` is `"batch:<task name>"`: the named Celery task is
called in-process with the list of the batch's rows' `args`, and must do its work in the
database only (inside the drain's transaction), dispatching anything else after commit.
"""

from __future__ import annotations

import logging
from collections import defaultdict

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import leases, outbox
from .models import OutboxTask

logger = logging.getLogger(__name__)

PREFIX = outbox.BATCH_PREFIX
#: Rows one drain transaction takes.
BATCH_SIZE = 200
#: The flag that says a drain is waiting (`kick`); it expires, so a lost drain costs at
#: most this long before the next commit kicks again (the relay finds the rows anyway).
#: Longer than the drain's gathering wait (`gather_seconds`).
KICK_KEY = "outbox:batch-kick"
KICK_SECONDS = 10
DRAIN_TASK = "notifications.run_outbox_batch"


class LeaseLost(Exception):
    """The batch's lease was taken over: its work is rolled back (the new owner does it)."""


BATCHES = leases.register(
    leases.Kind(
        name="batches",
        model=OutboxTask,
        task=DRAIN_TASK,
        pending=Q(done_at__isnull=True, task__startswith=PREFIX),
        due_field="due_at",
        lease_field="leased_until",
        attempts_field="attempts",
        batch=BATCH_SIZE,
        relay_order=("due_at", "id"),
        claim_only_due=True,
        skip_locked=True,
    )
)


def record(task_name: str, args: list) -> OutboxTask:
    """Record `task_name`'s item `args` in the current transaction; kick the drain after
    commit."""
    with transaction.atomic(savepoint=False):
        row = OutboxTask.objects.create(task=PREFIX + task_name, args=list(args))
    transaction.on_commit(kick)
    return row


def gather_seconds() -> float:
    """How long a kicked drain waits for more rows (`OUTBOX_BATCH_GATHER_SECONDS`), never
    as long as the kick flag lives."""
    return min(leases.setting("OUTBOX_BATCH_GATHER_SECONDS", 1), KICK_SECONDS / 2)


def kick() -> None:
    """Make sure a drain runs soon: publish one unless one is already waiting."""
    if not current_app.conf.task_always_eager:
        try:
            if not cache.add(KICK_KEY, 1, timeout=KICK_SECONDS):
                return
        except Exception:  # the cache down: the relay finds the rows after the grace period
            logger.warning("cache unreachable: outbox batch left to the relay", exc_info=True)
            return
    task = outbox.task_named(DRAIN_TASK)
    wait = gather_seconds()
    if not outbox.dispatch(lambda: task.apply_async(countdown=wait), "outbox batch drain"):
        cache.delete(KICK_KEY)


def drain(ids=None) -> int:
    """Do the due batched rows (`ids` only, when the relay names them), in batches. Returns
    how many rows were done."""
    if ids is None:
        # Cleared before looking: a row committed after this is kicked again.
        cache.delete(KICK_KEY)
    done = 0
    while True:
        rows = leases.claim_many(BATCHES, limit=BATCH_SIZE, ids=ids)
        if not rows:
            return done
        if _run(rows):
            done += len(rows)
        elif len(rows) > 1:
            for row in rows:  # tried alone: one bad row holds no other back
                alone = leases.claim_many(BATCHES, limit=1, ids=[row.pk])
                done += bool(alone) and _run(alone)
        if ids is not None:
            return done


def _run(rows: list[OutboxTask]) -> bool:
    """Do `rows` and mark them done, all in one transaction; on failure, each row is due
    again after its backoff (a batch of one) or at once (to be tried alone)."""
    try:
        with transaction.atomic():
            by_task = defaultdict(list)
            for row in rows:
                by_task[row.task.removeprefix(PREFIX)].append(row.args)
            for name, items in by_task.items():
                outbox.task_named(name)(items)
            if leases.finish_many(BATCHES, rows, done_at=timezone.now()) != len(rows):
                raise LeaseLost()
    except LeaseLost:
        logger.warning("outbox batch of %d rows: lease taken over, rolled back", len(rows))
        return False
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"[:1000]
        logger.exception("outbox batch of %d rows failed", len(rows))
        for row in rows:
            leases.retry_later(BATCHES, row, None if len(rows) == 1 else 0, last_error=error)
        return False
    return True
