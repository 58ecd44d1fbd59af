"""Leased work: rows that record work to do, done by one worker at a time, retried with one
backoff rule, and found again by one relay when a dispatch or a worker is lost.

Three kinds of rows use it: outbox tasks (`OutboxTask`), e-mails (pending `Notification`
rows) and webhook deliveries (`webhooks.WebhookDelivery`, registered by the webhooks app,
which this app may not import). A `Kind` names a kind's model, its columns and the Celery
task (by name) that works a due row.

- **Claim** (`claim`): in a short transaction of its own, lock the row, check it is still
  to do and not in a live attempt, record the attempt (attempts + 1) and a lease (now +
  the kind's lease seconds), commit. The row is then the worker's until the lease runs
  out. The lock waits for a row that other work holds a moment (a dispatcher marking it
  dispatched); a copy of the task that waited then sees the live lease and skips.
- **Finish** (`finish`): one conditional UPDATE on the row *and its lease*: a worker whose
  lease ran out and was taken over by another claim records nothing (the later attempt
  owns the row). `retry_later` is `finish` with the row due again after a backoff.
- **Backoff** (`backoff`): base × 2^(attempts − 1), at most the cap, the one rule of the
  three kinds (each with its own base and cap settings).
- **Due** (`due`): still to do, due, not in a live attempt, and not dispatched within the
  grace period (`NOTIFICATION_RELAY_GRACE_SECONDS`): what the relay (`outbox.relay`)
  dispatches, whatever the attempt count.

Work done here must be idempotent: the relay may dispatch a copy of work that is merely
slow, and a worker may die after the work and before `finish`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone


def setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


@dataclass(frozen=True)
class Kind:
    """One kind of leased row. `pending` selects the rows still to do (a `Q`, or a callable
    returning one, evaluated per query); the field names are the model's columns."""

    name: str
    model: type[models.Model]
    #: The Celery task, by name, that works rows of this kind.
    task: str
    pending: Q | Callable[[], Q]
    due_field: str
    lease_field: str
    attempts_field: str
    #: When the after-commit dispatch published the row's task; None: the kind has no such
    #: column and the grace period counts from `due_field`, or `created_field` when null.
    dispatched_field: str | None = None
    created_field: str | None = None
    #: Ids per task: 1 sends `task(id)`, more send `task([ids])`.
    batch: int = 1
    #: Most rows one relay run dispatches, and in which order.
    relay_limit: int = 1000
    relay_order: tuple[str, ...] = ("pk",)
    #: Whether a claim takes only rows already due (a task may arrive before its row is).
    claim_only_due: bool = False
    #: Whether a claim passes over a row another transaction holds instead of waiting.
    skip_locked: bool = False
    lease_setting: str = "NOTIFICATION_LEASE_SECONDS"
    lease_default: float = 45
    base_setting: str = "NOTIFICATION_RETRY_BASE_SECONDS"
    base_default: float = 30
    cap_setting: str = "NOTIFICATION_RETRY_MAX_SECONDS"
    cap_default: float = 900
    #: Run by the relay before it looks for due rows (e.g. giving up on stale ones).
    before_relay: Callable[[], object] | None = field(default=None, compare=False)

    def pending_q(self) -> Q:
        return self.pending() if callable(self.pending) else self.pending

    def lease_seconds(self) -> float:
        return setting(self.lease_setting, self.lease_default)

    def backoff(self, attempts: int) -> float:
        return backoff(
            attempts,
            base=setting(self.base_setting, self.base_default),
            cap=setting(self.cap_setting, self.cap_default),
        )


_kinds: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Make `kind` known to the relay (idempotent: the same name replaces the entry)."""
    _kinds[kind.name] = kind
    return kind


def kinds() -> list[Kind]:
    return list(_kinds.values())


def backoff(attempts: int, *, base: float, cap: float) -> float:
    """Seconds before the next try after `attempts` failed ones: base × 2^(attempts − 1),
    at most `cap`."""
    return min(cap, base * 2 ** min(max(attempts - 1, 0), 30))


def _free(kind: Kind, now: datetime) -> Q:
    lease = kind.lease_field
    return Q(**{f"{lease}__isnull": True}) | Q(**{f"{lease}__lt": now})


def _due_by(kind: Kind, moment: datetime) -> Q:
    due = kind.due_field
    return Q(**{f"{due}__isnull": True}) | Q(**{f"{due}__lte": moment})


def claim(
    kind: Kind, pk: int, *, select_related: tuple[str, ...] = (), **extra
) -> models.Model | None:
    """Record an attempt on row `pk` and lease it to the caller (committed), if it is still
    to do, not in a live attempt (and due, for kinds that `claim_only_due`); None
    otherwise. The returned row's `lease` attribute is the lease this attempt holds."""
    now = timezone.now()
    with transaction.atomic():
        rows = (
            kind.model.objects.select_for_update(skip_locked=kind.skip_locked, of=("self",))
            .select_related(*select_related)
            .filter(kind.pending_q(), _free(kind, now), pk=pk, **extra)
        )
        if kind.claim_only_due:
            rows = rows.filter(_due_by(kind, now))
        row = rows.first()
        if row is None:
            return None
        lease = now + timedelta(seconds=kind.lease_seconds())
        setattr(row, kind.attempts_field, getattr(row, kind.attempts_field) + 1)
        setattr(row, kind.lease_field, lease)
        row.save(update_fields=[kind.attempts_field, kind.lease_field])
    row.lease = lease
    return row


