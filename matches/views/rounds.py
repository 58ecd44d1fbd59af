"""Rounds and pairing: pairing the next round, publishing, the clock and closing (staff),
the pairings by table or by name, and the projector."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from league.models import Event, Registration
from league.public_record import public_name
from league.view_helpers import (
    back,
    get_event,
    is_staff,
    own_registration,
    require,
    require_visible,
    show_error,
)
from notifications.services import request_unread_count
from rules.errors import DomainError

from .. import page_cache, selectors, services
from ..models import Match, Round
from ..presenters import division_groups, match_result_text, overtime, seconds_left


@login_required
@require_POST
def pair_next_round(request, event_id: int):
    event = get_event(event_id)
    require(request, event, "pair-rounds")
    try:
        round_ = services.pair_next_round(event=event, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        extra = []
        if n := round_.rematches:
            extra.append(ngettext("%(count)s rematch", "%(count)s rematches", n) % {"count": n})
        if n := round_.pair_downs:
            extra.append(ngettext("%(count)s pair-down", "%(count)s pair-downs", n) % {"count": n})
        params = {"number": round_.number, "details": ", ".join(extra)}
        if extra:
            text = _(
                "Round %(number)s is paired (%(details)s): check the pairings, then publish them."
            )
        else:
            text = _("Round %(number)s is paired: check the pairings, then publish them.")
        messages.success(request, text % params)
    return redirect("event-dashboard", event.pk)


ROUND_ACTIONS = {
    "publish": (
        services.publish_round,
        gettext_lazy("Round %(number)s: pairings published; the e-mails to players are below."),
    ),
    "start-clock": (services.start_clock, gettext_lazy("Round %(number)s: the clock is running.")),
    "close": (services.close_round, gettext_lazy("Round %(number)s is closed.")),
}


@login_required
@require_POST
def round_action(request, event_id: int, number: int):
    event = get_event(event_id)
    require(request, event, "pair-rounds")
    round_ = get_object_or_404(Round, event=event, number=number)
    action = ROUND_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        return HttpResponseBadRequest(_("Unknown round action."))
    service, done = action
    try:
        service(round_=round_, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(request, done % {"number": round_.number})
        if Event.objects.filter(pk=event.pk, status=Event.Status.FINISHED).exists() and (
            event.status != Event.Status.FINISHED
        ):
            messages.success(
                request,
                _("%(event)s is finished: league points are being awarded.")
                % {"event": event.name},
            )
    return back(request, "event-dashboard", event.pk)


def _round(request, event: Event, number: int) -> Round:
    require_visible(request, event)
    round_ = get_object_or_404(Round, event=event, number=number)
    round_.event = event
    if not selectors.can_view_round(request.user, round_, staff=is_staff(request, event)):
        raise Http404(_("This round is not published yet."))
    return round_


def _round_matches(round_: Round) -> list[Match]:
    return list(
        round_.matches.select_related("player_a__player", "player_b__player").order_by(
            "division", "table"
        )
    )


def _pairing_rows(event: Event, round_: Round, find: str = "") -> list[dict]:
    if find:
        query = Q()
        for side in ("player_a__player", "player_b__player"):
            query |= Q(**{f"{side}__name__icontains": find}) | Q(**{f"{side}__player_id": find})
        matches = list(
            round_.matches.filter(query)
            .select_related("player_a__player", "player_b__player")
            .order_by("division", "table")[:FIND_LIMIT]
        )
    else:
        matches = _round_matches(round_)
    points = selectors.points_before(event, round_.number)
    return [
        {
            "match": m,
            "a_points": points[m.player_a_id],
            "b_points": points[m.player_b_id] if m.player_b_id else None,
            "result": match_result_text(m),
        }
        for m in matches
    ]


#: "Find my table" answers with at most this many pairings (a common first name).
FIND_LIMIT = 40


def _divisions_of(groups: list[dict]) -> list[tuple[str, str]]:
    return [(g["division"], g["name"]) for g in groups if g["division"]]


def _pairings_html(event: Event, round_: Round, *, by_name: bool, division: str,
                   find: str = "") -> tuple[str, list[tuple[str, str]]]:  # fmt: skip
    """The pairings list (every viewer sees the same) and the divisions it has."""
    rows = _pairing_rows(event, round_, find)
    if by_name or find:
        rows = _pairings_by_name(rows)
    if find:
        rows = [e for e in rows if _found(e, find)]
    # A search that finds nobody says so (`find` is matched on the public name and the ID).
    groups = division_groups(event, rows, key=lambda r: r["match"].division) if rows else []
    divisions = _divisions_of(groups)
    if division:
        groups = [g for g in groups if g["division"] == division]
    html = render_to_string(
        "matches/_pairings_list.html",
        {"event": event, "round": round_, "by_name": by_name or bool(find), "groups": groups,
         "find": find},
    )  # fmt: skip
    return html, divisions


def _found(entry: dict, find: str) -> bool:
    """`find` is a player ID (exactly) or part of a name (any case)."""
    return find.casefold() in entry["name"].casefold() or find == entry["player_id"]


def round_pairings(request, event_id: int, number: int):
    """By table (the default): table, player A (points), player B (points), result. By name
    (`?by=name`): every player alphabetically with table, opponent and result, as players
    look for themselves on the wall. `?division=` shows one division; `?find=` a name or
    player ID answers with that player's pairing only.

    The list is built once per version of the event and served from the shared cache
    (`matches.page_cache`); the viewer's own row is marked with a style rule, so the list
    is the same for everyone. Answers 304 to a phone whose copy is current."""
    event = get_event(event_id)
    round_ = _round(request, event, number)
    staff = is_staff(request, event)
    by_name = request.GET.get("by") == "name"
    division = request.GET.get("division", "")[:20]
    find = request.GET.get("find", "").strip()[:60]
    user_id = request.user.pk or 0
    tag = page_cache.etag(event.pk, "pairings", number, by_name, division, find, user_id,
                          staff, request_unread_count(request))  # fmt: skip
    not_modified = get_conditional_response(request, etag=tag)
    if not_modified is not None:
        return not_modified
    if staff or find:
        html, divisions = _pairings_html(event, round_, by_name=by_name, division=division,
                                         find=find)  # fmt: skip
    else:
        html, divisions = page_cache.cached(
            event.pk, f"pairings:{number}:{int(by_name)}:{division}",
            lambda: _pairings_html(event, round_, by_name=by_name, division=division),
        )  # fmt: skip
    mine, my_match = _mine_and_my_match(request.user, event, round_)
    response = render(
        request,
        "matches/round_pairings.html",
        {
            "event": event,
            "round": round_,
            "by_name": by_name,
            "pairings": mark_safe(html),  # rendered by our own template, escaped there
            "divisions": divisions,
            "division": division,
            "find": find,
            "mine": mine,
            "my_match": my_match,
            "staff": staff,
            "rounds": _round_numbers(request, event),
        },
    )
    response["ETag"] = f'"{tag}"'
    response["Cache-Control"] = "private, no-cache"
    return response


def _mine_and_my_match(user, event: Event, round_: Round):
    """The viewer's registration and their match of `round_` (one query when they play it)."""
    if not user.is_authenticated:
        return None, None
    registrations = Registration.objects.filter(event=event, player__user=user).values("pk")
    match = (
        round_.matches.filter(Q(player_a__in=registrations) | Q(player_b__in=registrations))
        .select_related("player_a__player", "player_b__player")
        .first()
    )
    if match is None:
        return own_registration(user, event), None
    mine = match.player_a if match.player_a.player.user_id == user.pk else match.player_b
    return mine, match


