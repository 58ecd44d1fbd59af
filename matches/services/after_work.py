"""A player's report, after the request: its notices, webhook and standings request.

`report_result` records one batched outbox row for what a report leaves for later
(`notifications.batches`, task `matches.after_reports`), in the report's transaction:

- `["reported", match_id, side, report_id]`: the opponent is asked to confirm (while the
  match still waits for them);
- `["disputed", match_id, report_id]`: the staff are told of the dispute;
- `["final", match_id, change_id]`: both reports agree: the `result-final` webhook (while
  that change is still the match's latest: a later staff correction sends its own) and the
  standings request of the match's Swiss round.

The webhook therefore leaves a moment after the report, with the match as the worker reads
it; a round closed at once may announce its standings before the last of its
`result-final`s.

The worker does a batch of them in one transaction (`after_reports`): one query for the
matches, one notification write for all the notices, the webhook subscription asked once
per event, one standings request per event. Every part is keyed or coalesced, and the
batch commits with its rows marked done, so it is done once.
"""

from __future__ import annotations

from django.db.models import Max

from notifications import batches
from notifications.services import notify

from .. import notify as match_notify
from .. import webhook_events
from ..models import Match, ResultChange, Round
from .standings import request_standings

TASK = "matches.after_reports"


def record(*item) -> None:
    """Leave `item` (see the module) to the worker, recorded in this transaction."""
    batches.record(TASK, list(item))


def after_reports(items: list[list]) -> int:
    """Do a batch of reports' after-work (see the module); returns the items done."""
    matches = {
        m.pk: m
        for m in Match.objects.select_related(
            "round__event__season__league", "player_a__player", "player_b__player"
        ).filter(pk__in={item[1] for item in items})
    }
    finals = [item[1] for item in items if item[0] == "final"]
    latest = dict(
        ResultChange.objects.filter(match_id__in=finals)
        .values("match_id")
        .annotate(last=Max("id"))
        .values_list("match_id", "last")
    )
    notices, standings, wanted, done = [], {}, {}, 0
    for kind, match_id, *rest in items:
        match = matches.get(match_id)
        if match is None:
            continue  # the round was undone
        event = match.round.event
        done += 1
        if kind == "reported":
            side, report_id = rest
            if match.status == Match.Status.REPORTED:
                notice = match_notify.result_reported_item(
                    match, reported_by_side=side, report_id=report_id
                )
                if notice is not None:
                    notices.append(notice)
        elif kind == "disputed":
            (report_id,) = rest
            if match.status == Match.Status.DISPUTED:
                match_notify.result_disputed(match, report_id=report_id)
        elif kind == "final":
            (change_id,) = rest
            if latest.get(match_id) == change_id:
                if event.pk not in wanted:
                    wanted[event.pk] = webhook_events.result_final_wanted(event)
                webhook_events.result_final(match, wanted=wanted[event.pk])
            if match.round.stage == Round.Stage.SWISS:
                known = standings.get(event.pk, (event, match.round.number))[1]
                standings[event.pk] = (event, min(known, match.round.number))
    if notices:
        notify(kind="result_reported", items=notices)
    for event, number in standings.values():
        request_standings(event=event, round_number=number)
    return done


def notify_result_reported(*, match_id: int, reported_by_side: str, report_id: int) -> int:
    """Ask the opponent to confirm the report `report_id` (the worker's part of
    `report_result`). Writes one notification, keyed by the report, so a task that runs
    twice tells them once; nothing when the match is no longer waiting for them (they
    confirmed, disputed, or staff entered the result first)."""
    match = (
        Match.objects.select_related("round__event", "player_a__player", "player_b__player")
        .filter(pk=match_id, status=Match.Status.REPORTED)
        .first()
    )
    if match is None:
        return 0
    return match_notify.result_reported(
        match, reported_by_side=reported_by_side, report_id=report_id
    )
