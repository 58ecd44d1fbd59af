"""Rounds and pairing: pairing the next round, publishing, the clock and closing (staff),
the pairings by table or by name, and the projector."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from league.models import Event
from league.view_helpers import (
    back,
    get_event,
    is_staff,
    own_registration,
    require_staff,
    require_visible,
    show_error,
)
from rules.errors import DomainError

from .. import selectors, services
from ..models import Match, Round
from ..presenters import division_groups, match_result_text, seconds_left


@login_required
@require_POST
def pair_next_round(request, event_id: int):
    event = get_event(event_id)
    require_staff(request, event)
    try:
        round_ = services.pair_next_round(event=event, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        extra = []
        if round_.rematches:
            extra.append(f"{round_.rematches} rematch{'es' if round_.rematches != 1 else ''}")
        if round_.pair_downs:
            extra.append(f"{round_.pair_downs} pair-down{'s' if round_.pair_downs != 1 else ''}")
        messages.success(
            request,
            f"Round {round_.number} is paired"
            + (f" ({', '.join(extra)})" if extra else "")
            + ": check the pairings, then publish them.",
        )
    return redirect("event-dashboard", event.pk)


ROUND_ACTIONS = {
    "publish": (services.publish_round, "Round {n}: pairings published, players notified."),
    "start-clock": (services.start_clock, "Round {n}: the clock is running."),
    "close": (services.close_round, "Round {n} is closed."),
}


@login_required
@require_POST
def round_action(request, event_id: int, number: int):
    event = get_event(event_id)
    require_staff(request, event)
    round_ = get_object_or_404(Round, event=event, number=number)
    action = ROUND_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        return HttpResponseBadRequest("Unknown round action.")
    service, done = action
    try:
        service(round_=round_, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(request, done.format(n=round_.number))
        if Event.objects.filter(pk=event.pk, status=Event.Status.FINISHED).exists() and (
            event.status != Event.Status.FINISHED
        ):
            messages.success(request, f"{event.name} is finished: league points are being awarded.")
    return back(request, "event-dashboard", event.pk)


def _round(request, event: Event, number: int) -> Round:
    require_visible(request, event)
    round_ = get_object_or_404(Round, event=event, number=number)
    if not round_.is_public and not is_staff(request, event):
        raise Http404("This round is not published yet.")
    round_.event = event
    return round_


def _round_matches(round_: Round) -> list[Match]:
    return list(
        round_.matches.select_related("player_a__player", "player_b__player").order_by(
            "division", "table"
        )
    )


def round_pairings(request, event_id: int, number: int):
    """By table (the default): table, player A (points), player B (points), result. By name
    (`?by=name`): every player alphabetically with table, opponent and result, as players
    look for themselves on the wall."""
    event = get_event(event_id)
    round_ = _round(request, event, number)
    matches = _round_matches(round_)
    points = selectors.points_before(event, round_.number)
    mine = own_registration(request.user, event)
    rows = [
        {
            "match": m,
            "a_points": points[m.player_a_id],
            "b_points": points[m.player_b_id] if m.player_b_id else None,
            "result": match_result_text(m),
            "mine": mine is not None and mine.pk in (m.player_a_id, m.player_b_id),
        }
        for m in matches
    ]
    by_name = request.GET.get("by") == "name"
    if by_name:
        rows = _pairings_by_name(rows, mine.pk if mine else None)
    return render(
        request,
        "matches/round_pairings.html",
        {
            "event": event,
            "round": round_,
            "by_name": by_name,
            "groups": division_groups(event, rows, key=lambda r: r["match"].division),
            "staff": is_staff(request, event),
            "rounds": _round_numbers(request, event),
        },
    )


def _pairings_by_name(rows: list[dict], mine: int | None) -> list[dict]:
    """One entry per player (name, points, table, opponent, result), alphabetical."""
    entries = []
    for row in rows:
        m = row["match"]
        sides = [(m.player_a, row["a_points"], m.player_b, row["b_points"])]
        if m.player_b_id:
            sides.append((m.player_b, row["b_points"], m.player_a, row["a_points"]))
        for player, player_points, opponent, opponent_points in sides:
            entries.append(
                {
                    "match": m,
                    "name": player.player.name,
                    "points": player_points,
                    "opponent": opponent.player.name if opponent else None,
                    "opponent_points": opponent_points,
                    "result": row["result"],
                    "mine": player.pk == mine,
                }
            )
    entries.sort(key=lambda e: (e["name"].casefold(), e["match"].table))
    return entries


def _round_numbers(request, event: Event) -> list[int]:
    rounds = selectors.visible_rounds(event, staff=is_staff(request, event))
    return list(rounds.order_by("number").values_list("number", flat=True))


def round_projector(request, event_id: int, number: int):
    """For the wall: every player by name with table and opponent, refreshed every 30 s."""
    event = get_event(event_id)
    round_ = _round(request, event, number)
    entries = []
    for m in _round_matches(round_):
        a = m.player_a.player.name
        b = m.player_b.player.name if m.player_b_id else None
        entries.append({"name": a, "table": m.table, "opponent": b, "division": m.division})
        if b is not None:
            entries.append({"name": b, "table": m.table, "opponent": a, "division": m.division})
    entries.sort(key=lambda e: (e["name"].casefold(), e["table"]))
    remaining = seconds_left(round_)
    return render(
        request,
        "matches/projector.html",
        {
            "event": event,
            "round": round_,
            "groups": division_groups(event, entries, key=lambda e: e["division"]),
            "remaining": remaining,
        },
    )
