"""The stream overlay (an OBS browser source) and the staff's stream page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.params import parse_number
from league.view_helpers import get_event, require, require_visible, show_error
from rules.errors import DomainError

from .. import selectors, services


def _table(request) -> int | None:
    raw = request.GET.get("table", "")
    if not raw:
        return None
    if (table := parse_number(raw, lo=1, hi=99999)) is None:
        raise Http404(_("No such table."))
    return table


def event_overlay(request, event_id: int):
    """The overlay for `?table=N`, or the feature match. Rendered once with the data, then
    `static/insights/overlay.js` fetches the JSON feed every few seconds and patches the
    text in place (no reload, so OBS never flashes)."""
    event = get_event(event_id)
    require_visible(request, event)
    table = _table(request)
    feed = reverse("api:api-event-overlay", args=[event.pk])
    if table is not None:
        feed += f"?table={table}"
    data = selectors.overlay_data(event, table)
    return render(request, "insights/overlay.html", {"event": event, "data": data, "feed": feed})


@login_required
@require_http_methods(["GET", "POST"])
def event_stream(request, event_id: int):
    """Staff: choose the feature match, and find the overlay's and the feed's addresses."""
    event = get_event(event_id)
    require(request, event, "manage-event")
    if request.method == "POST":
        raw = request.POST.get("table", "").strip()
        try:
            table = parse_number(raw, lo=1, hi=99999)
            if raw and table is None:
                raise DomainError("table-invalid", _("A table number is 1 or more."))
            services.set_feature_table(user=request.user, event=event, table=table)
        except DomainError as exc:
            show_error(request, exc)
        else:
            messages.success(
                request,
                _("Feature match: table %(table)s.") % {"table": raw}
                if raw
                else _("No feature match."),
            )
        return redirect("event-stream", event.pk)
    overlay = request.build_absolute_uri(reverse("event-overlay", args=[event.pk]))
    feed = request.build_absolute_uri(reverse("api:api-event-overlay", args=[event.pk]))
    return render(
        request,
        "insights/stream.html",
        {
            "event": event,
            "feature_table": selectors.feature_table(event),
            "overlay_url": overlay,
            "feed_url": feed,
            "data": selectors.overlay_data(event, None),
        },
    )
