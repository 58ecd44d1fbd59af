"""Match slips, as TOM prints them: one per table, six to a page (two across, three down,
on A4 or Letter) with dashed cut lines and crop marks at the page's edges.

A slip has the event, the round, the table (and division), both players' names and Play!
Pokémon ids, a box per game for each player (best of 1 or 3: write W, L or T), what the
event's rules ask beside the result ("won both ways" when the format has it; how sudden
death is played), both players' signature lines, and a QR code to the match's page on the
site: staff who scan a filled slip land on the match's result entry, a player on their
report form (the page routes by who opens it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .base import MUTED, RULE, Sheet

ACROSS, DOWN = 2, 3
PER_PAGE = ACROSS * DOWN
MARGIN = 6.0  # the page's unprinted edge
PAD = 4.5  # inside a slip
QR_SIZE = 27.0


@dataclass(frozen=True)
class Slip:
    table: int
    division: str  # the division's name, blank when the divisions play together
    a_name: str
    a_id: str
    b_name: str
    b_id: str
    url: str  # the match's page


@dataclass(frozen=True)
class SlipRules:
    """What the event's rules add to a slip."""

    best_of: int = 1
    both_ways: bool = False  # the format's "won both ways" rule
    sudden_death: str = ""  # how sudden death is played, in words


def slips_pdf(
    slips: Sequence[Slip],
    *,
    event_name: str,
    round_label: str,
    rules: SlipRules,
    size: str = "a4",
    compress: bool = True,
) -> bytes:
    """The round's match slips, in the order given (by table)."""
    sheet = Sheet(
        size,
        title=_("Match slips · %(round)s · %(event)s")
        % {"round": round_label, "event": event_name},
        compress=compress,
    )
    w = (sheet.width - 2 * MARGIN) / ACROSS
    h = (sheet.height - 2 * MARGIN) / DOWN
    for start in range(0, len(slips), PER_PAGE):
        sheet.pdf.add_page()
        _cut_marks(sheet, w, h)
        for i, slip in enumerate(slips[start : start + PER_PAGE]):
            x = MARGIN + (i % ACROSS) * w
            y = MARGIN + (i // ACROSS) * h
            _slip(
                sheet, slip, x, y, w, h, event_name=event_name, round_label=round_label, rules=rules
            )
    if not slips:
        sheet.pdf.add_page()
        sheet.text(MARGIN + 6, MARGIN + 12, _("No matches in this round."), size=14)
    return sheet.output()


def _cut_marks(sheet: Sheet, w: float, h: float) -> None:
    """Dashed cut lines between the slips and crop marks in the page's margin."""
    pdf = sheet.pdf
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.25)
    pdf.set_dash_pattern(dash=2, gap=1.5)
    for i in range(1, ACROSS):
        x = MARGIN + i * w
        pdf.line(x, MARGIN, x, sheet.height - MARGIN)
    for j in range(1, DOWN):
        y = MARGIN + j * h
        pdf.line(MARGIN, y, sheet.width - MARGIN, y)
    pdf.set_dash_pattern()
    pdf.set_draw_color(0, 0, 0)
    for i in range(ACROSS + 1):
        x = MARGIN + i * w
        pdf.line(x, 0, x, MARGIN - 1.5)
        pdf.line(x, sheet.height - MARGIN + 1.5, x, sheet.height)
    for j in range(DOWN + 1):
        y = MARGIN + j * h
        pdf.line(0, y, MARGIN - 1.5, y)
        pdf.line(sheet.width - MARGIN + 1.5, y, sheet.width, y)


def _slip(sheet: Sheet, slip: Slip, x, y, w, h, *, event_name, round_label, rules) -> None:
    pdf = sheet.pdf
    left, right = x + PAD, x + w - PAD
    inner = right - left
    # Head: event and round, then the table in large type.
    sheet.text(left, y + PAD + 3, event_name, size=7.5, color=MUTED, width=inner - QR_SIZE - 2)
    sheet.text(left, y + PAD + 12, _("TABLE %(table)s") % {"table": slip.table}, size=19, bold=True)
    sub = round_label + (f" · {slip.division}" if slip.division else "")
    sheet.text(left, y + PAD + 18, sub, size=10, bold=True, width=inner - QR_SIZE - 2)
    sheet.qr(right - QR_SIZE + 2, y + PAD - 2, QR_SIZE, slip.url)
    sheet.centre(
        right - QR_SIZE / 2 + 2, y + PAD + QR_SIZE - 1, _("scan to report"), size=7, color=MUTED
    )
    # The players, each with a box per game.
    games = max(1, rules.best_of)
    box, gap = 8.0, 1.5
    boxes_w = games * box + (games - 1) * gap
    top = y + PAD + QR_SIZE + 1
    for label in (str(n) for n in range(1, games + 1)):
        i = int(label) - 1
        sheet.centre(
            right - boxes_w + i * (box + gap) + box / 2,
            top + 1,
            # Translators: G1, G2, ...: game 1, game 2 of a match (a short abbreviation).
            _("G%(number)s") % {"number": label},
            size=7,
            bold=True,
            color=MUTED,
        )
    name_w = inner - boxes_w - 3
    for n, (name, pid) in enumerate(((slip.a_name, slip.a_id), (slip.b_name, slip.b_id))):
        row = top + 2 + n * 12
        sheet.text(left, row + 5, name, size=11.5, bold=True, width=name_w)
        sheet.text(
            left,
            row + 9.5,
            _("Player ID %(id)s") % {"id": pid} if pid else _("Player ID"),
            size=7.5,
            color=MUTED,
        )
        pdf.set_draw_color(0, 0, 0)
        pdf.set_line_width(0.35)
        for i in range(games):
            pdf.rect(right - boxes_w + i * (box + gap), row + 1, box, box)
    line = top + 2 + 2 * 12 + 3
    hint = (
        # Translators: W, L, T: win, loss, tie; use the letters players write in your language.
        _("Write W, L or T in each game's box (the games in the order played).")
        if games > 1
        else _("Write W, L or T in each game's box.")
    )
    sheet.text(left, line, hint, size=7, color=MUTED, width=inner)
    if rules.both_ways:
        line += 4.2
        sheet.text(
            left,
            line,
            _("Both won at once? Won both ways: [ ] %(a)s  [ ] %(b)s  [ ] neither")
            % {"a": _first(slip.a_name), "b": _first(slip.b_name)},
            size=7.5,
            width=inner,
        )
    if rules.sudden_death:
        line += 4.2
        # Translators: "Sudden death" is the official TCG term (see the glossary).
        text = _("Sudden death: %(rule)s") % {"rule": rules.sudden_death}
        sheet.text(left, line, text, size=7.5, width=inner)
    # The winner, then the signatures, at the foot.
    foot = y + h - PAD - 1
    sheet.text(
        left,
        foot - 11,
        _("Match winner: ______________________  Tie [ ]"),
        size=9,
        bold=True,
        width=inner,
    )
    half = (inner - 4) / 2
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.3)
    for i, name in enumerate((slip.a_name, slip.b_name)):
        sx = left + i * (half + 4)
        pdf.line(sx, foot - 4, sx + half, foot - 4)
        sheet.text(
            sx, foot, _("Signature: %(player)s") % {"player": name}, size=7, color=MUTED, width=half
        )


def _first(name: str) -> str:
    """A player's first name, to tick on the slip."""
    return (name.split() or [name])[0][:14]
