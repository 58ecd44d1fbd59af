"""The event's public pages and the staff dashboard: the event page, standings, the
top-cut bracket, and the dashboard of the round in hand."""

from __future__ import annotations

from itertools import groupby

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from league import permissions
from league import selectors as league_selectors
from league import services as league_services
from league.editions import division_years, editions_version, event_edition
from league.models import Division, Event, Registration
from league.params import parse_number
from league.public_record import public_name
from league.view_helpers import (
    get_event,
    is_staff,
    own_registration,
    require,
    require_visible,
    staff_actions,
)
from rules import topcut

from .. import own_pages, page_cache, selectors, services
from ..models import Match, Round, StandingsSnapshot
from ..presenters import DIVISION_NAMES, cut_stage, division_groups, percent, structure_lines


def event_detail(request, event_id: int):
    """The event: its details, your registration and deck, published rounds, standings.

    What every viewer but staff sees (the facts, format and rules; the rounds and published
    lists) is rendered once per version of the event and language (`_public_parts`); the
    rest (who you are, your registration and deck, your match, the staff's buttons) per
    request, and the whole page is then kept per viewer (`matches.own_pages`)."""
    event = get_event(event_id)
    require_visible(request, event)
    if event.is_board_game:  # a board-game night's page is in `gamenights`
        return redirect("gamenight", event.pk)
    staff = is_staff(request, event)
    registration = own_registration(request.user, event)
    if registration is not None:  # the user's player, read with the registration
        player = registration.player
    else:
        player = getattr(request.user, "player", None) if request.user.is_authenticated else None
    deck_lock = league_services.deck_lock(event, registration)
    own_pages.keep_until(request, event.deck_deadline)  # "(passed)", "View your deck"
    roster_visible = permissions.can_view_roster(request.user, event)
    if staff:  # unpublished rounds and standings: never kept for anyone else
        parts = _public_parts(event, True, deck_lock, roster_visible)
    else:
        parts = page_cache.cached(
            event.pk,
            # An edition edited in the admin moves the editions' version, not the event's.
            f"event-page-parts:{deck_lock}:{roster_visible}:{editions_version()}",
            lambda: _public_parts(event, False, deck_lock, roster_visible),
        )
    actions = staff_actions(request, event)
    return render(
        request,
        "matches/event_detail.html",
        {
            "event": event,
            "staff": staff,
            "can": actions,
            "manages": "manage-event" in actions,
            "registration": registration,
            "player": player,
            "deck": registration.current_deck if registration else None,
            "deck_lock": deck_lock,
            "can_register": bool(player)
            and event.status in (Event.Status.REGISTRATION, Event.Status.RUNNING)
            and (registration is None or registration.status == Registration.Status.WITHDRAWN),
            "can_drop": registration is not None
            and (registration.is_active or registration.status == Registration.Status.WAITLISTED),
            **parts,
        },
    )


