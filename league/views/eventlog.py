"""The event log (staff): every change that is not play, newest first, filtered by kind and
by player (`league.services.eventlog`); and taking back a mistaken drop or check-in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules.errors import DomainError

from .. import services
from ..event_log import EventLogEntry
from ..models import Registration
from ..params import parse_id
from ..services import eventlog
from ..view_helpers import get_event, get_registration, require, show_error, staff_actions

PAGE = 200


@login_required
def event_log(request, event_id: int):
    event = get_event(event_id)
    require(request, event, "view-private")
    kind = request.GET.get("kind", "")
    kind = kind if kind in EventLogEntry.Kind.values else ""
    player = request.GET.get("player", "")
    player = parse_id(player)
    regs = (
        Registration.objects.filter(event=event).select_related("player").order_by("player__name")
    )
    return render(
        request,
        "league/event_log.html",
        {
            "event": event,
            "can": staff_actions(request, event),
            "entries": eventlog.entries(event, kind=kind, registration=player)[:PAGE],
            "kinds": EventLogEntry.Kind.choices,
            "kind": kind,
            "player": player,
            "players": regs,
            "dropped": [r for r in regs if r.status in ("dropped", "withdrawn")],
            "checked_in": [r for r in regs if r.status == "checked_in"],
        },
    )


@login_required
@require_POST
def registration_undo(request, event_id: int, registration_id: int):
    """Undo a drop (`what=drop`) or a check-in (`what=check-in`), with a reason."""
    event = get_event(event_id)
    require(request, event, "pair-rounds")
    registration = get_registration(event_id, registration_id)
    service = (
        services.undo_check_in if request.POST.get("what") == "check-in" else services.undo_drop
    )
    try:
        service(
            registration=registration, by_user=request.user, reason=request.POST.get("reason", "")
        )
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(
            request,
            _("%(player)s: undone, and kept in the log.") % {"player": registration.player.name},
        )
    return redirect("event-log", event.pk)
