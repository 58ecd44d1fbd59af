"""Printable decklist sheets: `decklists_pdf(sheets, event_name=...) -> bytes`, one A4 page
per player (a list too long for one page goes on over a second).

The builder takes plain data (`DeckSheet`, `SheetLine`) and knows nothing about events or
registrations: the caller gathers the sheets. `sheet_lines(text, index)` turns a submitted
list into lines grouped by the card data's supertype (Pokémon, Trainer, Energy); a line
whose card is not in the data keeps the section it was written under, or goes under
`UNKNOWN_SECTION`.

Fonts: card names need more than Latin-1 ("é", "♀", "★", "◇", "δ"). The first TrueType font
of `FONT_CANDIDATES` found on disk is embedded (Debian's `fonts-dejavu-core` provides
DejaVu Sans). Without one the sheets fall back to the PDF core font Helvetica and spell
the marks out (`Nidoran ♀` becomes `Nidoran F`, `Rayquaza ★` becomes `Rayquaza Star`).

Each page starts a PDF outline entry named after its player, so a viewer's sidebar lists
the players (and their names can be found in the file without decompressing it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from rules.cards import CardIndex

from .parser import parse_decklist

__all__ = [
    "FONT_CANDIDATES",
    "SECTIONS",
    "UNKNOWN_SECTION",
    "DeckSheet",
    "SheetLine",
    "deck_sheet",
    "decklists_pdf",
    "find_font",
    "sheet_lines",
]

SECTIONS = ("Pokémon", "Trainer", "Energy")
UNKNOWN_SECTION = "Not in the card data"

#: (regular, bold) TrueType fonts tried in order; the bold face is optional.
FONT_CANDIDATES: tuple[tuple[str, str], ...] = (
    (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ),
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
)

# Marks of card names that Latin-1 lacks, spelled out for the core-font fallback.
_SPELLED = {
    "★": " Star", "☆": " Star", "◇": " Prism Star", "♀": " F", "♂": " M", "δ": " Delta",
    "’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "…": "...",
}  # fmt: skip

# Page geometry, millimetres (A4 portrait).
_PAGE_W, _PAGE_H, _MARGIN = 210.0, 297.0, 15.0
_WIDTH = _PAGE_W - 2 * _MARGIN
_COLUMN_GAP = 8.0
_COLUMN_W = (_WIDTH - _COLUMN_GAP) / 2
_FOOTER_Y = _PAGE_H - _MARGIN + 4
_LIST_BOTTOM = _PAGE_H - _MARGIN - 4
_MIN_ROW, _MAX_ROW = 3.8, 6.0
_MAX_FINDINGS = 6
_HEADING_ROWS = 1.4

_INK, _MUTED, _LINE = (29, 36, 48), (91, 101, 117), (200, 206, 216)
_OK, _OK_BG = (29, 122, 58), (232, 245, 236)
_ERR, _ERR_BG = (176, 32, 32), (253, 236, 236)


@dataclass(frozen=True)
class SheetLine:
    count: int
    name: str
    section: str  # one of SECTIONS, or any other heading (printed after them)
    printing: str = ""  # how the list named the printing, e.g. "SVI 57"


@dataclass(frozen=True)
class DeckSheet:
    """One player's sheet. `legal` is None when the list has no verdict; `findings` are the
    verdict's messages (errors first)."""

    player_name: str
    player_id: str
    division: str
    lines: Sequence[SheetLine]
    legal: bool | None = None
    card_count: int | None = None
    findings: Sequence[str] = field(default_factory=tuple)
    version: int | None = None
    submitted: str = ""  # when the list was submitted, already formatted


def deck_sheet(
    *,
    text: str,
    verdict: Mapping | None,
    legal: bool | None,
    card_count: int | None,
    version: int | None,
    submitted_at: datetime | None,
    player_name: str,
    player_id: str,
    division: str,
    index: CardIndex,
) -> DeckSheet:
    """One player's sheet from a stored decklist: its lines under their sections, the
    verdict's messages (errors first, then warnings), and when it was submitted
    (`submitted_at` in the time zone to print)."""
    verdict = verdict or {}
    findings = [f.get("message", "") for f in verdict.get("errors", [])]
    findings += [f"Warning: {f.get('message', '')}" for f in verdict.get("warnings", [])]
    return DeckSheet(
        player_name=player_name,
        player_id=player_id,
        division=division,
        lines=sheet_lines(text, index),
        legal=legal,
        card_count=card_count,
        findings=findings,
        version=version,
        submitted=f"{submitted_at.day} {submitted_at:%b %Y, %H:%M}" if submitted_at else "",
    )  # fmt: skip


