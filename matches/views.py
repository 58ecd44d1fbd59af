"""Pages for running an event: the event page, the staff dashboard, pairings (by table or
by name), the projector, standings and matches with their result forms; for organisers the
results grid of a round, the top-cut bracket and the exports (standings CSV, event JSON,
printable decklists).

Views are thin: they load rows (with the joins the hot pages need, since a 64-player round
is rendered on every phone in the room), check who may look with `league.permissions`,
call one service and redirect with a message. Pairings of a round that is not published
yet are staff-only: everyone else gets a 404, as in the API.
"""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from itertools import groupby

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import dateformat, timezone
from django.views.decorators.http import require_POST

from decks.printing import DeckSheet, decklists_pdf, sheet_lines
from decks.services import card_index
from league import services as league_services
from league.models import DeckSubmission, Division, Event, Registration
from league.views import back, get_event, is_staff, own_registration, require_staff, require_visible
from rules.errors import DomainError
from rules.scoring import PLAY_POKEMON

from . import selectors, services
from .export import export_event
from .forms import (
    MAX_SUDDEN_DEATH,
    GridResultForm,
    PlayerGamesForm,
    QuickReportForm,
    StaffResultForm,
)
from .models import Game, Match, ResultChange, Round, StandingsSnapshot

DIVISION_NAMES = dict(Division.choices)


# --- describing results ----------------------------------------------------------------


def names_of(match: Match) -> dict[str, str]:
    return {
        "a": match.player_a.player.name,
        "b": match.player_b.player.name if match.player_b_id else "BYE",
    }


def game_text(game: dict, names: dict[str, str]) -> str:
    """One game of a payload or snapshot in words: `Ash won (no-show)`."""
    outcome = game.get("outcome")
    if outcome in ("a", "b"):
        text = f"{names[outcome]} won"
    else:
        text = {
            "both_won": "both won at once",
            "tie": "unfinished at time",
            "double_loss": "double game loss",
        }.get(outcome, str(outcome))
    reason = game.get("reason") or "played"
    if reason != "played":
        text += (
            f" ({Game.Reason(reason).label.lower()})"
            if reason in Game.Reason.values
            else f" ({reason})"
        )
    return text


def result_summary(snapshot: dict | None, names: dict[str, str]) -> str:
    """A stored result or report (`{"result", "games", "at_time", "intentional_draw"}`)
    in one line: `Ash won, at time: G1 Ash won; G2 sudden death (1 Prize) Misty won`."""
    if not snapshot:
        return "no result"
    result = snapshot.get("result")
    head = {"a": f"{names['a']} won", "b": f"{names['b']} won", "tie": "Tie",
            "double_loss": "Double loss"}.get(result, "Incomplete")  # fmt: skip
    extras = [
        label
        for key, label in (("intentional_draw", "intentional draw"), ("at_time", "at time"))
        if snapshot.get(key)
    ]
    if extras:
        head += " (" + ", ".join(extras) + ")"
    games = []
    for game in snapshot.get("games", []):
        slot = f"G{game.get('number', '?')}"
        if game.get("sequence"):
            prizes = game.get("prizes", 1)
            slot += f" sudden death ({prizes} Prize{'s' if prizes != 1 else ''})"
        games.append(f"{slot} {game_text(game, names)}")
    return head + (": " + "; ".join(games) if games else "")


def match_result_text(match: Match) -> str:
    """The short result of a pairings row."""
    if match.is_bye:
        return "Bye"
    if match.status != Match.Status.FINAL:
        return {
            Match.Status.PENDING: "",
            Match.Status.REPORTED: "Reported, awaiting confirmation",
            Match.Status.DISPUTED: "Disputed",
        }.get(match.status, "")
    score = f"{match.a_game_wins}–{match.b_game_wins}"
    if match.result == Match.Result.A:
        return f"{match.player_a.player.name} won {score}"
    if match.result == Match.Result.B:  # the winner's game wins first
        return f"{match.player_b.player.name} won {match.b_game_wins}–{match.a_game_wins}"
    if match.result == Match.Result.TIE:
        return "Intentional draw" if match.intentional_draw else f"Tie {score}"
    return "Double loss"


# --- event and dashboard ---------------------------------------------------------------


