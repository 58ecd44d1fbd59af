"""Organiser exports: the standings as CSV, the whole event as JSON, and the printable
decklists (PDF). What they write is built in `matches.export` and `decks.printing`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils import dateformat, timezone

from decks.printing import deck_sheet, decklists_pdf
from decks.services import card_index
from league.view_helpers import get_event, is_staff, require, require_visible

from .. import selectors
from ..export import export_event, write_standings_csv
from .events import chosen_snapshot


def event_standings_csv(request, event_id: int):
    """The standings as CSV (`?round=N` for an older round): public once published, staff
    also get the live ones. UTF-8 with a byte-order mark, so spreadsheets read accents."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    snapshot = chosen_snapshot(request, event, staff)
    if snapshot is None:
        raise Http404("No standings yet.")
    name = f"{event.slug}-standings-round-{snapshot.round_number}"
    name += f"-v{snapshot.version}" if snapshot.version > 1 else ""
    name += "" if snapshot.published else "-live"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    write_standings_csv(snapshot, response)
    return response


@login_required
def event_export_json(request, event_id: int):
    """Staff: the whole event as one JSON document (`matches.export.export_event`)."""
    event = get_event(event_id)
    require(request, event, "view-private")
    response = JsonResponse(
        export_event(event), json_dumps_params={"ensure_ascii": False, "indent": 2}
    )
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-export.json"'
    return response


@login_required
def event_decklists_pdf(request, event_id: int):
    """Staff: every player's latest list as a printable sheet, one page each."""
    event = get_event(event_id)
    require(request, event, "deck-checks")
    submissions = selectors.latest_deck_submissions(event)
    if not submissions:
        messages.info(request, "No decklists submitted yet: there is nothing to print.")
        return redirect("event-dashboard", event.pk)
    index = card_index()
    sheets = [
        deck_sheet(
            text=s.text, verdict=s.verdict, legal=s.legal, card_count=s.card_count,
            version=s.version, submitted_at=timezone.localtime(s.submitted_at),
            player_name=s.registration.player.name, player_id=s.registration.player.player_id,
            division=s.registration.get_division_display(), index=index,
        )
        for s in submissions
    ]  # fmt: skip
    pdf = decklists_pdf(
        sheets,
        event_name=event.name,
        subtitle=f"{event.format.name} · {dateformat.format(timezone.localtime(event.starts_at), 'j M Y')}",
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{event.slug}-decklists.pdf"'
    return response