def sheet_lines(text: str, index: CardIndex) -> list[SheetLine]:
    """The card lines of a submitted list, each under its card's supertype: the printing
    named by set and number when it exists, else the newest card of that name. Lines the
    parser cannot read are left out (the verdict names them)."""
    lines = []
    for line in parse_decklist(text).lines:
        record = None
        if line.set_code and line.number:
            record = index.by_code_number(line.set_code, line.number, line.name)
        if record is None:
            found = index.by_name(line.name)
            record = found[-1] if found else None
        section = record.supertype if record else (line.section or UNKNOWN_SECTION)
        printing = f"{line.set_code} {line.number}" if line.set_code and line.number else ""
        name = line.name or (record.name if record else "")  # a name-less `4 OBF 186`
        lines.append(SheetLine(line.count, name, section, printing))
    return lines


def find_font() -> tuple[str, str | None] | None:
    """(regular, bold or None) of the first candidate font on disk, or None."""
    for regular, bold in FONT_CANDIDATES:
        if Path(regular).is_file():
            return regular, bold if Path(bold).is_file() else None
    return None


def decklists_pdf(
    sheets: Iterable[DeckSheet],
    *,
    event_name: str,
    subtitle: str = "",
    font: tuple[str, str | None] | bool | None = True,
    compress: bool = True,
) -> bytes:
    """The sheets as one PDF. `font=True` finds a TrueType font (`find_font`), `None` or
    `False` uses the core-font fallback, a (regular, bold) pair names the files.
    `compress=False` leaves the page streams readable (for tests and debugging)."""
    if font is True:
        font = find_font()
    writer = _Writer(font or None, compress=compress)
    writer.pdf.set_title(f"Decklists · {event_name}")
    writer.pdf.set_creator("Pokémon TCG League")
    for sheet in sheets:
        writer.sheet(sheet, event_name=event_name, subtitle=subtitle)
    if not writer.pdf.pages:
        writer.pdf.add_page()
        writer.text_at(_MARGIN, _MARGIN + 10, "No decklists submitted.", size=14)
    return bytes(writer.pdf.output())


