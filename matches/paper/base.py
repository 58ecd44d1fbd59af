"""What every venue sheet shares: the page sizes, the embedded font (the deck sheet's,
`decks.printing.find_font`, with the same Latin-1 fallback: `Sheet` is a
`decks.printing.canvas.Canvas`), and text helpers in millimetres with the baseline at `y`.

Type is sized for a cheap laser printer: nothing below 7 pt, names at 11 pt or more, and
only black and one grey (toner, not colour)."""

from __future__ import annotations

from decks.printing import find_font
from decks.printing.canvas import Canvas

#: Page sizes in millimetres (portrait): the two the organisers print on.
PAGE_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

INK, MUTED, RULE = (0, 0, 0), (80, 80, 80), (150, 150, 150)
SHADE = (225, 225, 225)


def page_size(name: str) -> tuple[float, float]:
    """(width, height) of `a4` or `letter`; anything else is A4."""
    return PAGE_SIZES.get(name, PAGE_SIZES["a4"])


class Sheet(Canvas):
    """A venue sheet: the printed page of `decks.printing` in black and grey, with the page
    size the organiser chose, and the helpers of the lists and slips."""

    ink = INK

    def __init__(self, size: str, *, title: str, font=True, compress: bool = True):
        width, height = page_size(size)
        found = find_font() if font is True else (font or None)
        super().__init__(width=width, height=height, font=found, compress=compress, family="Venue")
        self.pdf.set_title(title)
        self.pdf.set_creator("Pokémon TCG League")

    def output(self) -> bytes:
        if not self.pdf.pages:
            self.pdf.add_page()
        return bytes(self.pdf.output())

    def text(self, x, y, text, *, size, bold=False, color=INK, width=None) -> None:
        self.style(size, bold=bold, color=color)
        self.pdf.text(x, y, self.fit(text, width) if width else self.clean(text))

    def right(self, x_right, y, text, *, size, bold=False, color=INK) -> None:
        self.style(size, bold=bold, color=color)
        shown = self.clean(text)
        self.pdf.text(x_right - self.pdf.get_string_width(shown), y, shown)

    def centre(self, x_mid, y, text, *, size, bold=False, color=INK) -> None:
        self.style(size, bold=bold, color=color)
        shown = self.clean(text)
        self.pdf.text(x_mid - self.pdf.get_string_width(shown) / 2, y, shown)

    def qr(self, x: float, y: float, size: float, url: str) -> None:
        """`url` as a QR code (segno, error correction M) drawn as filled rectangles, one a
        run of dark modules: sharp at any printer's resolution. The white quiet zone of 4
        modules is inside `size`."""
        import segno  # noqa: PLC0415 (with fpdf2: only printing needs it)

        # A fixed mask: choosing the best of eight costs ten times the encoding, for
        # codes that scan as well on paper.
        matrix = segno.make(url, error="m", micro=False, mask=4).matrix
        module = size / (len(matrix) + 8)
        pdf = self.pdf
        pdf.set_fill_color(*INK)
        for r, row in enumerate(matrix):
            top = y + (r + 4) * module
            c, n = 0, len(row)
            while c < n:
                if row[c] & 1:
                    start = c
                    while c < n and row[c] & 1:
                        c += 1
                    width = (c - start) * module
                    pdf.rect(x + (start + 4) * module, top, width, module * 1.02, style="F")
                else:
                    c += 1