def event_detail(request, event_id: int):
    """The event: its details, your registration and deck, published rounds, standings."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    registration = own_registration(request.user, event)
    player = getattr(request.user, "player", None) if request.user.is_authenticated else None
    rounds = Round.objects.filter(event=event).order_by("number")
    if not staff:
        rounds = rounds.exclude(status=Round.Status.PAIRED)
    rounds = list(rounds)
    counts = dict(
        Registration.objects.filter(event=event)
        .order_by()
        .values_list("status")
        .annotate(n=Count("id"))
    )
    published_lists = []
    if event.decklists_published:
        published_lists = list(
            Registration.objects.filter(event=event)
            .exclude(status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED))
            .select_related("player")
            .order_by("player__name")
        )
    standings = selectors.visible_standings(event, published_only=not staff)
    swiss_rounds, top_cut = services.event_structure(event)
    return render(
        request,
        "matches/event_detail.html",
        {
            "event": event,
            "staff": staff,
            "registration": registration,
            "player": player,
            "deck": registration.current_deck if registration else None,
            "deck_locked": league_services.deck_locked(event),
            "can_register": bool(player)
            and event.status in (Event.Status.REGISTRATION, Event.Status.RUNNING)
            and (registration is None or registration.status == Registration.Status.WITHDRAWN),
            "can_drop": registration is not None
            and (registration.is_active or registration.status == Registration.Status.WAITLISTED),
            "rounds": rounds,
            "active_count": counts.get(Registration.Status.REGISTERED, 0)
            + counts.get(Registration.Status.CHECKED_IN, 0),
            "waitlist_count": counts.get(Registration.Status.WAITLISTED, 0),
            "has_standings": standings.exists(),
            "published_lists": published_lists,
            "swiss_rounds": swiss_rounds,
            "top_cut": top_cut,
            "has_bracket": any(r.stage == Round.Stage.TOP_CUT and r.is_public for r in rounds)
            or (staff and any(r.stage == Round.Stage.TOP_CUT for r in rounds)),
        },
    )


@login_required
def event_dashboard(request, event_id: int):
    """Staff: registrations with check-in and drop, the waiting list, and the round in
    hand: pair, publish, start the clock, close; results in and missing; disputes."""
    event = get_event(event_id)
    require_staff(request, event)
    registrations = list(
        Registration.objects.filter(event=event).select_related("player").order_by("player__name")
    )
    waiting = sorted(
        (r for r in registrations if r.status == Registration.Status.WAITLISTED),
        key=lambda r: (r.registered_at, r.pk),
    )
    withdrawn = [r for r in registrations if r.status == Registration.Status.WITHDRAWN]
    players = [r for r in registrations if r not in waiting and r not in withdrawn]
    final = Count("matches", filter=Q(matches__status=Match.Status.FINAL))
    rounds = list(
        Round.objects.filter(event=event)
        .annotate(total=Count("matches"), final=final)
        .order_by("number")
    )
    for round_ in rounds:
        round_.missing = round_.total - round_.final
    current = rounds[-1] if rounds else None
    open_matches = []
    if current is not None:
        open_matches = list(
            current.matches.exclude(status=Match.Status.FINAL)
            .select_related("player_a__player", "player_b__player")
            .order_by("division", "table")
        )
    disputed = list(
        Match.objects.filter(round__event=event, status=Match.Status.DISPUTED)
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number", "table")
    )
    swiss_rounds, top_cut = services.event_structure(event)
    return render(
        request,
        "matches/dashboard.html",
        {
            "event": event,
            "players": players,
            "waiting": waiting,
            "withdrawn": withdrawn,
            "checked_in": sum(r.status == Registration.Status.CHECKED_IN for r in players),
            "rounds": rounds,
            "current": current,
            "open_matches": open_matches,
            "disputed": disputed,
            "can_pair": (current is None or current.status == Round.Status.CLOSED)
            and event.status != Event.Status.FINISHED,
            "swiss_rounds": swiss_rounds,
            "top_cut": top_cut,
            "has_top_cut": any(r.stage == Round.Stage.TOP_CUT for r in rounds),
            "has_standings": StandingsSnapshot.objects.filter(event=event).exists(),
        },
    )


@login_required
@require_POST
def pair_next_round(request, event_id: int):
    event = get_event(event_id)
    require_staff(request, event)
    try:
        round_ = services.pair_next_round(event=event, by_user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
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
        messages.error(request, exc.message)
    else:
        messages.success(request, done.format(n=round_.number))
        if Event.objects.filter(pk=event.pk, status=Event.Status.FINISHED).exists() and (
            event.status != Event.Status.FINISHED
        ):
            messages.success(request, f"{event.name} is finished: league points are being awarded.")
    return back(request, "event-dashboard", event.pk)


# --- pairings, projector, standings ----------------------------------------------------


def _round(request, event: Event, number: int) -> Round:
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


def points_before(event: Event, number: int) -> dict[int, int]:
    """Each registration's Swiss match points before round `number` (one query)."""
    rules = PLAY_POKEMON
    points: dict[int, int] = defaultdict(int)
    rows = Match.objects.filter(
        round__event=event,
        round__stage=Round.Stage.SWISS,
        round__number__lt=number,
        status=Match.Status.FINAL,
    ).values_list("player_a_id", "player_b_id", "result")
    for a, b, result in rows:
        if result == Match.Result.A:
            points[a] += rules.win_points
        elif result == Match.Result.B and b is not None:
            points[b] += rules.win_points
        elif result == Match.Result.TIE:
            points[a] += rules.tie_points
            if b is not None:
                points[b] += rules.tie_points
    return points