def _pairings_by_name(rows: list[dict]) -> list[dict]:
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
                    "registration": player.pk,
                    "name": public_name(player.player),
                    "player_id": player.player.player_id,
                    "points": player_points,
                    "opponent": public_name(opponent.player) if opponent else None,
                    "opponent_points": opponent_points,
                    "result": row["result"],
                }
            )
    entries.sort(key=lambda e: (e["name"].casefold(), e["match"].table))
    return entries


def _round_numbers(request, event: Event) -> list[int]:
    staff = is_staff(request, event)

    def numbers() -> list[int]:
        rounds = selectors.visible_rounds(event, staff=staff)
        return list(rounds.order_by("number").values_list("number", flat=True))

    # What every viewer sees is kept with the event's pages (a published round bumps it).
    return numbers() if staff else page_cache.cached(event.pk, "round-numbers", numbers)


def _projector_html(event: Event, round_: Round) -> str:
    entries = []
    for m in _round_matches(round_):
        a = public_name(m.player_a.player)
        b = public_name(m.player_b.player) if m.player_b_id else None
        extra = m.extra_minutes
        mark = seat_mark(event, m)
        entries.append({"name": a, "table": m.table, "opponent": b, "division": m.division,
                        "extra": extra, "mark": mark})  # fmt: skip
        if b is not None:
            entries.append({"name": b, "table": m.table, "opponent": a, "division": m.division,
                            "extra": extra, "mark": mark})  # fmt: skip
    entries.sort(key=lambda e: (e["name"].casefold(), e["table"]))
    groups = division_groups(event, entries, key=lambda e: e["division"])
    return render_to_string("matches/_projector_list.html", {"groups": groups})


def seat_mark(event: Event, m: Match) -> str:
    """ "feature" for a feature table, "fixed" for a player's fixed table (accessibility)."""
    if m.table in (event.feature_tables or []):
        return "feature"
    fixed = {m.player_a.fixed_table, m.player_b.fixed_table if m.player_b else None}
    return "fixed" if m.table in fixed else ""


def round_projector(request, event_id: int, number: int):
    """For the wall: every player by name with table and opponent, refreshed every 30 s
    (the list from the shared cache, the clock per request)."""
    event = get_event(event_id)
    round_ = _round(request, event, number)
    if is_staff(request, event):
        html = _projector_html(event, round_)
    else:
        html = page_cache.cached(
            event.pk, f"projector:{number}", lambda: _projector_html(event, round_)
        )
    ot = overtime(round_)
    return render(
        request,
        "matches/projector.html",
        {
            "event": event,
            "round": round_,
            "players": mark_safe(html),  # rendered by our own template, escaped there
            "remaining": seconds_left(round_),
            "ends_at_ms": int(round_.ends_at.timestamp() * 1000) if round_.ends_at else None,
            "overtime": ot,
            # The overtime clock from the moment time is called (the page is one body for
            # every minute: the wall's clock counts from the round's end).
            "overtime_total": ot["minutes"] * 60 if ot else None,
        },
    )
