"""Fonts for the printed pages: the first TrueType font of `FONT_CANDIDATES` on disk
(Debian's `fonts-dejavu-core` gives DejaVu Sans), and `plain_text`, which spells out the
marks of card names that Latin-1 lacks for the PDF core-font fallback (`Nidoran ♀` becomes
`Nidoran F`, `Rayquaza ★` becomes `Rayquaza Star`)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

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
    "★": " Star",
    "☆": " Star",
    "◇": " Prism Star",
    "♀": " F",
    "♂": " M",
    "δ": " Delta",
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "–": "-",
    "—": "-",
    "…": "...",
}


def find_font() -> tuple[str, str | None] | None:
    """(regular, bold or None) of the first candidate font on disk, or None."""
    for regular, bold in FONT_CANDIDATES:
        if Path(regular).is_file():
            return regular, bold if Path(bold).is_file() else None
    return None


def plain_text(text: str) -> str:
    """`text` in Latin-1, for a core font: marks spelled out, other letters without accents."""
    out = []
    for ch in text:
        if ord(ch) < 256:
            out.append(ch)
        elif ch in _SPELLED:
            out.append(_SPELLED[ch])
        else:
            ascii_form = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
            out.append(ascii_form or "?")
    return "".join(out).replace("  ", " ")
