"""A submitted list as people read it: the cards in `printing.sheet_lines`' order (each
line under its card's supertype), grouped Pokémon / Trainer / Energy (then any other
heading) with section counts that add up to the total, and the same as the text TCG Live
imports ("Pokémon: 12", lines "4 Name SET 123", …, "Total Cards: 60")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import CardIndex

from .printing import SECTIONS, SheetLine, sheet_lines


@dataclass(frozen=True)
class Section:
    name: str
    count: int
    lines: tuple[SheetLine, ...]


@dataclass(frozen=True)
class ReadableList:
    sections: tuple[Section, ...]
    total: int

    def tcg_live_text(self) -> str:
        """The list as TCG Live's "import deck" reads it."""
        parts = []
        for section in self.sections:
            rows = [f"{section.name}: {section.count}"]
            rows += [
                " ".join(p for p in (str(ln.count), ln.name, ln.printing) if p)
                for ln in section.lines
            ]
            parts.append("\n".join(rows))
        parts.append(f"Total Cards: {self.total}")
        return "\n\n".join(parts) + "\n"


def readable_list(text: str, index: CardIndex) -> ReadableList:
    """`text` (a submitted list) grouped by supertype, each section's count the sum of its
    lines, the total the sum of the sections."""
    return group(sheet_lines(text, index))


def group(lines: Sequence[SheetLine]) -> ReadableList:
    order = list(SECTIONS)
    for line in lines:
        if line.section not in order:
            order.append(line.section)
    sections = []
    for name in order:
        mine = tuple(line for line in lines if line.section == name)
        if mine:
            sections.append(Section(name, sum(line.count for line in mine), mine))
    return ReadableList(tuple(sections), sum(s.count for s in sections))
