"""Paper for the venue (staff): a round's pairings for the wall (by table, by name), its
match slips with a QR code per match, and the standings, as PDF on A4 or Letter
(`?size=letter`). The rows are gathered here; `matches.paper` draws them. The wall's lists
(pairings, standings) are read by everyone at the venue: they show public names (a minor's
first name and initial); the slips, handed to the two players, their full names."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.models import Event
from league.public_record import public_name
from league.selectors import with_public_names
from league.view_helpers import get_event, printed_in_event_language, require

from .. import selectors
from ..models import Match, Round
from ..paper.lists import Group, NameRow, StandingRow, TableRow, pairings_pdf, standings_pdf
from ..paper.slips import Slip, SlipRules, slips_pdf
from ..presenters import DIVISION_NAMES, division_groups, percent

KINDS = ("by-table", "by-name", "slips")


def _size(request) -> str:
    return "letter" if request.GET.get("size") == "letter" else "a4"


def _pdf(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _matches(round_: Round) -> list[Match]:
    return list(
        round_.matches.select_related("player_a__player", "player_b__player").order_by(
            "division", "table"
        )
    )


def _groups(event: Event, items, key, title: str = "") -> list[Group]:
    return [Group(g["name"] or title, g["items"]) for g in division_groups(event, items, key)]


def table_rows(event: Event, round_: Round) -> list[Group]:
    points = selectors.points_before(event, round_.number)
    rows = [
        (
            m.division,
            TableRow(
                table=m.table,
                a_name=public_name(m.player_a.player),
                a_points=points[m.player_a_id],
                b_name=public_name(m.player_b.player) if m.player_b_id else None,
                b_points=points[m.player_b_id] if m.player_b_id else None,
            ),
        )
        for m in _matches(round_)
    ]
    return [Group(g.title, [r for _, r in g.rows]) for g in _groups(event, rows, lambda r: r[0])]


def name_rows(event: Event, round_: Round) -> list[Group]:
    points = selectors.points_before(event, round_.number)
    rows = []
    for m in _matches(round_):
        a, b = m.player_a.player, m.player_b.player if m.player_b_id else None
        a_name, b_name = public_name(a), public_name(b) if b else None
        rows.append(
            (m.division, NameRow(a_name, a.player_id, points[m.player_a_id], m.table, b_name))
        )
        if b is not None:
            rows.append(
                (m.division, NameRow(b_name, b.player_id, points[m.player_b_id], m.table, a_name))
            )
    rows.sort(key=lambda r: (r[1].name.casefold(), r[1].table))
    groups = _groups(event, rows, lambda r: r[0])
    return [Group(g.title, [r for _, r in g.rows]) for g in groups]


def slip_rows(request, round_: Round) -> list[Slip]:
    slips = []
    for m in _matches(round_):
        if not m.player_b_id:
            continue  # a bye needs no slip
        a, b = m.player_a.player, m.player_b.player
        url = request.build_absolute_uri(reverse("match-detail", args=[m.pk]))
        slips.append(
            Slip(
                m.table,
                DIVISION_NAMES.get(m.division, m.division),
                a.name,
                a.player_id,
                b.name,
                b.player_id,
                url,
            )
        )
    return slips


def slip_rules(event: Event) -> SlipRules:
    if event.sudden_death_style == Event.SuddenDeath.CONTINUE:
        sudden = _("the game goes on; it may end in a draw (1996).")
    else:
        prizes = event.sudden_death_prizes
        # Translators: "Prize cards" is the official TCG term (see the glossary).
        sudden = ngettext(
            "a new game with %(count)s Prize card.",
            "a new game with %(count)s Prize cards.",
            prizes,
        ) % {"count": prizes}
    both_ways = bool(event.format and event.format.win_both_ways)
    return SlipRules(best_of=event.best_of, both_ways=both_ways, sudden_death=sudden)


@login_required
@printed_in_event_language
def round_paper(request, event_id: int, number: int, kind: str):
    """A round's pairings by table or by name, or its match slips, as PDF (staff)."""
    event = get_event(event_id)
    require(request, event, "view-private")
    round_ = get_object_or_404(Round, event=event, number=number)
    if kind not in KINDS:
        raise Http404(_("No such sheet."))
    size = _size(request)
    label = _("Round %(number)s") % {"number": round_.number}
    name = f"{event.slug}-round-{round_.number}-{kind}-{size}.pdf"
    if kind == "slips":
        data = slips_pdf(
            slip_rows(request, round_),
            event_name=event.name,
            round_label=label,
            rules=slip_rules(event),
            size=size,
        )
    elif kind == "by-name":
        data = pairings_pdf(
            name_rows(event, round_),
            by_name=True,
            event_name=event.name,
            round_label=label,
            size=size,
        )
    else:
        data = pairings_pdf(
            table_rows(event, round_),
            by_name=False,
            event_name=event.name,
            round_label=label,
            size=size,
        )
    return _pdf(data, name)


@login_required
@printed_in_event_language
def standings_paper(request, event_id: int):
    """The latest standings (live ones included, for staff) as PDF for the wall."""
    event = get_event(event_id)
    require(request, event, "view-private")
    snapshot = selectors.latest_standings(event)
    if snapshot is None:
        raise Http404(_("No standings yet."))
    rows = [
        (
            r.get("division", ""),
            StandingRow(
                rank=r["rank"],
                name=r["player"],
                player_id=r.get("player_id", ""),
                points=r["points"],
                record=str(r.get("record", "")),
                owp=percent(r.get("owp")),
                oowp=percent(r.get("oowp")),
                dropped=bool(r.get("dropped")),
            ),
        )
        for r in with_public_names(snapshot.rows)
    ]
    groups = [Group(g.title, [r for _, r in g.rows]) for g in _groups(event, rows, lambda r: r[0])]
    heading = (
        _("Standings after round %(number)s")
        if snapshot.published
        else _("Standings after round %(number)s (not yet published)")
    ) % {"number": snapshot.round_number}
    size = _size(request)
    data = standings_pdf(groups, event_name=event.name, heading=heading, size=size)
    return _pdf(data, f"{event.slug}-standings-round-{snapshot.round_number}-{size}.pdf")
