"""The event's roster: who is registered, with division, and the waiting list's count."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import render

from .. import permissions, selectors
from ..models import Registration
from ..view_helpers import get_event, require_visible


def event_roster(request, event_id: int):
    """The registered players' public names and divisions, before and during the event;
    the staff only when the league hides rosters."""
    event = get_event(event_id)
    require_visible(request, event)
    if not permissions.can_view_roster(request.user, event):
        raise PermissionDenied("This league shows its rosters to its staff only.")
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
