"""Findings: the errors and warnings that the parser and the legality engine report.

A finding has a stable `code` (the API returns it and the site keys help texts on it), the
decklist line numbers it is about (1-based; empty when it is about the whole deck) and a
plain-language `text` that says what to fix: a `rules.i18n.Text` (message template and
parameters, every msgid marked for the catalogues), so that the site words it in the
reader's language (`decks.findings_text`); `message` is its English.

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.i18n import Text, gettext_noop, say, verbatim

__all__ = ["ERROR_CODES", "WARNING_CODES", "Finding", "lines_phrase", "lines_text"]

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


@dataclass(frozen=True, slots=True, init=False)
class Finding:
    """`Finding(code, lines, text)`; `text` is a `Text`, or a plain string (words shown as
    they are in every language: tests and old data)."""

    code: str
    lines: tuple[int, ...]
    text: Text

    def __init__(self, code: str, lines: tuple[int, ...], text: Text | str):
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "text", text if isinstance(text, Text) else verbatim(text))

    @property
    def message(self) -> str:
        """The English words."""
        return self.text.render()

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "lines": list(self.lines), "message": self.message}

    def to_record(self) -> dict[str, object]:
        """`to_dict()` with the text's template and parameters, to word it again later."""
        return {**self.to_dict(), "text": self.text.to_dict()}

    @classmethod
    def from_record(cls, data: Mapping) -> Finding:
        """A finding from `to_record()` (or `to_dict()`: its English, shown as it is)."""
        text = data.get("text")
        return cls(
            str(data.get("code", "")),
            tuple(data.get("lines", ())),
            Text.from_dict(text) if text else str(data.get("message", "")),
        )


def lines_text(lines: Iterable[int]) -> Text:
    """`Line 3`, `Lines 3 and 7`, `Lines 3, 7 and 9` (sorted, without repeats)."""
    numbers = sorted(set(lines))
    if not numbers:
        return verbatim("")
    if len(numbers) == 1:
        return say(gettext_noop("Line %(line)s"), line=numbers[0])
    head = ", ".join(str(n) for n in numbers[:-1])
    return say(gettext_noop("Lines %(head)s and %(last)s"), head=head, last=numbers[-1])


def lines_phrase(lines: Iterable[int]) -> str:
    """`lines_text` in English."""
    return lines_text(lines).render()
