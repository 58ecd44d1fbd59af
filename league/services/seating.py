"""Fixed seating and feature tables: what staff choose before a round is paired. The
pairing (`rules.swiss.assign_tables`, called by `matches.services.rounds`) reads them."""

from __future__ import annotations

from django.db import transaction

from rules.errors import DomainError

from .. import permissions
from ..models import Event, EventLogEntry, Registration
from . import eventlog

MAX_TABLE = 2000


def _require(by_user, event: Event) -> None:
    if not permissions.can(by_user, event, "pair-rounds"):
        raise DomainError(
            "not-allowed", "Your staff role at this event does not allow this.", status=403
        )


def _check_table(table: int | None) -> None:
    if table is not None and not 1 <= table <= MAX_TABLE:
        raise DomainError("table-invalid", f"Table numbers run from 1 to {MAX_TABLE}.")


@transaction.atomic
def set_seating(
    *,
    registration: Registration,
    by_user,
    fixed_table: int | None,
    featured: bool = False,
    reason: str = "",
) -> Registration:
    """Give a player a fixed table (accessibility: their match sits there every round, the
    opponent moves) or none, and mark them for a feature table. Writes the registration and
    a log row. Raises `not-allowed`, `table-invalid`, `table-taken` (another player has it,
    or it is a feature table)."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("event__season__league", "player")
        .get(pk=registration.pk)
    )
    event = registration.event
    _require(by_user, event)
    _check_table(fixed_table)
    if fixed_table is not None:
        if fixed_table in (event.feature_tables or []):
            raise DomainError("table-taken", f"Table {fixed_table} is a feature table.", status=409)
        other = (
            Registration.objects.filter(event=event, fixed_table=fixed_table)
            .exclude(pk=registration.pk)
            .exclude(status__in=(Registration.Status.WITHDRAWN, Registration.Status.DROPPED))
            .select_related("player")
            .first()
        )
        if other is not None:
            raise DomainError(
                "table-taken", f"{other.player.name} already has table {fixed_table}.", status=409
            )
    before = {"fixed_table": registration.fixed_table, "featured": registration.featured}
    registration.fixed_table = fixed_table
    registration.featured = featured
    registration.save(update_fields=["fixed_table", "featured"])
    after = {"fixed_table": fixed_table, "featured": featured}
    if before != after:
        where = f"table {fixed_table} every round" if fixed_table else "no fixed table"
        eventlog.record(
            event=event,
            kind=EventLogEntry.Kind.SEATING,
            by_user=by_user,
            reason=reason,
            summary=f"{registration.player.name}: {where}"
            + (", feature table" if featured else "")
            + ".",
            registrations=[registration],
            before=before,
            after=after,
        )
    return registration


@transaction.atomic
def set_feature_tables(*, event: Event, by_user, tables: list[int], reason: str = "") -> Event:
    """Reserve table numbers for the stream: the pairing seats the matches of featured
    players there, and no other match. Writes the event and a log row."""
    event = Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
    _require(by_user, event)
    for table in tables:
        _check_table(table)
    tables = sorted(set(tables))
    fixed = Registration.objects.filter(event=event, fixed_table__in=tables).first()
    if fixed is not None:
        raise DomainError(
            "table-taken", f"Table {fixed.fixed_table} is a player's fixed table.", status=409
        )
    before = list(event.feature_tables or [])
    event.feature_tables = tables
    event.save(update_fields=["feature_tables"])
    if before != tables:
        eventlog.record(
            event=event,
            kind=EventLogEntry.Kind.SEATING,
            by_user=by_user,
            reason=reason,
            summary="Feature tables: " + (", ".join(map(str, tables)) or "none") + ".",
            before={"feature_tables": before},
            after={"feature_tables": tables},
        )
    return event