def _division_groups(event: Event, items, key) -> list[dict]:
    if event.division_mode != Event.DivisionMode.SEPARATE:
        return [{"division": "", "name": "", "items": list(items)}]
    return [
        {"division": d, "name": DIVISION_NAMES.get(d, d), "items": list(group)}
        for d, group in groupby(sorted(items, key=key), key=key)
    ]


def round_pairings(request, event_id: int, number: int):
    """By table (the default): table, player A (points), player B (points), result. By name
    (`?by=name`): every player alphabetically with table, opponent and result, as players
    look for themselves on the wall."""
    event = get_event(event_id)
    round_ = _round(request, event, number)
    matches = _round_matches(round_)
    points = points_before(event, round_.number)
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
            "groups": _division_groups(event, rows, key=lambda r: r["match"].division),
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
    qs = Round.objects.filter(event=event)
    if not is_staff(request, event):
        qs = qs.exclude(status=Round.Status.PAIRED)
    return list(qs.order_by("number").values_list("number", flat=True))


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
    remaining = None
    if round_.status == Round.Status.RUNNING and round_.ends_at:
        remaining = max(0, int((round_.ends_at - timezone.now()).total_seconds()))
    return render(
        request,
        "matches/projector.html",
        {
            "event": event,
            "round": round_,
            "groups": _division_groups(event, entries, key=lambda e: e["division"]),
            "remaining": remaining,
        },
    )


def _percent(value) -> str:
    return f"{float(value or 0) * 100:.2f}%"


def _chosen_snapshot(request, event: Event, staff: bool) -> StandingsSnapshot | None:
    """The latest standings the viewer may see, or those of round `?round=N` (404 when it
    has none)."""
    wanted = request.GET.get("round", "")
    if wanted and not wanted.isdigit():
        raise Http404("No such round.")
    snapshot = selectors.latest_standings(
        event, int(wanted) if wanted else None, published_only=not staff
    )
    if wanted and snapshot is None:
        raise Http404("No standings for that round.")
    return snapshot


def _has_bracket(event: Event, staff: bool) -> bool:
    """Whether the event's top cut is paired (and published, for everyone but staff)."""
    if event.status not in (Event.Status.TOP_CUT, Event.Status.FINISHED):
        return False
    rounds = Round.objects.filter(event=event, stage=Round.Stage.TOP_CUT)
    if not staff:
        rounds = rounds.exclude(status=Round.Status.PAIRED)
    return rounds.exists()


