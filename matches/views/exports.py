"""Organiser exports: the standings as CSV, the whole event as JSON, and the printable
decklists (PDF). What they write is built in `matches.export` and `decks.printing`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _

from decks.printing import deck_sheet, decklists_pdf
from decks.services import card_index
from league import permissions
from league.view_helpers import (
    can,
    get_event,
    get_registration,
    is_staff,
    printed_in_event_language,
    require,
    require_visible,
)

from .. import selectors
from ..export import export_event, write_standings_csv
from .events import chosen_snapshot


def event_standings_csv(request, event_id: int):
    """The standings as CSV (`?round=N` for an older round): public once published, staff
    also get the live ones. Play! Pokémon IDs only for staff and on the player's own row. UTF-8 with a byte-order mark, so spreadsheets read accents."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    snapshot = chosen_snapshot(request, event, staff)
    if snapshot is None:
        raise Http404(_("No standings yet."))
    name = f"{event.slug}-standings-round-{snapshot.round_number}"
    name += f"-v{snapshot.version}" if snapshot.version > 1 else ""
    name += "" if snapshot.published else "-live"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    rows = selectors.standings_rows_for(request.user, event, snapshot.rows, staff=staff)
    write_standings_csv(snapshot, response, rows=rows)
    return response


@login_required
def event_export_json(request, event_id: int):
    """Staff: the whole event as one JSON document (`matches.export.export_event`)."""
    event = get_event(event_id)
    require(request, event, "view-private")
    data = export_event(event, all_lists=permissions.can_view_all_decklists(request.user, event))
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-export.json"'
    return response


@login_required
@printed_in_event_language
def event_decklists_pdf(request, event_id: int):
    """Staff who check decks: every player's latest list as a deck registration sheet,
    one page each."""
    event = get_event(event_id)
    require(request, event, "deck-checks")
    submissions = selectors.latest_deck_submissions(event)
    if not submissions:
        messages.info(request, _("No decklists submitted yet: there is nothing to print."))
        return redirect("event-dashboard", event.pk)
    return _sheets_pdf(event, submissions, f"{event.slug}-decklists.pdf")


@login_required
@printed_in_event_language
def deck_sheet_pdf(request, event_id: int, registration_id: int):
    """One player's deck registration sheet: the player prints their own (before the
    event, to hand in), staff who check decks print anyone's."""
    registration = get_registration(event_id, registration_id)
    event = registration.event
    require_visible(request, event)
    if not (
        permissions.owns_registration(request.user, registration)
        or can(request, event, "deck-checks")
    ):
        raise PermissionDenied(_("This is not your deck."))
    submission = registration.deck_submissions.order_by("-version").first()
    if submission is None:
        raise Http404(_("No decklist submitted yet."))
    submission.registration = registration
    name = f"{event.slug}-{registration.player.player_id}-deck-registration.pdf"
    return _sheets_pdf(event, [submission], name)


def _day(value) -> str:
    return dateformat.format(value, "j M Y")


def _sheets_pdf(event, submissions, filename: str) -> HttpResponse:
    index = card_index()
    starts = timezone.localtime(event.starts_at)
    sheets = [
        deck_sheet(
            text=s.text,
            verdict=s.verdict,
            legal=s.legal,
            card_count=s.card_count,
            version=s.version,
            submitted_at=timezone.localtime(s.submitted_at),
            player_name=s.registration.player.name,
            player_id=s.registration.player.player_id,
            division=s.registration.get_division_display(),
            index=index,
            birth_date=_day(s.registration.player.birth_date),
            event_date=_day(starts),
        )
        for s in submissions
    ]
    pdf = decklists_pdf(
        sheets, event_name=event.name, subtitle=f"{event.format.name} · {_day(starts)}"
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
