"""The deck registration sheet drawn with fpdf2, by hand: the official sheet is a fixed
form, not a flowing document. `decklists_pdf(sheets, event_name=...) -> bytes`, one A4 page
per player (a list too long for one page goes on over a second); each page starts a PDF
outline entry named after its player."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from .canvas import Canvas
from .fonts import find_font
from .layout import (
    HEADING_ROWS,
    SECTIONS,
    UNKNOWN_SECTION,
    DeckSheet,
    SheetLine,
    printing_parts,
    rows_weight,
    sheet_rows,
)

# Page geometry, millimetres (A4 portrait).
_PAGE_W, _PAGE_H, _MARGIN = 210.0, 297.0, 12.0
_WIDTH = _PAGE_W - 2 * _MARGIN
_COLUMN_GAP = 5.0
_COLUMN_W = (_WIDTH - _COLUMN_GAP) / 2
_QTY_W, _SET_W, _NO_W = 9.0, 13.0, 11.0  # the table's columns; the name takes the rest
_FOOTER_Y = _PAGE_H - _MARGIN + 5
_TOTALS_Y = _PAGE_H - _MARGIN - 8
_LIST_BOTTOM = _TOTALS_Y - 2
_MIN_ROW, _MAX_ROW = 3.8, 5.6
_MAX_FINDINGS = 4
DIVISIONS = ("Junior", "Senior", "Masters")


def _division_word(name: str) -> str:
    # Translators: the Play! Pokémon age divisions, as printed on the official sheet.
    return {
        "Junior": pgettext("age division", "Junior"),
        "Senior": pgettext("age division", "Senior"),
        "Masters": pgettext("age division", "Masters"),
    }.get(name, name)


def _section_word(section: str) -> str:
    """A section of the list in the reader's language (a heading of the list's own, as
    written, is printed as it is)."""
    return {
        "Pokémon": pgettext("card supertype", "Pokémon"),
        "Trainer": pgettext("card supertype", "Trainer"),
        "Energy": pgettext("card supertype", "Energy"),
        UNKNOWN_SECTION: pgettext("card supertype", "Not in the card data"),
    }.get(section, section)


_INK, _MUTED, _LINE = (29, 36, 48), (91, 101, 117), (170, 178, 190)
_HEAD_BG = (228, 232, 238)
_OK, _OK_BG = (29, 122, 58), (232, 245, 236)
_ERR, _ERR_BG = (176, 32, 32), (253, 236, 236)


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
    writer.pdf.set_title(_("Decklists · %(event)s") % {"event": event_name})
    writer.pdf.set_creator("Pokémon TCG League")
    for sheet in sheets:
        writer.sheet(sheet, event_name=event_name, subtitle=subtitle)
    if not writer.pdf.pages:
        writer.pdf.add_page()
        writer.text_at(_MARGIN, _MARGIN + 10, _("No decklists submitted."), size=14)
    return bytes(writer.pdf.output())


class _Writer(Canvas):
    ink = _INK

    def __init__(self, font: tuple[str, str | None] | None, *, compress: bool):
        super().__init__(
            width=_PAGE_W, height=_PAGE_H, font=font, compress=compress, family="Sheet"
        )
        self.pdf.set_margins(_MARGIN, _MARGIN, _MARGIN)

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

    # --- one sheet: the Play! Pokémon deck registration sheet's layout

    def sheet(self, sheet: DeckSheet, *, event_name: str, subtitle: str) -> None:
        self.pdf.add_page()
        self.pdf.start_section(self.clean(sheet.player_name) or "?")
        y = self.header(sheet, event_name=event_name, subtitle=subtitle)
        y = self.verdict(sheet, y + 2.5)
        rows = sheet_rows(sheet.lines)
        page = 1
        while True:
            rows = self.columns(rows, y + 3)
            self.footer(sheet, event_name, page)
            if not rows:
                break
            page += 1
            self.pdf.add_page()
            self.text_at(_MARGIN, _MARGIN + 6, sheet.player_name, size=14, bold=True, width=_WIDTH)
            continued = pgettext("sheet page", "continued")
            self.right_at(_PAGE_W - _MARGIN, _MARGIN + 6, continued, size=9, color=_MUTED)
            y = _MARGIN + 10
        self.totals(sheet)

    def header(self, sheet: DeckSheet, *, event_name: str, subtitle: str) -> float:
        """The title bar, then the player's boxes (name, player ID, date of birth), the
        event's (name, date) and the age division's check boxes."""
        pdf = self.pdf
        top = _MARGIN
        pdf.set_fill_color(*_INK)
        pdf.rect(_MARGIN, top, _WIDTH, 11, style="F")
        self.text_at(
            _MARGIN + 3,
            top + 4.2,
            _("POKÉMON TRADING CARD GAME"),
            size=6.5,
            color=(255, 255, 255),
        )
        self.text_at(
            _MARGIN + 3,
            top + 9,
            _("DECK REGISTRATION SHEET"),
            size=13,
            bold=True,
            color=(255, 255, 255),
        )
        self.right_at(
            _PAGE_W - _MARGIN - 3,
            top + 7.2,
            "Play! Pokémon",
            size=9,
            bold=True,
            color=(255, 255, 255),
        )
        y = top + 13
        y = self.boxes(
            y,
            [
                (_("Player name"), sheet.player_name, _WIDTH - 80),
                (_("Player ID"), sheet.player_id, 40),
                (_("Date of birth"), sheet.birth_date, 40),
            ],
        )
        y = self.boxes(
            y,
            [
                (_("Event"), event_name, _WIDTH - 80),
                (_("Event date"), sheet.event_date or subtitle, 40),
                (_("Judge initials (deck check)"), "", 40),
            ],
        )
        return self.divisions(y, sheet.division)

    def boxes(self, y: float, boxes: list[tuple[str, str, float]]) -> float:
        pdf, h, x = self.pdf, 11.0, _MARGIN
        pdf.set_draw_color(*_INK)
        pdf.set_line_width(0.3)
        for label, value, width in boxes:
            pdf.rect(x, y, width, h)
            self.text_at(x + 1.8, y + 3.4, label.upper(), size=6, color=_MUTED)
            self.text_at(x + 1.8, y + 8.8, value or "", size=10.5, bold=True, width=width - 3.6)
            x += width
        return y + h

    def divisions(self, y: float, division: str) -> float:
        """ "Age division" with a box per division, the player's one crossed."""
        pdf, h = self.pdf, 8.0
        pdf.rect(_MARGIN, y, _WIDTH, h)
        self.text_at(_MARGIN + 1.8, y + 5.2, _("AGE DIVISION"), size=6, color=_MUTED)
        x = _MARGIN + 30
        for name in DIVISIONS:
            pdf.rect(x, y + 2, 4, 4)
            if division.lower().startswith(name.lower()[:5]):
                pdf.set_line_width(0.5)
                pdf.line(x + 0.6, y + 2.6, x + 3.4, y + 5.4)
                pdf.line(x + 0.6, y + 5.4, x + 3.4, y + 2.6)
                pdf.set_line_width(0.3)
            self.text_at(
                x + 6,
                y + 5.4,
                _division_word(name),
                size=9.5,
                bold=division.lower().startswith(name.lower()[:5]),
            )
            x += 38
        return y + h

    def verdict(self, sheet: DeckSheet, y: float) -> float:
        """The site's check of the list (for the staff who check it), with its findings."""
        pdf = self.pdf
        count = ""
        if sheet.card_count is not None:
            count = ngettext("%(count)s card", "%(count)s cards", sheet.card_count) % {
                "count": sheet.card_count
            }
        if sheet.legal is None:
            head, color, background = _("No verdict"), _MUTED, (240, 242, 245)
        elif sheet.legal:
            head, color, background = _("Legal"), _OK, _OK_BG
        else:
            head, color, background = _("NOT LEGAL"), _ERR, _ERR_BG
        pdf.set_fill_color(*background)
        pdf.rect(_MARGIN, y, _WIDTH, 6.5, style="F")
        self.text_at(_MARGIN + 2, y + 4.6, _("Site check:"), size=8, color=_MUTED)
        self.text_at(_MARGIN + 19, y + 4.6, head, size=10, bold=True, color=color)
        self.style(10, bold=True)
        head_w = pdf.get_string_width(self.clean(head))
        if count:
            self.text_at(_MARGIN + 22 + head_w, y + 4.6, count, size=9, color=_INK)
        if sheet.version and sheet.submitted:
            listed = _("list version %(version)s, submitted %(when)s") % {
                "version": sheet.version,
                "when": sheet.submitted,
            }
        elif sheet.version:
            listed = _("list version %(version)s") % {"version": sheet.version}
        elif sheet.submitted:
            listed = _(", submitted %(when)s") % {"when": sheet.submitted}
        else:
            listed = ""
        if listed:
            self.right_at(_PAGE_W - _MARGIN - 2, y + 4.6, listed, size=8, color=_MUTED)
        y += 6.5
        findings = list(sheet.findings)
        shown = findings[:_MAX_FINDINGS]
        if len(findings) > _MAX_FINDINGS:
            more = len(findings) - _MAX_FINDINGS
            shown.append(_("… and %(count)s more (see the verdict online).") % {"count": more})
        self.style(8, color=_ERR if sheet.legal is False else _MUTED)
        for message in shown:
            pdf.set_xy(_MARGIN + 2, y + 0.6)
            pdf.multi_cell(_WIDTH - 4, 3.6, self.clean(message), align="L")
            y = pdf.get_y()
        return y

    def columns(self, rows: list[tuple[str, object]], top: float) -> list[tuple[str, object]]:
        """Lay the rows out in two columns from `top` down, a new section starting the second
        column when that balances them (Pokémon on the left, Trainer and Energy on the
        right, as on the official sheet); else the rows flow from column to column. Each
        column's last table is ruled down to the bottom with empty rows, as on the form.
        Returns the rows that did not fit."""
        height = _LIST_BOTTOM - top
        splits = [i for i, (kind, _) in enumerate(rows) if kind == "heading" and i] + [len(rows)]
        split = min(splits, key=lambda i: max(rows_weight(rows[:i]), rows_weight(rows[i:])))
        tallest = max(rows_weight(rows[:split]), rows_weight(rows[split:]), 1.0)
        if tallest * _MIN_ROW <= height:
            row_h = min(_MAX_ROW, height / tallest)
            for column, part in enumerate((rows[:split], rows[split:])):
                self.column(list(part), column, top, row_h, pad=True)
            return []
        rows = list(rows)
        for column in range(2):
            rows = self.column(rows, column, top, _MIN_ROW, pad=False)
        return rows

    def column(self, rows, column: int, top: float, row_h: float, *, pad: bool):
        """Draw rows down one column while they fit; returns the rest."""
        size = min(9.5, row_h * 1.75)
        if rows and rows[0][0] == "card":
            section = _section_word(rows[0][1].section)
            rows.insert(0, ("heading", (_("%(section)s, continued") % {"section": section}, "")))
        x = _MARGIN + column * (_COLUMN_W + _COLUMN_GAP)
        y = top
        while rows:
            kind, item = rows[0]
            need = row_h * (HEADING_ROWS if kind == "heading" else 1.0)
            # A heading needs room for itself and one line after it.
            room = need + (row_h if kind == "heading" else 0)
            if y + room > _LIST_BOTTOM + 0.01:
                break
            rows.pop(0)
            if kind == "heading":
                self.heading(x, y, need, item, size)
            else:
                self.card_row(x, y, row_h, item, size)
            y += need
        while pad and y > top and y + row_h <= _LIST_BOTTOM + 0.01:
            self.card_row(x, y, row_h, None, size)
            y += row_h
        return rows

    def heading(self, x: float, y: float, height: float, item, size: float) -> None:
        """A section's bar (its name and card count) over the table's column heads."""
        title, count = item
        pdf, bar = self.pdf, height * 0.58
        pdf.set_fill_color(*_INK)
        pdf.rect(x, y, _COLUMN_W, bar, style="F")
        white = (255, 255, 255)
        title = _section_word(title)
        self.text_at(x + 1.5, y + bar - 1.3, title.upper(), size=size, bold=True, color=white)
        if count != "":
            self.right_at(
                x + _COLUMN_W - 1.5,
                y + bar - 1.3,
                ngettext("%(count)s card", "%(count)s cards", count) % {"count": count},
                size=size - 1,
                bold=True,
                color=white,
            )
        pdf.set_fill_color(*_HEAD_BG)
        pdf.rect(x, y + bar, _COLUMN_W, height - bar, style="DF")
        base = y + height - 1.0
        small = max(5.5, size - 3)
        heads = (
            (x + 1.2, pgettext("sheet column: quantity", "QTY")),
            (x + _QTY_W + 1.5, pgettext("sheet column: card name", "NAME")),
            (x + _COLUMN_W - _SET_W - _NO_W + 1.2, pgettext("sheet column: set code", "SET")),
            (x + _COLUMN_W - _NO_W + 1.2, pgettext("sheet column: collector number", "NO.")),
        )
        for head_x, head in heads:
            self.text_at(head_x, base, head, size=small, bold=True, color=_MUTED)

    def card_row(self, x: float, y: float, height: float, line: SheetLine | None, size: float):
        """One ruled row: quantity, name, set and collector number (an empty row when
        `line` is None)."""
        pdf = self.pdf
        pdf.set_draw_color(*_LINE)
        pdf.set_line_width(0.2)
        pdf.rect(x, y, _COLUMN_W, height)
        for edge in (_QTY_W, _COLUMN_W - _SET_W - _NO_W, _COLUMN_W - _NO_W):
            pdf.line(x + edge, y, x + edge, y + height)
        if line is None:
            return
        base = y + height - (height - size * 0.3528) / 2 - 0.35
        self.right_at(x + _QTY_W - 1.5, base, str(line.count), size=size, bold=True)
        name_w = _COLUMN_W - _QTY_W - _SET_W - _NO_W - 2.5
        self.text_at(x + _QTY_W + 1.5, base, line.name, size=size, width=name_w)
        set_code, number = printing_parts(line.printing)
        self.text_at(
            x + _COLUMN_W - _SET_W - _NO_W + 1.2, base, set_code, size=size * 0.9, width=_SET_W - 2
        )
        self.text_at(x + _COLUMN_W - _NO_W + 1.2, base, number, size=size * 0.9, width=_NO_W - 2)

    def totals(self, sheet: DeckSheet) -> None:
        """The totals box on the sheet's last page: each section's cards and the deck's."""
        pdf, y = self.pdf, _TOTALS_Y
        counts = {s: sum(line.count for line in sheet.lines if line.section == s) for s in SECTIONS}
        other = sum(line.count for line in sheet.lines if line.section not in SECTIONS)
        parts = [(_section_word(s), n) for s, n in counts.items()]
        if other:
            parts.append((pgettext("sheet totals", "Other"), other))
        parts.append((pgettext("sheet totals", "Total"), sum(line.count for line in sheet.lines)))
        pdf.set_draw_color(*_INK)
        pdf.set_line_width(0.3)
        width = _WIDTH / len(parts)
        for i, (label, count) in enumerate(parts):
            x = _MARGIN + i * width
            last = i == len(parts) - 1
            if last:
                pdf.set_fill_color(*_HEAD_BG)
            pdf.rect(x, y, width, 8, style="DF" if last else "D")
            self.text_at(x + 2, y + 5.5, f"{label.upper()}", size=7, color=_MUTED)
            self.right_at(x + width - 2, y + 5.8, str(count), size=11, bold=True)

    def footer(self, sheet: DeckSheet, event_name: str, page: int) -> None:
        text = f"{event_name} · {sheet.player_name}"
        if page > 1:
            text = _("%(event)s · %(player)s · page %(page)s") % {
                "event": event_name,
                "player": sheet.player_name,
                "page": page,
            }
        self.text_at(_MARGIN, _FOOTER_Y, text, size=7, color=_MUTED, width=_WIDTH * 0.6)
        self.right_at(
            _PAGE_W - _MARGIN,
            _FOOTER_Y,
            _("Checked by (judge): ______________"),
            size=7,
            color=_MUTED,
        )
