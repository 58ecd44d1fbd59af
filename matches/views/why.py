""" "Why am I 9th?": a player's standing worked out from the published standings: each
opponent with their record and win rate, the floor and the cap as applied, and how OWP and
OOWP were reached (`rules.explain`)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from league.models import Registration
from league.selectors import with_public_names
from league.view_helpers import get_event, is_staff, require_visible
from rules.explain import explain

from .. import selectors, services
from ..models import Match
from ..presenters import percent
from .events import chosen_snapshot


def standing_why(request, event_id: int, registration_id: int):
    """One player's row of the standings the viewer may see (`?round=N`), explained."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    snapshot = chosen_snapshot(request, event, staff)
    rows = snapshot.rows if snapshot is not None else []
    if not staff:  # a minor by first name and initial
        rows = with_public_names(rows)
    row = next((r for r in rows if r["registration"] == registration_id), None)
    if row is None:
        raise Http404(_("This player has no standing yet."))
    through = snapshot.round_number
    results = [
        (number, str(a), str(b) if b else None, result)
        for number, a, b, result in selectors.swiss_matches(event, through_round=through)
        .filter(status=Match.Status.FINAL)
        .values_list("round__number", "player_a_id", "player_b_id", "result")
    ]
    last_swiss = services.event_structure(event)[0]
    dropped_early = {
        str(pk)
        for pk, after in Registration.objects.filter(
            event=event, dropped_after_round__isnull=False
        ).values_list("pk", "dropped_after_round")
        if after < last_swiss and after <= through
    }
    owp_of = {str(r["registration"]): r["owp"] for r in rows}
    names = {str(r["registration"]): r["player"] for r in rows}
    why = explain(str(registration_id), results, dropped_early=dropped_early, owp_of=owp_of)
    lines = [
        {
            "line": x,
            "name": names.get(x.opponent, "?"),
            "rate": percent(x.win_rate),
            "applied": percent(x.applied),
            "owp": percent(x.owp) if x.owp is not None else "–",
        }
        for x in why.opponents
    ]
    above = [
        r for r in rows if r.get("division") == row.get("division") and r["rank"] < row["rank"]
    ]
    return render(
        request,
        "matches/standing_why.html",
        {
            "event": event,
            "snapshot": snapshot,
            "row": row,
            "lines": lines,
            "why": why,
            "owp": percent(why.owp),
            "oowp": percent(why.oowp),
            "owp_listed": percent(row["owp"]),
            "oowp_listed": percent(row["oowp"]),
            "owp_agrees": abs(float(why.owp) - row["owp"]) < 0.00005,
            "oowp_agrees": abs(float(why.oowp) - row["oowp"]) < 0.00005,
            "floor": percent(why.floor),
            "cap": percent(why.cap),
            "neighbours": [r for r in above if r["points"] == row["points"]][-3:],
        },
    )
