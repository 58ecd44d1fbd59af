"""The judges' floor page of an event (open calls with table, age and who took them, the
tables with a time extension, a random deck-check pick, the event's penalties) and the
player's "call a judge"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from league import permissions
from league.view_helpers import get_event, require_visible, show_error
from matches.models import Match, Round
from rules.errors import DomainError

from .. import selectors, services
from ..forms import CloseCallForm, PickTablesForm
from ..models import JudgeCall


def _require_judge(request, event, action: str = "judge-calls") -> None:
    require_visible(request, event)
    if not permissions.can(request.user, event, action):
        raise PermissionDenied(_("Only the event's judges can see this page."))


def _age(since, now) -> str:
    seconds = max(0, int((now - since).total_seconds()))
    if seconds < 60:
        return pgettext("age", "%(seconds)s s") % {"seconds": seconds}
    if seconds < 3600:
        return pgettext("age", "%(minutes)s min") % {"minutes": seconds // 60}
    return pgettext("age", "%(hours)s h %(minutes)s min") % {
        "hours": seconds // 3600,
        "minutes": seconds % 3600 // 60,
    }


@login_required
def floor_queue(request, event_id: int):
    event = get_event(event_id)
    _require_judge(request, event)
    now = timezone.now()
    current = Round.objects.filter(event=event).order_by("-number").first()
    extended = (
        Match.objects.filter(round=current, extra_minutes__gt=0)
        .select_related("round")
        .order_by("division", "table")
        if current
        else Match.objects.none()
    )
    calls = [{"call": c, "age": _age(c.created_at, now)} for c in selectors.open_calls(event)]
    return render(
        request,
        "floor/queue.html",
        {
            "event": event,
            "round": current,
            "calls": calls,
            "closed": selectors.closed_calls(event),
            "extended": extended,
            "penalties": selectors.event_penalties(event).order_by("-created_at")[:30],
            "pick_form": PickTablesForm(),
            "picked": None,
            "close_form": CloseCallForm(),
        },
    )


@login_required
@require_POST
def pick_tables(request, event_id: int):
    """Deck checks: tables picked at random from the current round, shown on the floor page."""
    event = get_event(event_id)
    _require_judge(request, event, "deck-checks")
    form = PickTablesForm(request.POST)
    current = Round.objects.filter(event=event).order_by("-number").first()
    if not form.is_valid() or current is None:
        messages.error(request, _("Choose how many tables to check in a paired round."))
        return redirect("floor-queue", event.pk)
    picked = services.pick_tables(
        round_=current, by_user=request.user, count=form.cleaned_data["count"]
    )
    if picked:
        text = _("Deck checks in round %(round)s: table(s) %(tables)s.") % {
            "round": current.number,
            "tables": ", ".join(str(m.table) for m in picked),
        }
    else:
        text = _("Deck checks in round %(round)s: table(s) none.") % {"round": current.number}
    messages.success(request, text)
    if picked:
        return redirect("floor-deck-check", picked[0].pk)
    return redirect("floor-queue", event.pk)


@login_required
@require_POST
def call_judge(request, match_id: int):
    match = get_object_or_404(Match.objects.select_related("round__event"), pk=match_id)
    require_visible(request, match.round.event)
    try:
        services.call_judge(
            match=match, by_user=request.user, reason=request.POST.get("reason", "")
        )
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(request, _("Your call is with the judges: please wait at your table."))
    return redirect("match-detail", match.pk)


def _call(call_id: int) -> JudgeCall:
    return get_object_or_404(JudgeCall.objects.select_related("event__season__league"), pk=call_id)


@login_required
@require_POST
def call_take(request, call_id: int):
    call = _call(call_id)
    try:
        call = services.take_call(call=call, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(
            request, _("You took the call at table %(table)s.") % {"table": call.match.table}
        )
    return redirect("floor-queue", call.event_id)


@login_required
@require_POST
def call_close(request, call_id: int):
    call = _call(call_id)
    form = CloseCallForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    try:
        services.close_call(call=call, by_user=request.user, note=note)
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(
            request, _("Call at table %(table)s closed.") % {"table": call.match.table}
        )
    return redirect("floor-queue", call.event_id)
