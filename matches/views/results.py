"""Results and reports: the match page with the players' report forms and the staff's
result form, the staff's result, and the staff's results grid of a round (a player's
report or confirmation is posted to `reports.match_report`)."""

from __future__ import annotations

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

from league.editions import event_edition
from league.params import parse_number
from league.view_helpers import (
    back,
    can,
    get_event,
    is_staff,
    require,
    require_visible,
    show_error,
)
from rules.errors import DomainError

from .. import report_frame, selectors, services
from ..forms import (
    BOTH_WAYS_HELP,
    MAX_SUDDEN_DEATH,
    GridResultForm,
    PlayerGamesForm,
    StaffResultForm,
)
from ..models import Match, ResultChange, Round
from ..presenters import (
    game_text,
    match_result_text,
    names_of,
    result_summary,
    settles_top_cut,
)


def _load_match(request, match_id: int, *, lock: bool = False) -> Match:
    """The match with its round, event (season, league, format) and players: the match row
    from the database, the rest from the copy kept per event (`matches.report_frame`);
    with `lock`, its row locked in the caller's transaction (a report)."""
    read = report_frame.locked_match if lock else report_frame.framed_match
    try:
        match = read(match_id)
    except Match.DoesNotExist:
        raise Http404 from None
    require_visible(request, match.round.event)
    # Staff are asked only about a round others may not see (a query saved on a report).
    if not match.round.is_public and not selectors.can_view_round(
        request.user, match.round, staff=is_staff(request, match.round.event)
    ):
        raise Http404(_("This round is not published yet."))
    return match


def _side(request, match: Match) -> str | None:
    return match.side_of_user(request.user)


MAX_ROWS = 12


def _rows(match: Match, data=None) -> int:
    """Game rows on the forms: best of N plus two sudden-death replays, or as many as were
    posted (a staff correction may list a longer chain)."""
    rows = match.round.event.best_of + 2
    if data is not None:
        posted = [parse_number(k[5:]) for k in data if k.startswith("game_")]
        rows = max([rows, *(n for n in posted if n is not None)])
    return min(rows, MAX_ROWS)


def _rule_options(event) -> dict:
    """What the event's rules add to the result forms: won both ways, a 1996 draw."""
    return {
        "both_ways": event.format.win_both_ways,
        "draws": event.sudden_death_style == event.SuddenDeath.CONTINUE,
    }


def _after_time(match: Match) -> dict | None:
    """What the rule edition's end of round asks on the forms (`GamesForm.after_time`):
    None for the older sudden-death reading."""
    end = event_edition(match.round.event).edition.end_of_round
    if not end.has_turns:
        return None
    top_cut = match.round.stage == Round.Stage.TOP_CUT
    rule = end.top_cut_no_winner if top_cut else end.swiss_no_winner
    return {"turns": end.extra_turns, "prizes": rule == "prizes", "top_cut": top_cut}


def _render_match(request, match: Match, *, games_form=None, staff_form=None, status=200):
    event = match.round.event
    options = _rule_options(event)
    staff = is_staff(request, event)
    enters_results = can(request, event, "enter-results")
    names = names_of(match, full=staff)
    side = _side(request, match)
    games = selectors.match_games(match)
    can_report = services.can_report(match, request.user)
    reports, my_report, their_report = [], None, None
    if side is not None or staff:
        for report in match.reports.filter(superseded=False).select_related("reported_by"):
            entry = {
                "report": report,
                "summary": result_summary(report.payload, names),
                "name": names[report.side],
            }
            reports.append(entry)
            if report.side == side:
                my_report = entry
            elif side is not None:
                their_report = entry
    sudden_death = min(parse_number(request.GET.get("sudden_death")) or 0, MAX_SUDDEN_DEATH)
    ask_ways = options["both_ways"] and request.GET.get("ways") == "1"
    # "Tie at time" where the edition decides by Prizes: who was ahead (`?time=ahead`), and
    # level in the top cut, who took the next Prize (`?time=level`), a tap each.
    after_time = _after_time(match)
    by_prizes = bool(after_time and after_time["prizes"])
    time_step = request.GET.get("time") if by_prizes else None
    if time_step not in ("ahead", "level") or (time_step == "level" and not after_time["top_cut"]):
        time_step = None
    if can_report and games_form is None:
        games_form = PlayerGamesForm(side=side, rows=_rows(match), after_time=after_time, **options)
    if enters_results and not match.is_bye and staff_form is None:
        staff_form = StaffResultForm(
            **options,
            after_time=after_time,
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
                {
                    "game": g,
                    "text": game_text({"outcome": g.outcome, "reason": g.reason}, names),
                    "sudden_death": settles_top_cut(g, match, event),
                }
                for g in games
            ],
            "result": match_result_text(match) if match.status == Match.Status.FINAL else "",
            "summary": result_summary(services.stored_result(match, games), names)
            if match.result
            else "",
            "staff": staff,
            "side": side,
            "opponent": names["b" if side == "a" else "a"] if side else None,
            "can_report": can_report,
            "sudden_death": sudden_death,
            "sudden_death_next": sudden_death + 1,
            "sudden_death_before": max(sudden_death - 1, 0),
            "sd_prizes": event.sudden_death_prizes,
            "top_cut": match.round.stage == Round.Stage.TOP_CUT,
            "ask_ways": ask_ways,
            "by_prizes": by_prizes,
            "time_step": time_step,
            "extra_turns": after_time["turns"] if after_time else 0,
            "both_ways": options["both_ways"],
            "both_ways_help": BOTH_WAYS_HELP,
            "continues": options["draws"],
            "games_form": games_form if can_report else None,
            "staff_form": staff_form if enters_results else None,
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