def claim_many(kind: Kind, *, limit: int, ids=None) -> list[models.Model]:
    """`claim` for a batch: lease up to `limit` rows of `kind` that are still to do, due and
    not in a live attempt (among `ids` when given), oldest due first, passing over rows
    another transaction holds; committed. Each returned row's `lease` is this attempt's."""
    now = timezone.now()
    lease = now + timedelta(seconds=kind.lease_seconds())
    with transaction.atomic():
        rows = kind.model.objects.select_for_update(skip_locked=True, of=("self",)).filter(
            kind.pending_q(), _free(kind, now), _due_by(kind, now)
        )
        if ids is not None:
            rows = rows.filter(pk__in=list(ids))
        rows = list(rows.order_by(*kind.relay_order)[:limit])
        if not rows:
            return []
        kind.model.objects.filter(pk__in=[r.pk for r in rows]).update(
            **{kind.attempts_field: models.F(kind.attempts_field) + 1, kind.lease_field: lease}
        )
    for row in rows:
        setattr(row, kind.attempts_field, getattr(row, kind.attempts_field) + 1)
        setattr(row, kind.lease_field, lease)
        row.lease = lease
    return rows


def finish_many(kind: Kind, rows: list[models.Model], **fields) -> int:
    """`finish` for rows claimed together by `claim_many` (one lease): one UPDATE; returns
    how many still carried the lease (fewer than `len(rows)`: some were taken over)."""
    if not rows:
        return 0
    return kind.model.objects.filter(
        pk__in=[r.pk for r in rows], **{kind.lease_field: rows[0].lease}
    ).update(**{kind.lease_field: None}, **fields)


def finish(kind: Kind, row: models.Model, **fields) -> bool:
    """Record the outcome of `row`'s attempt and end its lease, in one UPDATE that applies
    only while the row still carries this attempt's lease. Returns whether it applied
    (False: the row is gone, or a later attempt took it over after the lease ran out)."""
    return bool(
        kind.model.objects.filter(pk=row.pk, **{kind.lease_field: row.lease}).update(
            **{kind.lease_field: None}, **fields
        )
    )


def retry_later(
    kind: Kind, row: models.Model, delay: float | None = None, **fields
) -> float | None:
    """`finish` with the row due again after `delay` (by default the kind's backoff for the
    attempts made). Returns the delay in seconds, or None if the lease was lost."""
    if delay is None:
        delay = kind.backoff(getattr(row, kind.attempts_field))
    due = timezone.now() + timedelta(seconds=delay)
    return delay if finish(kind, row, **{kind.due_field: due}, **fields) else None


def due(kind: Kind, now: datetime | None = None):
    """Rows of `kind` the relay should dispatch: still to do, due, not in a live attempt,
    and left to their own after-commit dispatch no longer than the grace period."""
    now = now or timezone.now()
    grace = now - timedelta(seconds=setting("NOTIFICATION_RELAY_GRACE_SECONDS", 20))
    rows = kind.model.objects.filter(kind.pending_q(), _free(kind, now))
    if kind.dispatched_field:
        dispatched = kind.dispatched_field
        return rows.filter(
            _due_by(kind, now),
            Q(**{f"{dispatched}__isnull": True}) | Q(**{f"{dispatched}__lt": grace}),
        )
    fresh = Q(**{f"{kind.due_field}__isnull": True})
    if kind.created_field:
        fresh &= Q(**{f"{kind.created_field}__lte": grace})
    return rows.filter(fresh | Q(**{f"{kind.due_field}__lte": grace}))


def live(kind: Kind, row: models.Model, now: datetime | None = None) -> bool:
    """Whether `row` is in a live attempt (a lease in the future)."""
    lease = getattr(row, kind.lease_field)
    return lease is not None and lease > (now or timezone.now())
