"""Printable deck registration sheets: `decklists_pdf(sheets, event_name=...) -> bytes`, one
A4 page per player (a list too long for one page goes on over a second), in the layout of
the Play! Pokémon deck registration sheet: the player's name, player ID and date of birth,
the event and its date, the age division's check boxes, then the Pokémon, Trainer and
Energy tables (quantity, name, set, collector number), each with its count, and the totals.
The site's check of the list (legal or not, its findings) sits above the tables for the
staff who check decks. Drawn by hand with fpdf2 because the official sheet is a fixed form,
not a flowing document.

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

The package: `layout.py` (what a sheet holds), `drawing.py` (drawing it), `fonts.py`
(the font and the Latin-1 fallback, shared by every printed page).
"""

from .drawing import decklists_pdf
from .fonts import FONT_CANDIDATES, find_font
from .layout import SECTIONS, UNKNOWN_SECTION, DeckSheet, SheetLine, deck_sheet, sheet_lines

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
