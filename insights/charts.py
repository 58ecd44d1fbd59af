"""The metagame's charts, drawn as SVG on the server.

Hand-written rather than a charting library: the three charts are a few rectangles and a
line each, and drawing them here keeps them inside the site's strict CSP (pygal, the
well-kept SVG library, embeds its own `<script>` and `<style>` and loads its tooltips from
a CDN), readable without JavaScript, and sized by a `viewBox` so they shrink to a phone's
width. Each chart carries `role="img"` and a `<title>`; the page puts the same numbers in a
table beside it for screen readers (the SVG itself is `aria-hidden` in favour of the
table, so a reader does not hear every figure twice).
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from rules.metagame import Metagame

PALETTE = ("#3b6fd8", "#e07b18", "#2f9e5a", "#c43d5b", "#7a52c7", "#178f96", "#9c7a15", "#6b7280")
#: The charts are drawn at a phone's width in CSS pixels, so that their 14-16 px type is
#: read at that size on a phone; on a wider screen they keep that size (`max-width: 100%`).
WIDTH = 340


def _svg(height: int, title: str, body: list[str], width: int = WIDTH) -> SafeString:
    return mark_safe(
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg" '
        f'font-family="system-ui, sans-serif"><title>{escape(title)}</title>{"".join(body)}</svg>'
    )


def share_chart(meta: Metagame) -> SafeString:
    """One bar per archetype, its name above the bar and its share at the bar's end."""
    row = 46
    body = []
    for i, share in enumerate(meta.shares):
        y = i * row
        width = max(2.0, share.share * (WIDTH - 80))
        colour = PALETTE[i % len(PALETTE)]
        body.append(
            f'<text x="0" y="{y + 16}" font-size="16" fill="currentColor">{escape(share.archetype)}</text>'
            f'<rect x="0" y="{y + 22}" width="{width:.1f}" height="18" rx="3" fill="{colour}"/>'
            f'<text x="{width + 6:.1f}" y="{y + 37}" font-size="15" fill="currentColor">'
            f"{share.share:.0%} ({share.players})</text>"
        )
    return _svg(max(row, row * len(meta.shares)), _("Share of each archetype"), body)


def _cell_colour(rate: float | None) -> str:
    """Red (0 %) through pale (50 %) to green (100 %); grey when they never met."""
    if rate is None:
        return "#e5e7eb"
    if rate >= 0.5:
        t = (rate - 0.5) * 2
        r, g, b = (255 - 208 * t, 255 - 97 * t, 255 - 165 * t)
    else:
        t = (0.5 - rate) * 2
        r, g, b = (255 - 59 * t, 255 - 194 * t, 255 - 164 * t)
    return f"rgb({r:.0f},{g:.0f},{b:.0f})"


def matchup_chart(meta: Metagame) -> SafeString:
    """The match-up table as a grid: row archetype's win rate against the column's, the
    columns numbered in the rows' order (names would not fit a phone)."""
    names = meta.archetypes
    n = max(1, len(names))
    label = 130
    cell = max(34, min(56, (WIDTH - label) / n))
    width = int(label + n * cell)
    body = []
    for j in range(len(names)):
        x = label + j * cell + cell / 2
        body.append(
            f'<text x="{x:.1f}" y="18" font-size="15" text-anchor="middle" fill="currentColor">{j + 1}</text>'
        )
    for i, x_name in enumerate(names):
        y = 26 + i * cell
        body.append(
            f'<text x="0" y="{y + cell / 2 + 5:.1f}" font-size="15" fill="currentColor">'
            f"{i + 1}. {escape(x_name[:14])}</text>"
        )
        for j, y_name in enumerate(names):
            record = meta.matchups[x_name][y_name]
            rate = record.win_rate
            cx = label + j * cell
            body.append(
                f'<rect x="{cx:.1f}" y="{y:.1f}" width="{cell - 2:.1f}" height="{cell - 2:.1f}" '
                f'fill="{_cell_colour(rate)}"/>'
            )
            if rate is not None:
                body.append(
                    f'<text x="{cx + cell / 2 - 1:.1f}" y="{y + cell / 2 + 5:.1f}" font-size="14" '
                    f'text-anchor="middle" fill="#111">{rate * 100:.0f}</text>'
                )
    title = _("Match-ups: win rate (%) of each row's archetype")
    return _svg(int(30 + len(names) * cell), title, body, width=width)


def standing_chart(rows: list[dict], players: int) -> SafeString:
    """A player's place after each round, first place at the top."""
    ranked = [r for r in rows if r.get("rank")]
    height, left, top, bottom = 200, 34, 24, 30
    worst = max([players, *[r["rank"] for r in ranked]], default=1)
    n = max(1, len(rows))
    step = (WIDTH - left - 50) / (n - 1) if n > 1 else 0

    def xy(index: int, rank: int) -> tuple[float, float]:
        span = max(1, worst - 1)
        return left + 24 + index * step, top + (rank - 1) / span * (height - top - bottom)

    body = [
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#9ca3af"/>',
        f'<text x="{left - 6}" y="{top + 5}" font-size="14" text-anchor="end" fill="currentColor">1</text>',
        f'<text x="{left - 6}" y="{height - bottom + 5}" font-size="14" text-anchor="end" fill="currentColor">{worst}</text>',
    ]
    points = []
    for index, row in enumerate(rows):
        x = left + 24 + index * step
        body.append(
            f'<text x="{x:.1f}" y="{height - 10}" font-size="14" text-anchor="middle" fill="currentColor">R{row["round"]}</text>'
        )
        if row.get("rank"):
            px, py = xy(index, row["rank"])
            points.append(f"{px:.1f},{py:.1f}")
            body.append(
                f'<circle cx="{px:.1f}" cy="{py:.1f}" r="6" fill="{PALETTE[0]}"/>'
                f'<text x="{px + 9:.1f}" y="{py - 8:.1f}" font-size="14" fill="currentColor">{row["rank"]}</text>'
            )
    if len(points) > 1:
        body.insert(
            3,
            f'<polyline points="{" ".join(points)}" fill="none" stroke="{PALETTE[0]}" stroke-width="3"/>',
        )
    return _svg(height, _("Place after each round"), body)