def _public_parts(event: Event, staff: bool, deck_lock: str, roster_visible: bool) -> dict:
    """The event page's facts, format and rules (`league/_event_about.html`) and its rounds
    and published lists (`league/_event_rounds.html`), as HTML, with what the rest of the
    page asks of them. They depend on the event's rows (every change bumps its version),
    on whether the viewer is staff, on the deck lock (the deadline passes without a write),
    on whether the viewer may see the roster and on the rule editions: the caller keys
    them by all of these."""
    rounds = list(selectors.visible_rounds(event, staff=staff).order_by("number"))
    counts = league_selectors.registration_counts(event)
    published_lists = []
    if event.decklists_open != Event.DecklistsOpen.NEVER:
        published_lists = list(
            permissions.public_decklists(event).select_related("player").order_by("player__name")
        )
        for reg in published_lists:  # a minor by first name and initial
            reg.shown_name = public_name(reg.player)
    pods = services.event_pods(event)
    swiss_rounds, top_cut = services.structure_of(pods)
    context = {
        "event": event,
        "rounds": rounds,
        "active_count": counts["active"],
        "waitlist_count": counts.get(Registration.Status.WAITLISTED, 0),
        "has_standings": selectors.visible_standings(event, published_only=not staff).exists(),
        "roster_visible": roster_visible,
        "published_lists": published_lists,
        "edition": event_edition(event),
        "division_years": division_years(event),
        "swiss_rounds": swiss_rounds,
        "structure": structure_lines(event, pods),
        "top_cut": top_cut,
        "deck_lock": deck_lock,
    }
    latest = max((r for r in rounds if r.is_public), key=lambda r: r.number, default=None)
    return {
        # Rendered by our own templates, escaped there.
        "about": mark_safe(render_to_string("league/_event_about.html", context)),
        "rounds_part": mark_safe(render_to_string("league/_event_rounds.html", context)),
        "has_rounds": bool(rounds),
        # The "your match" card's round (`match_tags.my_match`): the latest published one.
        "latest_round_id": latest.pk if latest else None,
        # `rounds` are those the viewer may see (`visible_rounds`).
        "has_bracket": any(r.stage == Round.Stage.TOP_CUT for r in rounds),
    }


#: The dashboard lists at most this many players and open matches; the rest are found by
#: name or ID (players) or on the results grid (matches).
DASHBOARD_ROWS = 100


@login_required
def event_dashboard(request, event_id: int):
    """Staff: registrations with check-in and drop, the waiting list, and the round in
    hand: pair, publish, start the clock, close; results in and missing; disputes."""
    event = get_event(event_id)
    require(request, event, "view-private")
    if event.is_board_game:
        return redirect("gamenight", event.pk)
    find = request.GET.get("find", "").strip()[:60]
    board = selectors.dashboard(event, find=find, rows=DASHBOARD_ROWS)
    current = board["current"]
    pods = services.event_pods(event)
    swiss_rounds, top_cut = services.structure_of(pods)
    return render(
        request,
        "matches/dashboard.html",
        {
            "event": event,
            "can": staff_actions(request, event),
            **board,
            "find": find,
            "rows_cap": DASHBOARD_ROWS,
            "can_pair": (current is None or current.status == Round.Status.CLOSED)
            and event.status != Event.Status.FINISHED,
            "swiss_rounds": swiss_rounds,
            "structure": structure_lines(event, pods),
            "top_cut": top_cut,
        },
    )


def chosen_snapshot(
    request, event: Event, staff: bool, *, rows: bool = True
) -> StandingsSnapshot | None:
    """The latest standings the viewer may see, or those of round `?round=N` (404 when it
    has none)."""
    wanted = request.GET.get("round", "")
    number = parse_number(wanted, lo=1)
    if wanted and number is None:
        raise Http404(_("No such round."))
    read = selectors.latest_standings if rows else selectors.latest_standings_head
    snapshot = read(event, number, published_only=not staff)
    if wanted and snapshot is None:
        raise Http404(_("No standings for that round."))
    return snapshot


def _has_bracket(event: Event, staff: bool) -> bool:
    """Whether the event's top cut is paired (and published, for everyone but staff)."""
    if event.status not in (Event.Status.TOP_CUT, Event.Status.FINISHED):
        return False
    return selectors.visible_rounds(event, staff=staff).filter(stage=Round.Stage.TOP_CUT).exists()


