"""Decklist lines as the parser (`decks.parser`) produces them and the engine reads them.

They live in `rules/` because `rules.legality` needs them and `rules/` never imports the
Django apps.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.findings import Finding

__all__ = ["DeckLine", "ParsedDeck"]


@dataclass(frozen=True, slots=True)
class DeckLine:
    """One card line of a decklist.

    `line_no` is 1-based in the submitted text; `name` is the card name as written
    (whitespace collapsed, nothing else changed); `set_code` and `number` are both set or
    both None; `raw` is the line as submitted (without the line break); `section` is the
    canonical section it appeared under ("Pokémon", "Trainer", "Energy") or None.
    """

    line_no: int
    count: int
    name: str
    set_code: str | None
    number: str | None
    raw: str
    section: str | None


@dataclass(frozen=True, slots=True)
class ParsedDeck:
    lines: tuple[DeckLine, ...]
    errors: tuple[Finding, ...]

    @property
    def card_count(self) -> int:
        return sum(line.count for line in self.lines)