class _Writer:
    def __init__(self, font: tuple[str, str | None] | None, *, compress: bool):
        # Imported here: fpdf2 (with Pillow) takes over half a second to import, and every
        # web and worker process imports this module through the pages.
        from fpdf import FPDF

        pdf = FPDF(orientation="P", unit="mm", format="A4")
        pdf.set_compression(compress)
        pdf.set_auto_page_break(False)
        pdf.set_margins(_MARGIN, _MARGIN, _MARGIN)
        self.unicode = font is not None
        if font is not None:
            regular, bold = font
            pdf.add_font("Sheet", "", regular)
            pdf.add_font("Sheet", "B", bold or regular)
            self.family = "Sheet"
        else:
            self.family = "Helvetica"
        self.pdf = pdf

    # --- text helpers

    def clean(self, text: str) -> str:
        if self.unicode:
            return text
        out = []
        for ch in text:
            if ord(ch) < 256:
                out.append(ch)
            elif ch in _SPELLED:
                out.append(_SPELLED[ch])
            else:
                ascii_form = (
                    unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
                )
                out.append(ascii_form or "?")
        return "".join(out).replace("  ", " ")

    def style(self, size: float, *, bold: bool = False, color=_INK) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)
        self.pdf.set_text_color(*color)

    def fit(self, text: str, width: float) -> str:
        """`text` shortened with an ellipsis to fit `width` in the current font."""
        text = self.clean(text)
        if self.pdf.get_string_width(text) <= width:
            return text
        ellipsis = "…" if self.unicode else "..."
        while text and self.pdf.get_string_width(text + ellipsis) > width:
            text = text[:-1]
        return text.rstrip() + ellipsis

    def text_at(
        self, x: float, y: float, text: str, *, size: float, bold=False, color=_INK, width=None
    ) -> None:
        """Text with its baseline at `y`, cut to `width` when given."""
        self.style(size, bold=bold, color=color)
        shown = self.fit(text, width) if width else self.clean(text)
        self.pdf.text(x, y, shown)

    def right_at(self, x_right: float, y: float, text: str, *, size: float, bold=False, color=_INK):
        self.style(size, bold=bold, color=color)
        shown = self.clean(text)
        self.pdf.text(x_right - self.pdf.get_string_width(shown), y, shown)

    # --- one sheet

    def sheet(self, sheet: DeckSheet, *, event_name: str, subtitle: str) -> None:
        self.pdf.add_page()
        self.pdf.start_section(self.clean(sheet.player_name) or "?")
        y = self.header(sheet, event_name=event_name, subtitle=subtitle)
        y = self.verdict(sheet, y + 4)
        rows = _rows(sheet.lines)
        page = 1
        while True:
            rows = self.columns(rows, y + 3)
            self.footer(sheet, event_name, page)
            if not rows:
                break
            page += 1
            self.pdf.add_page()
            self.text_at(_MARGIN, _MARGIN + 6, sheet.player_name, size=14, bold=True, width=_WIDTH)
            self.right_at(_PAGE_W - _MARGIN, _MARGIN + 6, "continued", size=9, color=_MUTED)
            y = _MARGIN + 10

    def header(self, sheet: DeckSheet, *, event_name: str, subtitle: str) -> float:
        pdf = self.pdf
        top = _MARGIN + 4
        self.text_at(_MARGIN, top, event_name, size=9, color=_MUTED, width=_WIDTH * 0.65)
        if subtitle:
            self.right_at(_PAGE_W - _MARGIN, top, subtitle, size=9, color=_MUTED)
        self.text_at(_MARGIN, top + 10, sheet.player_name, size=20, bold=True, width=_WIDTH)
        boxes = [
            ("Player ID", sheet.player_id or "—"),
            ("Division", sheet.division or "—"),
            (
                "List",
                (f"version {sheet.version}" if sheet.version else "—")
                + (f", {sheet.submitted}" if sheet.submitted else ""),
            ),
        ]
        box_top, box_h = top + 15, 12.0
        widths = (45.0, 45.0, _WIDTH - 90.0)
        x = _MARGIN
        pdf.set_draw_color(*_LINE)
        pdf.set_line_width(0.3)
        for (label, value), width in zip(boxes, widths, strict=True):
            pdf.rect(x, box_top, width, box_h)
            self.text_at(x + 2, box_top + 4, label.upper(), size=6.5, color=_MUTED)
            self.text_at(x + 2, box_top + 9.5, value, size=11, bold=True, width=width - 4)
            x += width
        return box_top + box_h

    def verdict(self, sheet: DeckSheet, y: float) -> float:
        pdf = self.pdf
        count = f"{sheet.card_count} cards" if sheet.card_count is not None else ""
        if sheet.legal is None:
            head, color, background = "No verdict", _MUTED, (240, 242, 245)
        elif sheet.legal:
            head, color, background = "Legal", _OK, _OK_BG
        else:
            head, color, background = "NOT LEGAL", _ERR, _ERR_BG
        pdf.set_fill_color(*background)
        pdf.rect(_MARGIN, y, _WIDTH, 8, style="F")
        self.text_at(_MARGIN + 2, y + 5.6, head, size=12, bold=True, color=color)
        self.style(12, bold=True)
        head_w = pdf.get_string_width(self.clean(head))
        if count:
            self.text_at(_MARGIN + 6 + head_w, y + 5.6, count, size=10, color=_INK)
        y += 8
        findings = list(sheet.findings)
        shown = findings[:_MAX_FINDINGS]
        if len(findings) > _MAX_FINDINGS:
            shown.append(f"… and {len(findings) - _MAX_FINDINGS} more (see the verdict online).")
        self.style(8.5, color=_ERR if sheet.legal is False else _MUTED)
        for message in shown:
            pdf.set_xy(_MARGIN + 2, y + 1)
            pdf.multi_cell(_WIDTH - 4, 3.8, self.clean(message), align="L")
            y = pdf.get_y()
        return y

    def columns(self, rows: list[tuple[str, object]], top: float) -> list[tuple[str, object]]:
        """Lay the rows out in two columns from `top` down, a new section starting the second
        column when that balances them (Pokémon on the left, Trainer and Energy on the
        right, typically); else the rows flow from column to column. Returns the rows that
        did not fit."""
        height = _LIST_BOTTOM - top
        splits = [i for i, (kind, _) in enumerate(rows) if kind == "heading" and i] + [len(rows)]
        split = min(splits, key=lambda i: max(_weight(rows[:i]), _weight(rows[i:])))
        tallest = max(_weight(rows[:split]), _weight(rows[split:]), 1.0)
        if tallest * _MIN_ROW <= height:
            row_h = min(_MAX_ROW, height / tallest)
            for column, part in enumerate((rows[:split], rows[split:])):
                self.column(list(part), column, top, row_h)
            return []
        rows = list(rows)
        for column in range(2):
            rows = self.column(rows, column, top, _MIN_ROW)
        return rows

    def column(self, rows: list[tuple[str, object]], column: int, top: float, row_h: float):
        """Draw rows down one column while they fit; returns the rest."""
        size = min(10.5, row_h * 1.75)
        if rows and rows[0][0] == "card":
            rows.insert(0, ("heading", (f"{rows[0][1].section}, continued", "")))
        x = _MARGIN + column * (_COLUMN_W + _COLUMN_GAP)
        y = top
        while rows:
            kind, item = rows[0]
            need = row_h * (_HEADING_ROWS if kind == "heading" else 1.0)
            # A heading needs room for itself and one line after it.
            room = need + (row_h if kind == "heading" else 0)
            if y + room > _LIST_BOTTOM + 0.01:
                break
            rows.pop(0)
            if kind == "heading":
                self.heading(x, y + need - 1.2, item, size)
            else:
                self.card_row(x, y + row_h - 1.1, item, size)
            y += need
        return rows

    def heading(self, x: float, baseline: float, item, size: float) -> None:
        title, count = item
        self.text_at(x, baseline, title, size=size + 0.5, bold=True)
        self.right_at(x + _COLUMN_W, baseline, str(count), size=size + 0.5, bold=True)
        self.pdf.set_draw_color(*_INK)
        self.pdf.set_line_width(0.3)
        self.pdf.line(x, baseline + 1.0, x + _COLUMN_W, baseline + 1.0)

    def card_row(self, x: float, baseline: float, line: SheetLine, size: float) -> None:
        count_w, printing_w = 9.0, 18.0 if line.printing else 0.0
        self.right_at(x + count_w - 2, baseline, str(line.count), size=size, bold=True)
        self.text_at(
            x + count_w, baseline, line.name, size=size, width=_COLUMN_W - count_w - printing_w - 1
        )
        if line.printing:
            self.style(size * 0.85, color=_MUTED)
            shown = self.fit(line.printing, printing_w)
            self.pdf.text(x + _COLUMN_W - self.pdf.get_string_width(shown), baseline, shown)
        self.pdf.set_draw_color(*_LINE)
        self.pdf.set_line_width(0.1)
        self.pdf.line(x, baseline + 1.0, x + _COLUMN_W, baseline + 1.0)

    def footer(self, sheet: DeckSheet, event_name: str, page: int) -> None:
        text = f"{event_name} · {sheet.player_name}" + (f" · page {page}" if page > 1 else "")
        self.text_at(_MARGIN, _FOOTER_Y, text, size=7.5, color=_MUTED, width=_WIDTH * 0.7)
        self.right_at(
            _PAGE_W - _MARGIN, _FOOTER_Y, "Checked by: ______________", size=7.5, color=_MUTED
        )


def _weight(rows: Sequence[tuple[str, object]]) -> float:
    return sum(_HEADING_ROWS if kind == "heading" else 1.0 for kind, _ in rows)


def _rows(lines: Sequence[SheetLine]) -> list[tuple[str, object]]:
    """Headings (section, card count) and card lines: Pokémon, Trainer, Energy, then any
    other section in the order met."""
    order = list(SECTIONS)
    for line in lines:
        if line.section not in order:
            order.append(line.section)
    rows: list[tuple[str, object]] = []
    for section in order:
        members = [line for line in lines if line.section == section]
        if not members:
            continue
        rows.append(("heading", (section, sum(line.count for line in members))))
        rows.extend(("card", line) for line in members)
    return rows