def event_standings(request, event_id: int):
    """The latest published standings (or `?round=N`); staff also see unpublished ones."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    visible = selectors.visible_standings(event, published_only=not staff)
    available = sorted(set(visible.values_list("round_number", flat=True)))
    snapshot = _chosen_snapshot(request, event, staff)
    rows = []
    if snapshot is not None:
        for row in snapshot.rows:
            rows.append(
                {**row, "owp_pct": _percent(row.get("owp")), "oowp_pct": _percent(row.get("oowp"))}
            )
    return render(
        request,
        "matches/standings.html",
        {
            "event": event,
            "staff": staff,
            "snapshot": snapshot,
            "available": available,
            "groups": _division_groups(event, rows, key=lambda r: r.get("division", "")),
            "has_bracket": _has_bracket(event, staff),
        },
    )


# --- matches ---------------------------------------------------------------------------


def _load_match(request, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related(
            "round__event__season__league",
            "round__event__format",
            "player_a__player",
            "player_b__player",
        ),
        pk=match_id,
    )
    if not match.round.is_public and not is_staff(request, match.round.event):
        raise Http404("This round is not published yet.")
    return match


def _side(request, match: Match) -> str | None:
    registration = own_registration(request.user, match.round.event)
    return match.side_of(registration.pk) if registration else None


MAX_ROWS = 12


def _rows(match: Match, data=None) -> int:
    """Game rows on the forms: best of N plus two sudden-death replays, or as many as were
    posted (a staff correction may list a longer chain)."""
    rows = match.round.event.best_of + 2
    if data is not None:
        posted = [int(k[5:]) for k in data if k.startswith("game_") and k[5:].isdigit()]
        rows = max([rows, *posted])
    return min(rows, MAX_ROWS)


def _stored_result(match: Match, games: list[Game]) -> dict:
    return {
        "result": match.result,
        "games": [
            {"number": g.number, "sequence": g.sequence, "outcome": g.outcome, "reason": g.reason,
             "prizes": g.prizes}
            for g in games
        ],
        "at_time": match.ended_at_time,
        "intentional_draw": match.intentional_draw,
    }  # fmt: skip


def _render_match(request, match: Match, *, games_form=None, staff_form=None, status=200):
    event = match.round.event
    staff = is_staff(request, event)
    names = names_of(match)
    side = _side(request, match)
    games = selectors.match_games(match)
    can_report = (
        side is not None
        and not match.is_bye
        and match.round.is_public
        and match.status != Match.Status.FINAL
    )
    reports, my_report, their_report = [], None, None
    if side is not None or staff:
        for report in match.reports.filter(superseded=False).select_related("reported_by"):
            entry = {"report": report, "summary": result_summary(report.payload, names),
                     "name": names[report.side]}  # fmt: skip
            reports.append(entry)
            if report.side == side:
                my_report = entry
            elif side is not None:
                their_report = entry
    sudden_death = request.GET.get("sudden_death", "0")
    sudden_death = min(int(sudden_death), MAX_SUDDEN_DEATH) if sudden_death.isdigit() else 0
    if can_report and games_form is None:
        games_form = PlayerGamesForm(side=side, rows=_rows(match))
    if staff and not match.is_bye and staff_form is None:
        staff_form = StaffResultForm(
            names=names,
            rows=min(max(_rows(match), len(games)), MAX_ROWS),
            initial=StaffResultForm.initial_from(games, match),
        )
    changes = []
    if staff:
        for change in ResultChange.objects.filter(match=match).select_related("changed_by"):
            changes.append(
                {
                    "change": change,
                    "before": result_summary(change.before, names),
                    "after": result_summary(change.after, names),
                }
            )
    return render(
        request,
        "matches/match_detail.html",
        {
            "match": match,
            "event": event,
            "round": match.round,
            "names": names,
            "games": [
                {"game": g, "text": game_text({"outcome": g.outcome, "reason": g.reason}, names)}
                for g in games
            ],
            "result": match_result_text(match) if match.status == Match.Status.FINAL else "",
            "summary": result_summary(_stored_result(match, games), names) if match.result else "",
            "staff": staff,
            "side": side,
            "opponent": names["b" if side == "a" else "a"] if side else None,
            "can_report": can_report,
            "sudden_death": sudden_death,
            "sudden_death_next": sudden_death + 1,
            "sd_prizes": event.sudden_death_prizes,
            "games_form": games_form if can_report else None,
            "staff_form": staff_form,
            "reports": reports,
            "my_report": my_report,
            "their_report": their_report,
            "changes": changes,
        },
        status=status,
    )


def match_detail(request, match_id: int):
    """The match and its games (sudden-death replays under the game they replay); the
    players' report forms; for staff the result form and the change history."""
    return _render_match(request, _load_match(request, match_id))


