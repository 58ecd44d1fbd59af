"""Finding events: search and filters (league, format, date range, status), paginated."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render

from decks.models import Format

from .. import permissions, selectors
from ..forms import EventSearchForm
from ..models import Event, League

PER_PAGE = 20


def event_search(request):
    """Every event the viewer may see, newest first, filtered by the search's fields; 20
    a page."""
    form = EventSearchForm(
        request.GET or None,
        leagues=League.objects.values_list("slug", "name"),
        formats=Format.objects.filter(events__isnull=False).distinct().values_list("key", "name"),
    )
    filters = form.filters() if request.GET else {}
    events = selectors.search_events(
        permissions.visible_events(request.user, Event.objects.all()), **filters
    )
    page = Paginator(events, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "league/events.html",
        {"form": form, "page": page, "query": query.urlencode()},
    )
