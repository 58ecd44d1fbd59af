"""A finished event's final results: places after the top cut, records, points, and each
player's archetype with a link to the list once the event's decklist phase opens it."""

from __future__ import annotations

from itertools import groupby

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from league.models import Division
from league.view_helpers import get_event, require_visible

from .. import selectors

NAMES = dict(Division.choices)


def event_results(request, event_id: int):
    """The final results (`selectors.results_with_decks`), by division where places are
    numbered within each division; 404 before the event is finished."""
    event = get_event(event_id)
    require_visible(request, event)
    rows = selectors.results_with_decks(event)
    if not rows:
        raise Http404(_("The event is not finished yet: no final results."))
    if len({r["place"] for r in rows}) < len(rows):  # places numbered within each division
        groups = [
            {"name": NAMES.get(d, d), "items": list(items)}
            for d, items in groupby(rows, key=lambda r: r["division"])
        ]
    else:
        groups = [{"name": "", "items": rows}]
    return render(
        request,
        "insights/results.html",
        {"event": event, "groups": groups, "any_deck": any(r["deck"] for r in rows)},
    )