@login_required
@require_POST
def match_result(request, match_id: int):
    """Staff enter or correct a result, with a note for the history."""
    match = _load_match(request, match_id)
    require(request, match.round.event, "enter-results")
    form = StaffResultForm(
        request.POST,
        names=names_of(match, full=True),
        rows=_rows(match, request.POST),
        after_time=_after_time(match),
        **_rule_options(match.round.event),
    )
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
        show_error(request, exc)
        return _render_match(request, match, staff_form=form)
    messages.success(request, _("Result saved: %(result)s.") % {"result": match_result_text(match)})
    return back(request, "match-detail", match.pk)


#: The results grid's groups, in its order (`selectors.RESULTS_ORDER`), and their names.
GRID_LABELS = {
    Match.Status.DISPUTED: pgettext_lazy("results grid group", "disputed"),
    Match.Status.PENDING: pgettext_lazy("results grid group", "missing"),
    Match.Status.REPORTED: pgettext_lazy("results grid group", "reported, awaiting confirmation"),
    Match.Status.FINAL: pgettext_lazy("results grid group", "final"),
}


#: Rows of the results grid on one page; the rest by table range.
GRID_PAGE = 200


def _table_range(text: str) -> tuple[int, int] | None:
    lo, _, hi = text.replace("–", "-").partition("-")
    lo_n = parse_number(lo.strip())
    if lo_n is None:
        return None
    hi_n = parse_number(hi.strip())
    hi_n = lo_n if hi_n is None else hi_n
    return (lo_n, hi_n) if lo_n <= hi_n else (hi_n, lo_n)


@login_required
def round_results(request, event_id: int, number: int):
    """Staff: the matches of a round, what needs them first (disputed, missing, reported,
    final), with what each player reported and a compact result form per row. The tally
    is one aggregate query; a big round shows its first `GRID_PAGE` rows in that order and
    the rest by table range (`?tables=101-200`). The game pickers are rendered once."""
    event = get_event(event_id)
    require(request, event, "enter-results")
    round_ = get_object_or_404(Round, event=event, number=number)
    round_.event = event
    tables_text = request.GET.get("tables", "").strip()[:20]
    tables = _table_range(tables_text)
    matches = selectors.round_results(round_, tables=tables, limit=GRID_PAGE)
    if tables is None and len(matches) < GRID_PAGE:  # the whole round is on the page
        tally = Counter({status: 0 for status in GRID_LABELS})
        tally.update(m.status for m in matches)
        last = max((m.table for m in matches), default=0)
    else:
        tally, last = selectors.result_counts(round_)
    total = sum(tally.values())
    rows = []
    for m in matches:
        names = names_of(m, full=True)
        reports = [
            {"side": r.side, "name": names[r.side], "summary": result_summary(r.payload, names)}
            for r in m.open_reports
        ]
        rows.append(
            {"match": m, "names": names, "reports": reports, "result": match_result_text(m)}
        )
    top_cut = round_.stage == Round.Stage.TOP_CUT
    form = GridResultForm(best_of=event.best_of, auto_id=False)
    return render(
        request,
        "matches/round_results.html",
        {
            "event": event,
            "round": round_,
            "rows": rows,
            "shown": len(rows),
            "total": total,
            "tables": tables_text if tables else "",
            "ranges": [(lo, min(lo + GRID_PAGE - 1, last)) for lo in range(1, last + 1, GRID_PAGE)],
            "counts": [(status, GRID_LABELS[status], tally[status]) for status in GRID_LABELS],
            "open_count": sum(tally[s] for s in selectors.RESULTS_ORDER[:-1]),
            "entry_controls": mark_safe(  # rendered by our own template, escaped there
                render_to_string("matches/_grid_entry_controls.html", {"form": form})
            ),
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
    require(request, event, "enter-results")
    grid = reverse("round-results", args=[event.pk, match.round.number])
    form = GridResultForm(request.POST, best_of=event.best_of)
    where = (_("Table %(table)s (%(division)s)") if match.division else _("Table %(table)s")) % {
        "table": match.table,
        "division": match.division,
    }
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
        show_error(request, exc, prefix=f"{where}: ")
    else:
        messages.success(request, f"{where}: {match_result_text(match)}.")
    return redirect(grid)