def event_standings(request, event_id: int):
    """The latest published standings (or `?round=N`); staff also see unpublished ones.
    The table is rendered once per snapshot version and served from the shared cache."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    visible = selectors.visible_standings(event, published_only=not staff)
    available = sorted(set(visible.values_list("round_number", flat=True)))
    snapshot = chosen_snapshot(request, event, staff, rows=False)
    if event.status == Event.Status.FINISHED and "round" not in request.GET:
        final = page_cache.cached(event.pk, "final-standings", lambda: _final_table(event))
        if final:
            return render(
                request,
                "matches/final_standings.html",
                {
                    "event": event,
                    "staff": staff,
                    "snapshot": snapshot,
                    "table": mark_safe(final),  # rendered by our own template, escaped there
                    "has_bracket": _has_bracket(event, staff),
                },
            )
    table = ""
    if snapshot is not None:
        # Per language: the table holds its headings' words.
        stamp = snapshot.computed_at.timestamp()
        key = f"standings-table:{snapshot.pk}:{stamp}:{translation.get_language()}"
        table = cache.get(key)
        if table is None:
            table = _standings_table(event, snapshot)
            cache.set(key, table, timeout=page_cache.FRAGMENT_TIMEOUT)
    return render(
        request,
        "matches/standings.html",
        {
            "event": event,
            "staff": staff,
            "snapshot": snapshot,
            "available": available,
            "table": mark_safe(table),  # rendered by our own template, escaped there
            "has_bracket": _has_bracket(event, staff),
        },
    )


def _final_table(event: Event) -> str:
    """The finished event's final places (`services.final_standings`), by division."""
    rows = [
        {**row, "owp_pct": percent(row["owp"] or 0), "oowp_pct": percent(row["oowp"] or 0)}
        for row in league_selectors.with_public_names(services.final_standings(event))
    ]
    if not rows:
        return ""
    if len({r["place"] for r in rows}) < len(rows):  # places numbered within each division
        groups = [
            {"division": d, "name": DIVISION_NAMES.get(d, d), "items": list(items)}
            for d, items in groupby(rows, key=lambda r: r["division"])
        ]
    else:
        groups = [{"division": "", "name": "", "items": rows}]
    last_swiss = (
        Round.objects.filter(event=event, stage=Round.Stage.SWISS)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return render_to_string(
        "matches/_final_standings_table.html",
        {"groups": groups, "event_id": event.pk, "round_number": last_swiss},
    )


def _standings_table(event: Event, snapshot: StandingsSnapshot) -> str:
    rows = StandingsSnapshot.objects.values_list("rows", flat=True).get(pk=snapshot.pk)
    rows = [  # one table for every viewer, staff too: public names
        {**row, "owp_pct": percent(row.get("owp") or 0), "oowp_pct": percent(row.get("oowp") or 0)}
        for row in league_selectors.with_public_names(rows)
    ]
    groups = division_groups(event, rows, key=lambda r: r.get("division", ""))
    return render_to_string(
        "matches/_standings_table.html",
        {"groups": groups, "event_id": event.pk, "round_number": snapshot.round_number},
    )


def event_bracket(request, event_id: int):
    """The top cut as a bracket, one per division when divisions play separately: a column
    per round, later rounds between their feeders. Public once the top cut's first round
    is published; staff see it as soon as it is paired."""
    event = get_event(event_id)
    require_visible(request, event)
    staff = is_staff(request, event)
    rounds = selectors.top_cut_rounds(event, public_only=not staff)
    if not rounds and not staff:
        raise Http404(_("The top cut is not paired yet."))
    return render(
        request,
        "matches/bracket.html",
        {"event": event, "staff": staff, "brackets": _brackets(event, rounds) if rounds else []},
    )


def _brackets(event: Event, rounds: list[Round]) -> list[dict]:
    """Each pod's bracket (one per division, or per pod of several divisions, when
    divisions play separately), titled with its division(s): columns (Top 8, Top 4, Final)
    of boxes in bracket order (`rules.topcut.bracket_layout`), boxes of rounds not paired
    yet holding the winners known so far. A pod's bracket starts at its own first top-cut
    round, and a round's matches are placed by their order of tables (a pod of an event
    mirrored from TOM may number its tables after another pod's). Seeds are the players'
    order in the final Swiss standings among those who made the cut."""
    snapshot = selectors.final_swiss_standings(event)
    rows = snapshot.rows if snapshot is not None else services.standings_rows(event)
    swiss_order = {row["registration"]: i for i, row in enumerate(rows)}
    matches = {round_.pk: sorted(round_.matches.all(), key=lambda m: m.table) for round_ in rounds}
    pod_names = {pod.key: pod.name for pod in services.event_pods(event)}
    order = {d: i for i, d in enumerate(Division.values)}
    keys = sorted(
        {m.division for ms in matches.values() for m in ms},
        key=lambda k: min((order.get(d, -1) for d in k.split("+")), default=-1),
    )
    separate = event.division_mode == Event.DivisionMode.SEPARATE
    brackets = []
    for key in keys:
        pod_rounds = [r for r in rounds if any(m.division == key for m in matches[r.pk])]
        by_round = [[m for m in matches[r.pk] if m.division == key] for r in pod_rounds]
        first = by_round[0]
        players = {p for m in first for p in (m.player_a_id, m.player_b_id) if p}
        ranked = sorted(players, key=lambda reg: (swiss_order.get(reg, len(swiss_order)), reg))
        seeds = {reg: seed for seed, reg in enumerate(ranked, start=1)}
        # Each round's matches by position (1 for its lowest table), for the pure layout (as
        # ids) and for the boxes the page draws.
        drawn, played = {}, []
        for index, ms in enumerate(by_round):
            played.append({})
            for position, m in enumerate(ms, start=1):
                drawn[(index, position)] = box = _bracket_box(m, seeds)
                winner = (
                    {"a": m.player_a_id, "b": m.player_b_id}[m.result] if box["winner"] else None
                )
                played[index][position] = (_id(m.player_a_id), _id(m.player_b_id), _id(winner))
        names = {str(reg.pk): reg for m in first for reg in (m.player_a, m.player_b) if reg}
        columns, last = [], []
        for column in topcut.bracket_layout(len(first), played):
            boxes = [
                drawn[(column.round_index, box.table)]
                if box.table is not None
                else _open_box([box.a, box.b], names, seeds)
                for box in column.boxes
            ]
            round_ = (
                pod_rounds[column.round_index] if column.round_index < len(pod_rounds) else None
            )
            columns.append(
                {
                    "title": cut_stage(column.title),
                    "round": round_,
                    "pairs": [boxes[j : j + 2] for j in range(0, len(boxes), 2)],
                }
            )
            last = boxes
        # Titled with its division ("Junior", as the standings), or a pod's divisions
        # ("Juniors and Seniors").
        name = DIVISION_NAMES.get(key) or pod_names.get(key, "")
        if not separate and len(keys) == 1:
            name = ""
        brackets.append(
            {
                "name": name,
                "columns": columns,
                "champion": last[0]["winner"] if len(last) == 1 else None,
            }
        )
    return brackets


def _id(registration_id: int | None) -> str | None:
    return str(registration_id) if registration_id else None


def _bracket_box(match: Match, seeds: dict[int, int]) -> dict:
    final = match.status == Match.Status.FINAL
    slots = []
    for side, registration, games in (
        ("a", match.player_a, match.a_game_wins),
        ("b", match.player_b, match.b_game_wins),
    ):
        slots.append(
            {
                "name": public_name(registration.player) if registration else "",
                "seed": seeds.get(registration.pk) if registration else None,
                "games": games if final else None,
                "won": final and match.result == side,
            }
        )
    disputed = match.status == Match.Status.DISPUTED
    status = (
        ""
        if final
        else pgettext("bracket match", "Disputed")
        if disputed
        else pgettext("bracket match", "Playing")
    )
    return {
        "match": match,
        "slots": slots,
        "winner": next((slot for slot in slots if slot["won"]), None),
        "status": status,
    }


def _open_box(winners: list[str | None], names: dict, seeds: dict[int, int]) -> dict:
    """A box of a round not paired yet: the winners of its feeders, once known."""
    slots = []
    for winner in winners:
        registration = names.get(winner) if winner else None
        slots.append(
            {
                "name": public_name(registration.player) if registration else "",
                "seed": seeds.get(registration.pk) if registration else None,
                "games": None,
                "won": False,
            }
        )
    return {"match": None, "slots": slots, "winner": None, "status": ""}
