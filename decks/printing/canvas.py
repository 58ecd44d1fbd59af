"""The page every printed document is drawn on: an fpdf2 document in the site's font
(`fonts.find_font`, with the Latin-1 fallback of `fonts.plain_text`), no automatic page
breaks, and the text helpers both the deck registration sheet (`drawing.py`) and the
venue's paper (`matches/paper/`) use: `clean`, `style`, `fit`. Sizes in millimetres."""

from __future__ import annotations

from .fonts import plain_text


class Canvas:
    #: The colour of text unless a call names another (RGB).
    ink: tuple[int, int, int] = (29, 36, 48)

    def __init__(
        self,
        *,
        width: float,
        height: float,
        font: tuple[str, str | None] | None,
        compress: bool = True,
        family: str = "Print",
    ):
        """`font` is a (regular, bold or None) pair of TrueType files, or None for the core
        font Helvetica (card names then spelled in Latin-1)."""
        from fpdf import FPDF  # noqa: PLC0415 (fpdf2 costs half a second to import; only printing needs it)

        pdf = FPDF(orientation="P", unit="mm", format=(width, height))
        pdf.set_compression(compress)
        pdf.set_auto_page_break(False)
        self.width, self.height = width, height
        self.unicode = font is not None
        if font is not None:
            regular, bold = font
            pdf.add_font(family, "", regular)
            pdf.add_font(family, "B", bold or regular)
            self.family = family
        else:
            self.family = "Helvetica"
        self.pdf = pdf

    def clean(self, text) -> str:
        text = str(text)
        return text if self.unicode else plain_text(text)

    def style(self, size: float, *, bold: bool = False, color=None) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)
        self.pdf.set_text_color(*(color or self.ink))

    def fit(self, text, width: float) -> str:
        """`text` shortened with an ellipsis to fit `width` in the current font."""
        text = self.clean(text)
        if self.pdf.get_string_width(text) <= width:
            return text
        ellipsis = "…" if self.unicode else "..."
        while text and self.pdf.get_string_width(text + ellipsis) > width:
            text = text[:-1]
        return text.rstrip() + ellipsis
