"""The board-game night's pages: the night (who sits where, results, places; staff seat
the next game and finish the night) and a table's report form, both made for a phone."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Event, EventPlacement, Registration
from league.view_helpers import get_event, is_staff, own_registration, require_visible, show_error
from rules.errors import DomainError

from . import selectors, services
from .forms import TableReportForm
from .models import GameTable


def _night(request, event_id: int) -> Event:
    event = get_event(event_id)
    require_visible(request, event)
    if not event.is_board_game:
        raise Http404(_("Not a board-game night."))
    return event


def night(request, event_id: int):
    """The night: details, your registration, every game's tables (yours marked) and
    results, and the final places once it is finished."""
    event = _night(request, event_id)
    staff = is_staff(request, event)
    registration = own_registration(request.user, event)
    sittings = list(selectors.sittings(event))
    mine = registration.pk if registration else None
    for sitting in sittings:
        for table in sitting.tables.all():
            table.players = list(table.seats.all())
            table.is_mine = any(s.registration_id == mine for s in table.players)
            table.winners = [s for s in table.players if s.finish == 1]
    current = sittings[-1] if sittings else None
    open_tables = current and any(not t.reported for t in current.tables.all())
    placements = []
    if event.status == Event.Status.FINISHED:
        placements = list(
            EventPlacement.objects.filter(event=event)
            .select_related("registration__player")
            .order_by("place", "registration__player__name")
        )
    player = getattr(request.user, "player", None) if request.user.is_authenticated else None
    return render(
        request,
        "gamenights/night.html",
        {
            "event": event,
            "staff": staff,
            "registration": registration,
            "mine": mine,
            "sittings": sittings,
            "current": current,
            "open_tables": open_tables,
            "placements": placements,
            "players": Registration.objects.filter(
                event=event, status__in=selectors.ACTIVE
            ).count(),
            "can_register": bool(player)
            and event.status in (Event.Status.REGISTRATION, Event.Status.RUNNING)
            and (registration is None or registration.status == Registration.Status.WITHDRAWN),
            "can_drop": registration is not None and registration.is_active and not sittings,
        },
    )


@login_required
@require_POST
def night_seat(request, event_id: int):
    """Staff: seat the next game at random."""
    event = _night(request, event_id)
    try:
        sitting = services.seat_next_game(event=event, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        sizes = ", ".join(str(t.seats.count()) for t in sitting.tables.all())
        messages.success(
            request,
            _("Game %(number)s seated: tables of %(sizes)s.")
            % {"number": sitting.number, "sizes": sizes},
        )
    return redirect("gamenight", event.pk)


@login_required
@require_POST
def night_finish(request, event_id: int):
    """Staff: finish the night and award league points."""
    event = _night(request, event_id)
    try:
        services.finish_night(event=event, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(request, _("Night finished: places and league points recorded."))
    return redirect("gamenight", event.pk)


@login_required
def table_report(request, table_id: int):
    """A table's result, from a phone: the winner (or, with the house rule, every place).
    Staff and the table's players."""
    table = get_object_or_404(
        GameTable.objects.select_related("sitting__event__season__league"), pk=table_id
    )
    event = table.sitting.event
    require_visible(request, event)
    seats = list(table.seats.select_related("registration__player").order_by("seat"))
    allowed = services.can_report(request.user, table, seats)
    form = TableReportForm(request.POST or None, seats=seats, full_order=event.full_finishing_order)
    if request.method == "POST" and form.is_valid():  # the service checks who may report
        try:
            services.report_table(table=table, by_user=request.user, order=form.order())
        except DomainError as exc:
            show_error(request, exc, form=form)
        else:
            messages.success(
                request,
                _("Game %(game)s, table %(table)s: result saved.")
                % {"game": table.sitting.number, "table": table.number},
            )
            return redirect("gamenight", event.pk)
    return render(
        request,
        "gamenights/table_report.html",
        {
            "event": event,
            "table": table,
            "seats": seats,
            "form": form,
            "can_report": allowed,
        },
    )