def _report_message(request, match: Match) -> None:
    if match.status == Match.Status.FINAL:
        messages.success(
            request, f"Both reports agree: {match_result_text(match)}. The result stands."
        )
    elif match.status == Match.Status.DISPUTED:
        messages.warning(
            request, "Your report differs from your opponent's: the staff will decide the result."
        )
    else:
        messages.success(request, "Reported. Your opponent is asked to confirm.")


@login_required
@require_POST
def match_report(request, match_id: int):
    """A player reports their match: one tap (best of 1), game by game, or confirming the
    opponent's report."""
    match = _load_match(request, match_id)
    side = _side(request, match)
    if side is None:
        raise PermissionDenied("You can only report your own match.")
    mode = request.POST.get("mode", "games")
    form = None
    if mode == "confirm":
        other = (
            match.reports.filter(side="b" if side == "a" else "a", superseded=False)
            .order_by("-id")
            .first()
        )
        if other is None:
            messages.error(request, "Your opponent has not reported yet.")
            return redirect("match-detail", match.pk)
        payload = {key: other.payload.get(key) for key in ("games", "at_time", "intentional_draw")}
    elif mode == "quick":
        quick = QuickReportForm(request.POST)
        if not quick.is_valid():
            for error in quick.errors.values():
                messages.error(request, error[0])
            return redirect("match-detail", match.pk)
        payload = quick.payload(side)
    else:
        form = PlayerGamesForm(request.POST, side=side, rows=_rows(match, request.POST))
        if not form.is_valid():
            return _render_match(request, match, games_form=form)
        payload = form.payload()
    try:
        match = services.report_result(match=match, by_user=request.user, payload=payload)
    except DomainError as exc:
        if exc.status == 403:
            raise PermissionDenied(exc.message) from exc
        messages.error(request, exc.message)
        if form is not None:
            return _render_match(request, match, games_form=form)
        return redirect("match-detail", match.pk)
    _report_message(request, match)
    return redirect("match-detail", match.pk)


