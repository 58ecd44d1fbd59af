"""What a deck registration sheet holds, before any drawing: `SheetLine`, `DeckSheet`,
`deck_sheet` (one player's sheet from a stored list and its verdict), `sheet_lines` (a
list's lines under their card's supertype: the one order of a list's lines, used by the
sheet and the judges' deck check) and the rows the tables are drawn from (`sheet_rows`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from rules.cards import CardIndex

from ..findings_text import word_record
from ..parser import parse_decklist

SECTIONS = ("Pokémon", "Trainer", "Energy")
UNKNOWN_SECTION = "Not in the card data"


@dataclass(frozen=True)
class SheetLine:
    count: int
    name: str
    section: str  # one of SECTIONS, or any other heading (printed after them)
    printing: str = ""  # how the list named the printing, e.g. "SVI 57"


@dataclass(frozen=True)
class DeckSheet:
    """One player's sheet. `legal` is None when the list has no verdict; `findings` are the
    verdict's messages (errors first), worded in the active language."""

    player_name: str
    player_id: str
    division: str
    lines: Sequence[SheetLine]
    legal: bool | None = None
    card_count: int | None = None
    findings: Sequence[str] = field(default_factory=tuple)
    version: int | None = None
    submitted: str = ""  # when the list was submitted, already formatted
    birth_date: str = ""  # already formatted, as the sheet asks for it
    event_date: str = ""  # already formatted


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
    birth_date: str = "",
    event_date: str = "",
) -> DeckSheet:
    """One player's sheet from a stored decklist: its lines under their sections, the
    verdict's messages (errors first, then warnings) in the active language, and when it
    was submitted (`submitted_at` in the time zone to print)."""
    verdict = verdict or {}
    findings = [word_record(f) for f in verdict.get("errors", [])]
    findings += [
        _("Warning: %(message)s") % {"message": word_record(f)} for f in verdict.get("warnings", [])
    ]
    return DeckSheet(
        player_name=player_name,
        player_id=player_id,
        division=division,
        lines=sheet_lines(text, index),
        legal=legal,
        card_count=card_count,
        findings=findings,
        version=version,
        submitted=date_format(submitted_at, "j M Y, H:i") if submitted_at else "",
        birth_date=birth_date,
        event_date=event_date,
    )


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


#: A section heading takes the height of this many card rows.
HEADING_ROWS = 2.0


def printing_parts(printing: str) -> tuple[str, str]:
    """("SVI", "57") from "SVI 57"; a printing without a number is all set code."""
    set_code, _, number = printing.strip().rpartition(" ")
    return (set_code, number) if set_code else (number, "")


def rows_weight(rows: Sequence[tuple[str, object]]) -> float:
    return sum(HEADING_ROWS if kind == "heading" else 1.0 for kind, _ in rows)


def sheet_rows(lines: Sequence[SheetLine]) -> list[tuple[str, object]]:
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
