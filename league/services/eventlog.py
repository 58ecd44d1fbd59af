"""The event log: one row for every change to an event that is not play itself (a round
undone, a pairing edited, a drop and its undo, a result corrected, a time extension, a
penalty, a deck check, settings changed during play).

`record` is the one way in. The service that makes a change calls it inside its own
transaction, so a change that rolls back leaves no row and a row never describes a change
that did not happen. It lives in `league` so that every app above (matches, floor, tom)
may call it; it takes plain values (ids, JSON), never a model of a higher app.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _

from rules.errors import DomainError
from rules.i18n import Text

from ..event_log import EventLogEntry
from ..models import Event, Registration

Kind = EventLogEntry.Kind

#: Kinds that correct a mistake: the person making them must say why.
CORRECTIONS = frozenset(
    {
        Kind.ROUND_UNDONE,
        Kind.PAIRING_EDITED,
        Kind.PLAYER_SEATED,
        Kind.DROP_UNDONE,
        Kind.CHECK_IN_UNDONE,
        Kind.RESULT_CORRECTED,
    }
)

REASON_MAX = 300


def clean_reason(reason: str | None, *, kind: str) -> str:
    """The reason, stripped; `reason-required` (400) when `kind` is a correction and none
    is given. Services call this before changing anything, so a refusal changes nothing."""
    text = (reason or "").strip()[:REASON_MAX]
    if not text and kind in CORRECTIONS:
        raise DomainError(
            "reason-required",
            _("Say why in a few words: every correction is kept in the event log with its reason."),
        )
    return text


def record(
    *,
    event: Event | int,
    kind: str,
    by_user,
    summary: Text | str,
    registrations: Iterable[Registration | int] = (),
    before=None,
    after=None,
    reason: str = "",
    round_number: int | None = None,
) -> EventLogEntry:
    """Write one log row (and its players). Must run inside the caller's transaction.
    Raises `reason-required` for a correction without a reason.

    `summary` is a `rules.i18n.Text` (a marked template and its parameters): the row keeps
    its English in `summary` and the template in `summary_text`, and the log shows it in
    each reader's language (`EventLogEntry.worded_summary`)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("eventlog.record must run inside the change's transaction")
    kind = Kind(kind).value  # ValueError on an unknown kind: a caller's bug
    entry = EventLogEntry.objects.create(
        event_id=event if isinstance(event, int) else event.pk,
        kind=kind,
        by=by_user if by_user is not None and by_user.is_authenticated else None,
        summary=str(summary)[:300],
        summary_text=summary.to_dict() if isinstance(summary, Text) else None,
        before=before,
        after=after,
        reason=clean_reason(reason, kind=kind),
        round_number=round_number,
    )
    ids = {r if isinstance(r, int) else r.pk for r in registrations if r is not None}
    if ids:
        entry.registrations.set(ids)
    return entry


def entries(event: Event, *, kind: str = "", registration: int | None = None):
    """The event's log, newest first, filtered by kind and by player; with who and the
    players loaded."""
    rows = EventLogEntry.objects.filter(event=event)
    if kind:
        rows = rows.filter(kind=kind)
    if registration:
        rows = rows.filter(registrations=registration)
    return (
        rows.select_related("by").prefetch_related("registrations__player").order_by("-at", "-id")
    )


def export_rows(event: Event) -> list[dict]:
    """The log as plain rows for the event's JSON export, oldest first."""
    return [
        {
            "at": e.at.isoformat(),
            "by": e.by.get_username() if e.by else None,
            "kind": e.kind,
            "round": e.round_number,
            "registrations": sorted(r.pk for r in e.registrations.all()),
            "summary": e.summary,
            "before": e.before,
            "after": e.after,
            "reason": e.reason,
        }
        for e in entries(event).order_by("at", "id")
    ]