@login_required
@require_POST
def match_result(request, match_id: int):
    """Staff enter or correct a result, with a note for the history."""
    match = _load_match(request, match_id)
    require_staff(request, match.round.event)
    form = StaffResultForm(request.POST, names=names_of(match), rows=_rows(match, request.POST))
    if not form.is_valid():
        return _render_match(request, match, staff_form=form)
    try:
        match = services.set_result(
            match=match,
            by_user=request.user,
            payload=form.payload(),
            note=form.cleaned_data["note"],
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return _render_match(request, match, staff_form=form)
    messages.success(request, f"Result saved: {match_result_text(match)}.")
    return back(request, "match-detail", match.pk)


# --- organiser pages: results grid, bracket, exports -------------------------------------


#: The results grid's groups, in its order (`selectors.RESULTS_ORDER`), and their names.
GRID_LABELS = {
    Match.Status.DISPUTED: "disputed",
    Match.Status.PENDING: "missing",
    Match.Status.REPORTED: "reported, awaiting confirmation",
    Match.Status.FINAL: "final",
}


@login_required
def round_results(request, event_id: int, number: int):
    """Staff: every match of a round, what needs them first (disputed, missing, reported,
    final), with what each player reported and a compact result form per row."""
    event = get_event(event_id)
    require_staff(request, event)
    round_ = get_object_or_404(Round, event=event, number=number)
    round_.event = event
    rows, counts = [], Counter()
    for m in selectors.round_results(round_):
        counts[m.status] += 1
        names = names_of(m)
        reports = [
            {"side": r.side, "name": names[r.side], "summary": result_summary(r.payload, names)}
            for r in m.open_reports
        ]
        rows.append(
            {"match": m, "names": names, "reports": reports, "result": match_result_text(m)}
        )
    top_cut = round_.stage == Round.Stage.TOP_CUT
    return render(
        request,
        "matches/round_results.html",
        {
            "event": event,
            "round": round_,
            "rows": rows,
            "counts": [(status, GRID_LABELS[status], counts[status]) for status in GRID_LABELS],
            "open_count": sum(counts[s] for s in selectors.RESULTS_ORDER[:-1]),
            "form": GridResultForm(best_of=event.best_of, auto_id=False),
            "quick": [
                (value, label)
                for value, label in GridResultForm.QUICK
                if not (top_cut and value in ("tie", "id"))
            ],
            "rounds": list(
                Round.objects.filter(event=event)
                .order_by("number")
                .values_list("number", flat=True)
            ),
        },
    )


@login_required
@require_POST
def match_quick_result(request, match_id: int):
    """Staff enter a result from the results grid: a quick outcome or the games."""
    match = _load_match(request, match_id)
    event = match.round.event
    require_staff(request, event)
    grid = reverse("round-results", args=[event.pk, match.round.number])
    form = GridResultForm(request.POST, best_of=event.best_of)
    where = f"Table {match.table}" + (f" ({match.division})" if match.division else "")
    if not form.is_valid():
        error = next(iter(form.errors.values()))[0]
        messages.error(request, f"{where}: {error}")
        return redirect(grid)
    try:
        match = services.set_result(
            match=match,
            by_user=request.user,
            payload=form.payload(),
            note=form.cleaned_data["note"],
        )
    except DomainError as exc:
        messages.error(request, f"{where}: {exc.message}")
    else:
        messages.success(request, f"{where}: {match_result_text(match)}.")
    return redirect(grid)


def event_bracket(request, event_id: int):
    """The top cut as a bracket, one per division when divisions play separately: a column
    per round, later rounds between their feeders. Public once the top cut's first round
    is published; staff see it as soon as it is paired."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    rounds = selectors.top_cut_rounds(event, public_only=not staff)
    if not rounds and not staff:
        raise Http404("The top cut is not paired yet.")
    return render(
        request,
        "matches/bracket.html",
        {"event": event, "staff": staff, "brackets": _brackets(event, rounds) if rounds else []},
    )


def _brackets(event: Event, rounds: list[Round]) -> list[dict]:
    """Each division's bracket: columns (Top 8, Top 4, Final) of boxes in bracket order,
    boxes of rounds not paired yet holding the winners known so far. Seeds are the
    players' order in the final Swiss standings among those who made the cut."""
    snapshot = selectors.final_swiss_standings(event)
    rows = snapshot.rows if snapshot is not None else services.standings_rows(event)
    swiss_order = {row["registration"]: i for i, row in enumerate(rows)}
    division_rank = {d: i for i, d in enumerate(Division.values)}
    first_round = list(rounds[0].matches.all())
    divisions = sorted({m.division for m in first_round}, key=lambda d: division_rank.get(d, -1))
    brackets = []
    for division in divisions:
        first = [m for m in first_round if m.division == division]
        players = {p for m in first for p in (m.player_a_id, m.player_b_id) if p}
        ranked = sorted(players, key=lambda reg: (swiss_order.get(reg, len(swiss_order)), reg))
        seeds = {reg: seed for seed, reg in enumerate(ranked, start=1)}
        size = 2 * len(first)
        columns, previous = [], []
        for i in range(max(1, size.bit_length() - 1)):
            round_ = rounds[i] if i < len(rounds) else None
            by_table = (
                {m.table: m for m in round_.matches.all() if m.division == division}
                if round_
                else {}
            )
            boxes = []
            for k in range(max(1, size >> (i + 1))):
                m = by_table.get(k + 1)
                boxes.append(
                    _bracket_box(m, seeds) if m else _open_box(previous[2 * k : 2 * k + 2])
                )
            left = size >> i
            columns.append(
                {
                    "title": "Final" if left <= 2 else f"Top {left}",
                    "round": round_,
                    "pairs": [boxes[j : j + 2] for j in range(0, len(boxes), 2)],
                }
            )
            previous = boxes
        brackets.append(
            {
                "name": DIVISION_NAMES.get(division, "")
                if event.division_mode == Event.DivisionMode.SEPARATE
                else "",
                "columns": columns,
                "champion": previous[0]["winner"] if len(previous) == 1 else None,
            }
        )
    return brackets


def _bracket_box(match: Match, seeds: dict[int, int]) -> dict:
    final = match.status == Match.Status.FINAL
    slots = []
    for side, registration, games in (
        ("a", match.player_a, match.a_game_wins),
        ("b", match.player_b, match.b_game_wins),
    ):
        slots.append(
            {
                "name": registration.player.name if registration else "",
                "seed": seeds.get(registration.pk) if registration else None,
                "games": games if final else None,
                "won": final and match.result == side,
            }
        )
    status = "" if final else ("Disputed" if match.status == Match.Status.DISPUTED else "Playing")
    return {
        "match": match,
        "slots": slots,
        "winner": next((slot for slot in slots if slot["won"]), None),
        "status": status,
    }


def _open_box(feeders: list[dict]) -> dict:
    """A box of a round not paired yet: the winners of its feeders, once known."""
    slots = []
    for feeder in feeders or [{}, {}]:
        winner = feeder.get("winner")
        slots.append(
            {
                "name": winner["name"] if winner else "",
                "seed": winner["seed"] if winner else None,
                "games": None,
                "won": False,
            }
        )
    return {"match": None, "slots": slots, "winner": None, "status": ""}


STANDINGS_CSV_COLUMNS = (
    "rank", "player", "player id", "division", "record", "points", "OWP %", "OOWP %", "dropped",
)  # fmt: skip


def _csv_text(value: str) -> str:
    """A text cell a spreadsheet will not read as a formula."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def event_standings_csv(request, event_id: int):
    """The standings as CSV (`?round=N` for an older round): public once published, staff
    also get the live ones. UTF-8 with a byte-order mark, so spreadsheets read accents."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    snapshot = _chosen_snapshot(request, event, staff)
    if snapshot is None:
        raise Http404("No standings yet.")
    name = f"{event.slug}-standings-round-{snapshot.round_number}"
    name += f"-v{snapshot.version}" if snapshot.version > 1 else ""
    name += "" if snapshot.published else "-live"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow(STANDINGS_CSV_COLUMNS)
    for row in snapshot.rows:
        division = row.get("division", "")
        writer.writerow(
            [
                row["rank"],
                _csv_text(row["player"]),
                row.get("player_id", ""),
                DIVISION_NAMES.get(division, division),
                row["record"],
                row["points"],
                f"{float(row.get('owp') or 0) * 100:.2f}",
                f"{float(row.get('oowp') or 0) * 100:.2f}",
                "yes" if row.get("dropped") else "no",
            ]
        )
    return response


@login_required
def event_export_json(request, event_id: int):
    """Staff: the whole event as one JSON document (`matches.export.export_event`)."""
    event = get_event(event_id)
    require_staff(request, event)
    response = JsonResponse(
        export_event(event), json_dumps_params={"ensure_ascii": False, "indent": 2}
    )
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-export.json"'
    return response


@login_required
def event_decklists_pdf(request, event_id: int):
    """Staff: every player's latest list as a printable sheet, one page each."""
    event = get_event(event_id)
    require_staff(request, event)
    submissions = selectors.latest_deck_submissions(event)
    if not submissions:
        messages.info(request, "No decklists submitted yet: there is nothing to print.")
        return redirect("event-dashboard", event.pk)
    index = card_index()
    sheets = [_deck_sheet(submission, index) for submission in submissions]
    pdf = decklists_pdf(
        sheets,
        event_name=event.name,
        subtitle=f"{event.format.name} · {dateformat.format(timezone.localtime(event.starts_at), 'j M Y')}",
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{event.slug}-decklists.pdf"'
    return response


def _deck_sheet(submission: DeckSubmission, index) -> DeckSheet:
    registration = submission.registration
    verdict = submission.verdict or {}
    findings = [f.get("message", "") for f in verdict.get("errors", [])]
    findings += [f"Warning: {f.get('message', '')}" for f in verdict.get("warnings", [])]
    return DeckSheet(
        player_name=registration.player.name,
        player_id=registration.player.player_id,
        division=registration.get_division_display(),
        lines=sheet_lines(submission.text, index),
        legal=submission.legal,
        card_count=submission.card_count,
        findings=findings,
        version=submission.version,
        submitted=dateformat.format(timezone.localtime(submission.submitted_at), "j M Y, H:i"),
    )
