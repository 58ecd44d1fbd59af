"""The lists for the wall, as TOM prints them: pairings by table, pairings by player name
(alphabetical), and standings. Each division starts a new page; every page carries the
event, the round, the list's name and its division, "continued" on a division's later
pages, and (by name) the first and last name on the page, so a player finds their sheet
from across the room. Type is large: a name at 14 pt, a table number at 18 pt.

The builders take plain rows (`Group` of `TableRow`, `NameRow` or `StandingRow`) and know
nothing about the database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from .base import MUTED, RULE, SHADE, Sheet, page_size

MARGIN = 12.0


@dataclass(frozen=True)
class TableRow:
    table: int
    a_name: str
    a_points: int | None
    b_name: str | None  # None: a bye
    b_points: int | None


@dataclass(frozen=True)
class NameRow:
    name: str
    player_id: str
    points: int | None
    table: int
    opponent: str | None  # None: a bye


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    player_id: str
    points: int
    record: str
    owp: str
    oowp: str
    dropped: bool = False


@dataclass(frozen=True)
class Group:
    """One division's rows (`title` blank when the divisions play together)."""

    title: str
    rows: Sequence


@dataclass(frozen=True)
class Column:
    title: str
    width: float  # a share of the line; the shares are scaled to the page
    size: float = 13.0
    bold: bool = False
    align: str = "L"


def _points(value) -> str:
    return "" if value is None else f"({value})"


TABLE = pgettext_lazy("paper column", "Table")
PLAYER = pgettext_lazy("paper column", "Player")
OPPONENT = pgettext_lazy("paper column", "Opponent")
BY_TABLE = (
    Column(TABLE, 0.12, 18, True, "R"),
    Column(PLAYER, 0.40, 14, True),
    Column("", 0.06, 11, False, "R"),
    Column(OPPONENT, 0.36, 14, True),
    Column("", 0.06, 11, False, "R"),
)
BY_NAME = (
    Column(PLAYER, 0.47, 14, True),
    Column("", 0.06, 11, False, "R"),
    Column(TABLE, 0.12, 18, True, "R"),
    Column(OPPONENT, 0.35, 12),
)
STANDINGS = (
    Column(pgettext_lazy("paper column", "Place"), 0.09, 14, True, "R"),
    Column(PLAYER, 0.39, 13, True),
    Column(pgettext_lazy("paper column", "Player ID"), 0.13, 10),
    Column(pgettext_lazy("paper column", "Points"), 0.09, 13, True, "R"),
    # Translators: wins-losses-ties, a player's record.
    Column(pgettext_lazy("paper column", "W-L-T"), 0.12, 11, False, "R"),
    # Translators: OWP/OOWP, the TCG tiebreakers (opponents' win percentage); usually kept.
    Column(pgettext_lazy("paper column", "OWP"), 0.09, 10, False, "R"),
    Column(pgettext_lazy("paper column", "OOWP"), 0.09, 10, False, "R"),
)


def _table_cells(row: TableRow) -> tuple:
    if row.b_name is None:
        return (str(row.table), row.a_name, _points(row.a_points), "BYE", "")
    return (str(row.table), row.a_name, _points(row.a_points), row.b_name, _points(row.b_points))


def _name_cells(row: NameRow) -> tuple:
    table = "BYE" if row.opponent is None else str(row.table)
    return (row.name, _points(row.points), table, row.opponent or "")


def _standing_cells(row: StandingRow) -> tuple:
    name = row.name + (" (dropped)" if row.dropped else "")
    return (str(row.rank), name, row.player_id, str(row.points), row.record, row.owp, row.oowp)


def pairings_pdf(
    groups: Sequence[Group],
    *,
    by_name: bool,
    event_name: str,
    round_label: str,
    size: str = "a4",
    compress: bool = True,
) -> bytes:
    """The pairings of a round for the wall: by table, or every player alphabetically."""
    kind = _("Pairings by name") if by_name else _("Pairings by table")
    sheet = Sheet(size, title=f"{kind} · {round_label} · {event_name}", compress=compress)
    columns, cells = (BY_NAME, _name_cells) if by_name else (BY_TABLE, _table_cells)
    _draw(
        sheet,
        groups,
        columns,
        cells,
        event_name=event_name,
        heading=f"{round_label} · {kind}",
        index=(lambda row: row.name) if by_name else None,
    )
    return sheet.output()


