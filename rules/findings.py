"""Findings: the errors and warnings that the parser and the legality engine report.

A finding has a stable `code` (the API returns it and the site keys help texts on it), the
decklist line numbers it is about (1-based; empty when it is about the whole deck) and a
plain-language `message` that says what to fix.

Error codes: `deck-size`, `too-many-copies`, `no-basic-pokemon`, `not-legal-in-format`,
`ace-spec-limit`, `radiant-limit`, `star-limit`, `prism-star-limit`, `unknown-card`,
`ambiguous-card` (a wrong number in a set that holds several cards of the written name),
`parse-error`, `paste-too-long`, `too-many-lines` (the paste is over a
limit and was not read). Warning codes: `missing-evolution-basis`, `energy-count`,
`printing-mismatch` (the set code and number name another card than the written name;
the line was read by its name), `printing-corrected` (the set code and number matched
nothing, or the name lacks a mark or has a slip; the line was read as the card the warning
names), `ambiguous-name` (a name without a set code names cards under
different deck rules; the warning says which was assumed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ERROR_CODES", "WARNING_CODES", "Finding", "lines_phrase"]

ERROR_CODES = frozenset(
    {
        "deck-size",
        "too-many-copies",
        "no-basic-pokemon",
        "not-legal-in-format",
        "ace-spec-limit",
        "radiant-limit",
        "star-limit",
        "prism-star-limit",
        "unknown-card",
        "ambiguous-card",
        "parse-error",
        "paste-too-long",
        "too-many-lines",
    }
)
WARNING_CODES = frozenset(
    {
        "missing-evolution-basis",
        "energy-count",
        "printing-mismatch",
        "printing-corrected",
        "ambiguous-name",
    }
)


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    lines: tuple[int, ...]
    message: str

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "lines": list(self.lines), "message": self.message}


def lines_phrase(lines: Iterable[int]) -> str:
    """`Line 3`, `Lines 3 and 7`, `Lines 3, 7 and 9` (sorted, without repeats)."""
    numbers = sorted(set(lines))
    if not numbers:
        return ""
    if len(numbers) == 1:
        return f"Line {numbers[0]}"
    head = ", ".join(str(n) for n in numbers[:-1])
    return f"Lines {head} and {numbers[-1]}"
