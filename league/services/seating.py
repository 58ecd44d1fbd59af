"""Fixed seating and feature tables: what staff choose before a round is paired. The
pairing (`rules.swiss.assign_tables`, called by `matches.services.rounds`) reads them.

A fixed table keeps a player's match at that table every round (accessibility); feature
tables are kept for the stream, and no match sits there unless a player's fixed table is
one of them: that is how staff put a player's matches on stream."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from rules.errors import DomainError
from rules.i18n import gettext_noop, say

from .. import permissions
from ..event_log import EventLogEntry
from ..models import Event, Registration
from . import eventlog

MAX_TABLE = 2000


def _require(by_user, event: Event) -> None:
    if not permissions.can(by_user, event, "pair-rounds"):
        raise DomainError(
            "not-allowed", _("Your staff role at this event does not allow this."), status=403
        )


def _check_table(table: int | None) -> None:
    if table is not None and not 1 <= table <= MAX_TABLE:
        raise DomainError(
            "table-invalid", _("Table numbers run from 1 to %(max)s.") % {"max": MAX_TABLE}
        )


@transaction.atomic
def set_seating(
    *,
    registration: Registration,
    by_user,
    fixed_table: int | None,
    reason: str = "",
) -> Registration:
    """Give a player a fixed table (accessibility: their match sits there every round, the
    opponent moves) or none; a feature table puts their matches on stream. Writes the
    registration and a log row. Raises `not-allowed`, `table-invalid`, `table-taken`
    (another player has it)."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("event__season__league", "player")
        .get(pk=registration.pk)
    )
    event = registration.event
    _require(by_user, event)
    _check_table(fixed_table)
    if fixed_table is not None:
        other = (
            Registration.objects.filter(event=event, fixed_table=fixed_table)
            .exclude(pk=registration.pk)
            .exclude(status__in=(Registration.Status.WITHDRAWN, Registration.Status.DROPPED))
            .select_related("player")
            .first()
        )
        if other is not None:
            raise DomainError(
                "table-taken",
                _("%(player)s already has table %(table)s.")
                % {"player": other.player.name, "table": fixed_table},
                status=409,
            )
    before = {"fixed_table": registration.fixed_table}
    registration.fixed_table = fixed_table
    registration.save(update_fields=["fixed_table"])
    after = {"fixed_table": fixed_table}
    if before != after:
        name = registration.player.name
        summary = (
            say(
                gettext_noop("%(player)s: table %(table)s every round."),
                player=name,
                table=fixed_table,
            )
            if fixed_table
            else say(gettext_noop("%(player)s: no fixed table."), player=name)
        )
        eventlog.record(
            event=event,
            kind=EventLogEntry.Kind.SEATING,
            by_user=by_user,
            reason=reason,
            summary=summary,
            registrations=[registration],
            before=before,
            after=after,
        )
    return registration


@transaction.atomic
def set_feature_tables(*, event: Event, by_user, tables: list[int], reason: str = "") -> Event:
    """Reserve table numbers for the stream: no match sits there but those of players whose
    fixed table it is. Writes the event and a log row."""
    event = Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
    _require(by_user, event)
    for table in tables:
        _check_table(table)
    tables = sorted(set(tables))
    before = list(event.feature_tables or [])
    event.feature_tables = tables
    event.save(update_fields=["feature_tables"])
    if before != tables:
        eventlog.record(
            event=event,
            kind=EventLogEntry.Kind.SEATING,
            by_user=by_user,
            reason=reason,
            summary=(
                say(gettext_noop("Feature tables: %(tables)s."), tables=", ".join(map(str, tables)))
                if tables
                else say(gettext_noop("Feature tables: none."))
            ),
            before={"feature_tables": before},
            after={"feature_tables": tables},
        )
    return event