def standings_pdf(
    groups: Sequence[Group],
    *,
    event_name: str,
    heading: str,
    size: str = "a4",
    compress: bool = True,
) -> bytes:
    """Standings for the wall: place, player, points, record and the tiebreakers."""
    sheet = Sheet(size, title=f"{heading} · {event_name}", compress=compress)
    _draw(sheet, groups, STANDINGS, _standing_cells, event_name=event_name, heading=heading)
    return sheet.output()


ROW_H = 8.0
HEAD_H = 27.0
FOOT_H = 8.0


def rows_per_page(size: str = "a4") -> int:
    """How many rows a page of the lists holds (A4: 28, Letter: 26)."""
    return int((page_size(size)[1] - 2 * MARGIN - HEAD_H - FOOT_H) // ROW_H)


def _draw(sheet: Sheet, groups, columns, cells, *, event_name: str, heading: str, index=None):
    per_page = int((sheet.height - 2 * MARGIN - HEAD_H - FOOT_H) // ROW_H)
    width = sheet.width - 2 * MARGIN
    scale = width / sum(c.width for c in columns)
    groups = [g for g in groups if g.rows] or [Group("", [])]
    for group in groups:
        rows = list(group.rows)
        pages = max(1, -(-len(rows) // per_page))
        for page in range(pages):
            part = rows[page * per_page : (page + 1) * per_page]
            sheet.pdf.add_page()
            if page == 0:
                sheet.pdf.start_section(sheet.clean(group.title or heading))
            span = ""
            if index and part:
                span = _("%(first)s  to  %(last)s") % {
                    "first": index(part[0]),
                    "last": index(part[-1]),
                }
            _header(
                sheet,
                event_name=event_name,
                heading=heading,
                group=group.title,
                continued=page > 0,
                span=span,
            )
            y = MARGIN + HEAD_H
            _column_heads(sheet, columns, scale, y)
            y += 6.5
            for i, row in enumerate(part):
                if i % 2:
                    sheet.pdf.set_fill_color(*SHADE)
                    sheet.pdf.rect(MARGIN, y, width, ROW_H, style="F")
                _row(sheet, columns, scale, y, cells(row))
                y += ROW_H
            if not part:
                sheet.text(MARGIN, y + 6, _("Nothing to list yet."), size=12, color=MUTED)
            footer = f"{event_name} · {heading}" + (f" · {group.title}" if group.title else "")
            sheet.text(
                MARGIN, sheet.height - MARGIN, footer, size=8, color=MUTED, width=width * 0.7
            )
            sheet.right(
                sheet.width - MARGIN,
                sheet.height - MARGIN,
                _("page %(page)s of %(pages)s") % {"page": page + 1, "pages": pages},
                size=8,
                color=MUTED,
            )


def _header(sheet: Sheet, *, event_name, heading, group, continued, span) -> None:
    width = sheet.width - 2 * MARGIN
    top = MARGIN
    sheet.text(MARGIN, top + 5, event_name, size=11, color=MUTED, width=width)
    title = heading + (f" · {group}" if group else "")
    sheet.text(MARGIN, top + 14, title, size=20, bold=True, width=width - (32 if continued else 0))
    if continued:
        sheet.right(
            sheet.width - MARGIN, top + 14, pgettext("paper page", "continued"), size=12, bold=True
        )
    if span:
        sheet.text(MARGIN, top + 21.5, span, size=12, bold=True, width=width)
    sheet.pdf.set_draw_color(*RULE)
    sheet.pdf.set_line_width(0.5)
    sheet.pdf.line(MARGIN, top + HEAD_H - 2.5, sheet.width - MARGIN, top + HEAD_H - 2.5)


def _column_heads(sheet: Sheet, columns, scale: float, y: float) -> None:
    x = MARGIN
    for column in columns:
        w = column.width * scale
        if column.align == "R":
            sheet.right(x + w - 1.5, y + 4.5, column.title.upper(), size=8, bold=True, color=MUTED)
        else:
            sheet.text(x + 1.5, y + 4.5, column.title.upper(), size=8, bold=True, color=MUTED)
        x += w


def _row(sheet: Sheet, columns, scale: float, y: float, values: tuple) -> None:
    x = MARGIN
    base = y + ROW_H - 2.2
    for column, value in zip(columns, values, strict=True):
        w = column.width * scale
        if column.align == "R":
            sheet.right(x + w - 1.5, base, value, size=column.size, bold=column.bold)
        else:
            sheet.text(x + 1.5, base, value, size=column.size, bold=column.bold, width=w - 3)
        x += w
