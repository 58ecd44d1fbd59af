"""QR codes as inline SVG (segno), for the event poster and a player's check-in code."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, *, title: str) -> SafeString:
    """`url` as a QR code (error correction M, quiet zone of 4 modules), scaled by CSS."""
    code = segno.make(url, error="m", micro=False)
    # A viewBox and no fixed size: the page's CSS sizes it, and it stays sharp in print.
    svg = code.svg_inline(
        scale=1,
        border=4,
        title=title,
        svgclass="qr",
        lineclass=None,
        omitsize=True,
        dark="#000",
        light="#fff",
    )
    return mark_safe(svg)
