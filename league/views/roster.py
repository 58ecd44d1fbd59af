"""The event's roster: who is registered, with division, and the waiting list's count."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules.errors import DomainError

from .. import permissions, selectors
from ..models import League, Registration
from ..services import calendar as services
from ..view_helpers import get_event, require_visible, show_error


def event_roster(request, event_id: int):
    """The registered players' public names and divisions, before and during the event;
    the staff only when the league hides rosters."""
    event = get_event(event_id)
    require_visible(request, event)
    if not permissions.can_view_roster(request.user, event):
        raise PermissionDenied(_("This league shows its rosters to its staff only."))
    counts = selectors.registration_counts(event)
    return render(
        request,
        "league/roster.html",
        {
            "event": event,
            "rows": selectors.roster(event),
            "waitlist_count": counts.get(Registration.Status.WAITLISTED, 0),
            "active_count": counts["active"],
        },
    )


@login_required
@require_POST
def league_roster_setting(request, slug: str):
    """League organisers: show the league's rosters to everyone, or to the staff only."""
    league = get_object_or_404(League, slug=slug)
    try:
        services.set_roster_public(
            league=league, by_user=request.user, public=request.POST.get("public") == "1"
        )
    except DomainError as exc:
        show_error(request, exc)
        return redirect("league-detail", league.slug)
    messages.success(
        request,
        _("Rosters are public.") if league.roster_public else _("Rosters are shown to staff only."),
    )
    return redirect("league-detail", league.slug)
