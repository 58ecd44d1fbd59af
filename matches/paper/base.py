"""What every venue sheet shares: the page sizes, the embedded font (the deck sheet's,
`decks.printing.find_font`, with the same Latin-1 fallback), and text helpers in
millimetres with the baseline at `y`.

Type is sized for a cheap laser printer: nothing below 7 pt, names at 11 pt or more, and
only black and one grey (toner, not colour)."""

from __future__ import annotations

import unicodedata

from decks.printing import find_font

#: Page sizes in millimetres (portrait): the two the organisers print on.
PAGE_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

INK, MUTED, RULE = (0, 0, 0), (80, 80, 80), (150, 150, 150)
SHADE = (225, 225, 225)

_SPELLED = {"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "…": "...", "·": "-"}


def page_size(name: str) -> tuple[float, float]:
    """(width, height) of `a4` or `letter`; anything else is A4."""
    return PAGE_SIZES.get(name, PAGE_SIZES["a4"])


class Sheet:
    """An fpdf2 document with the venue's font and a few helpers."""

    def __init__(self, size: str, *, title: str, font=True, compress: bool = True):
        # Imported here: fpdf2 (with Pillow) is slow to import and most requests never print.
        from fpdf import FPDF

        self.width, self.height = page_size(size)
        pdf = FPDF(orientation="P", unit="mm", format=(self.width, self.height))
        pdf.set_compression(compress)
        pdf.set_auto_page_break(False)
        pdf.set_title(title)
        pdf.set_creator("Pokémon TCG League")
        found = find_font() if font is True else (font or None)
        self.unicode = found is not None
        if found is not None:
            regular, bold = found
            pdf.add_font("Venue", "", regular)
            pdf.add_font("Venue", "B", bold or regular)
            self.family = "Venue"
        else:
            self.family = "Helvetica"
        self.pdf = pdf

    def output(self) -> bytes:
        if not self.pdf.pages:
            self.pdf.add_page()
        return bytes(self.pdf.output())

    def clean(self, text: str) -> str:
        text = str(text)
        if self.unicode:
            return text
        out = []
        for ch in text:
            if ord(ch) < 256:
                out.append(ch)
            elif ch in _SPELLED:
                out.append(_SPELLED[ch])
            else:
                plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
                out.append(plain or "?")
        return "".join(out)

    def style(self, size: float, *, bold: bool = False, color=INK) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)
        self.pdf.set_text_color(*color)

    def fit(self, text: str, width: float) -> str:
        """`text` cut with an ellipsis to `width` in the current font."""
        text = self.clean(text)
        if self.pdf.get_string_width(text) <= width:
            return text
        ellipsis = "…" if self.unicode else "..."
        while text and self.pdf.get_string_width(text + ellipsis) > width:
            text = text[:-1]
        return text.rstrip() + ellipsis

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
        import segno

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
