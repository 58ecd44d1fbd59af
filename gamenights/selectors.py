"""Read queries the board-game night's pages, API and services share."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from league.models import Event, Registration
from league.selectors import ACTIVE

from .models import GameTable, Seat, Sitting


def sittings(event: Event) -> QuerySet[Sitting]:
    """The night's games, each with its tables and seats (players loaded): three queries."""
    seats = Seat.objects.select_related("registration__player").order_by("seat")
    tables = GameTable.objects.prefetch_related(Prefetch("seats", queryset=seats)).order_by(
        "number"
    )
    return (
        Sitting.objects.filter(event=event)
        .prefetch_related(Prefetch("tables", queryset=tables))
        .order_by("number")
    )


def players_to_seat(event: Event) -> list[int]:
    """The registrations a new game seats: active ones (checked in, when the event asks)."""
    statuses = (Registration.Status.CHECKED_IN,) if event.require_check_in else tuple(ACTIVE)
    return list(
        Registration.objects.filter(event=event, status__in=statuses).values_list("pk", flat=True)
    )
