"""Running a board-game night: seating a game, reporting a table, finishing the night.

Each function owns its transaction, checks permissions (`league.permissions.can`), raises
`DomainError` with a stable code, and says what it writes and what it queues. The rules
(table sizes, random seating, places) are `rules.gamenights`; league points are
`league.services.record_placements`, as for any event. Swiss, standings and the top cut
(`matches`) are never called: a board-game night has no rounds.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import permissions
from league import services as league_services
from league.models import Event
from rules import gamenights as rules
from rules.errors import DomainError

from . import selectors
from .models import GameTable, Seat, Sitting


def _lock_night(event: Event) -> Event:
    event = Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
    if not event.is_board_game:
        raise DomainError(
            "not-a-board-game",
            _("%(event)s is a tournament: it has rounds, not tables.") % {"event": event},
            status=409,
        )
    if event.status == Event.Status.FINISHED:
        raise DomainError(
            "event-finished", _("%(event)s is finished.") % {"event": event}, status=409
        )
    return event


def _require(user, event: Event, action: str, message: str) -> None:
    if not permissions.can(user, event, action):
        raise DomainError("not-allowed", message, status=403)


@transaction.atomic
def seat_next_game(*, event: Event, by_user) -> Sitting:
    """Seat everyone present for the night's next game at random, at balanced tables of 2
    to 6 (`rules.gamenights.seat`, seeded by the event and game number, so a seating can
    be replayed). Writes one `Sitting`, its `GameTable`s and `Seat`s, and sets the event
    running. Staff only. Raises `not-allowed`, `not-a-board-game`, `event-finished`,
    `tables-open` (the last game has tables without a result), `too-few-players`."""
    event = _lock_night(event)
    _require(by_user, event, "manage-event", _("Only the event's staff can seat a game."))
    last = Sitting.objects.filter(event=event).order_by("-number").first()
    if last and GameTable.objects.filter(sitting=last, reported_at__isnull=True).exists():
        raise DomainError(
            "tables-open",
            _("Game %(number)s has tables without a winner yet.") % {"number": last.number},
            status=409,
        )
    number = (last.number if last else 0) + 1
    seed = f"{event.seed or event.pk}:game-{number}"
    tables = rules.seat(selectors.players_to_seat(event), seed=seed)
    sitting = Sitting.objects.create(event=event, number=number, seed=seed)
    for table_number, players in enumerate(tables, start=1):
        table = GameTable.objects.create(sitting=sitting, number=table_number)
        Seat.objects.bulk_create(
            Seat(table=table, registration_id=reg, seat=n) for n, reg in enumerate(players, 1)
        )
    if event.status != Event.Status.RUNNING:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    return sitting


def can_report(user, table: GameTable, seats: list[Seat]) -> bool:
    """Staff, or a player seated at the table (while nobody has reported it)."""
    if permissions.can(user, table.sitting.event, "enter-results"):
        return True
    return not table.reported and any(
        permissions.owns_registration(user, seat.registration) for seat in seats
    )


@transaction.atomic
def report_table(*, table: GameTable, by_user, order: list[int]) -> GameTable:
    """Record a table's result: `order` is the winner's registration id, or every player's
    in finishing order (winner first) when the event keeps the full order (a house rule,
    then required). A seated player may report once; staff may report or correct at any
    time before the night is finished. Writes each `Seat.finish` and who reported when.
    Raises `not-allowed`, `result-final`, `invalid-result`, `result-incomplete`."""
    # The event first, then the table: the one lock order of this app (seating and
    # finishing take the event row too, so no result lands in a night being finished).
    event = _lock_night(table.sitting.event)
    table = GameTable.objects.select_for_update().select_related("sitting").get(pk=table.pk)
    table.sitting.event = event
    seats = list(table.seats.select_related("registration__player"))
    if not can_report(by_user, table, seats):
        if table.reported and any(
            permissions.owns_registration(by_user, s.registration) for s in seats
        ):
            raise DomainError(
                "result-final",
                _("This table's result is in: ask the staff to correct it."),
                status=409,
            )
        raise DomainError(
            "not-allowed", _("Only the table's players or the staff can report it."), status=403
        )
    rules.check_order([s.registration_id for s in seats], order)
    if event.full_finishing_order and len(order) != len(seats):
        raise DomainError(
            "result-incomplete",
            _("This night keeps every player's finishing place (house rule): give them all."),
        )
    finish = {reg: place for place, reg in enumerate(order, start=1)}
    for seat in seats:
        seat.finish = finish.get(seat.registration_id)
    Seat.objects.bulk_update(seats, ["finish"])
    table.reported_by = by_user if by_user and by_user.is_authenticated else None
    table.reported_at = timezone.now()
    table.save(update_fields=["reported_by", "reported_at"])
    return table


def table_results(event: Event) -> list[rules.TableResult]:
    """Every reported table of the night as `rules.gamenights.TableResult`s."""
    out = []
    for sitting in selectors.sittings(event):
        for table in sitting.tables.all():
            seats = list(table.seats.all())
            if not table.reported:
                continue
            placed = sorted((s for s in seats if s.finish), key=lambda s: s.finish)
            out.append(
                rules.TableResult(
                    tuple(s.registration_id for s in seats),
                    tuple(s.registration_id for s in placed),
                )
            )
    return out


@transaction.atomic
def finish_night(*, event: Event, by_user) -> list[rules.NightPlace]:
    """End the night: every table has its result; places by games won (then by finishing
    positions, with the house rule) go to `league.EventPlacement` with the season's league
    points, the event is finished, and the leaderboard's recompute is queued (by
    `record_placements`, through the outbox). Staff only. Raises `not-allowed`,
    `results-missing`, `not-enough-players` (no game seated)."""
    event = _lock_night(event)
    _require(by_user, event, "manage-event", _("Only the event's staff can finish the night."))
    if not Sitting.objects.filter(event=event).exists():
        raise DomainError(
            "not-enough-players", _("Seat a game before finishing the night."), status=409
        )
    if GameTable.objects.filter(sitting__event=event, reported_at__isnull=True).exists():
        raise DomainError("results-missing", _("Some tables have no winner yet."), status=409)
    places = rules.night_places(table_results(event), full_order=event.full_finishing_order)
    divisions = dict(event.registrations.values_list("pk", "division"))
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    league_services.record_placements(
        event=event, placements=[(p.player, divisions[p.player], p.place) for p in places]
    )
    return places
