"""Archetypes: the name a decklist goes by in the metagame ("Charizard ex", "Lost Box").

A league keeps an ordered list of rules "a list that contains the card X is the archetype
Y"; the first rule whose card is in the list names it. A list that no rule names goes by
its main Pokémon: the Pokémon with the most copies (the first such line on a tie). Cards
are compared by `rules.names.loose_key`, so case, accents and apostrophes do not matter.

The caller passes the list's card lines (`rules.decklist.DeckLine` or anything with
`count`, `name` and `section`); a line under no section counts as a Pokémon when it is
neither a known Trainer nor an Energy (lists pasted without headers), which the caller
tells with `is_pokemon`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .errors import DomainError
from .names import loose_key

#: What a list that holds no Pokémon at all is called.
UNKNOWN = "Other"
MAX_RULES = 200
MAX_NAME = 60


@dataclass(frozen=True, slots=True)
class ArchetypeRule:
    card: str
    archetype: str


#: The rules a league starts with (ordered: the more specific first).
DEFAULT_RULES: tuple[ArchetypeRule, ...] = (
    ArchetypeRule("Comfey", "Lost Box"),
    ArchetypeRule("Charizard ex", "Charizard ex"),
    ArchetypeRule("Gardevoir ex", "Gardevoir ex"),
    ArchetypeRule("Dragapult ex", "Dragapult ex"),
    ArchetypeRule("Miraidon ex", "Miraidon ex"),
    ArchetypeRule("Raging Bolt ex", "Raging Bolt ex"),
    ArchetypeRule("Regidrago VSTAR", "Regidrago VSTAR"),
    ArchetypeRule("Lugia VSTAR", "Lugia VSTAR"),
    ArchetypeRule("Giratina VSTAR", "Giratina VSTAR"),
    ArchetypeRule("Chien-Pao ex", "Chien-Pao ex"),
    ArchetypeRule("Roaring Moon ex", "Roaring Moon ex"),
    ArchetypeRule("Iron Thorns ex", "Iron Thorns ex"),
    ArchetypeRule("Snorlax", "Snorlax Stall"),
)


def parse_rules(text: str) -> tuple[ArchetypeRule, ...]:
    """Rules written one a line as `card name -> archetype` (or `→`); blank lines and
    lines starting with `#` are skipped. Raises `DomainError("archetype-rule-invalid")`
    naming the first line it cannot read."""
    rules: list[ArchetypeRule] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        card, sep, archetype = line.replace("→", "->").partition("->")
        card, archetype = card.strip(), archetype.strip()
        if not sep or not card or not archetype:
            raise DomainError(
                "archetype-rule-invalid",
                f"Line {number}: write a rule as “card name -> archetype”.",
            )
        if len(card) > MAX_NAME or len(archetype) > MAX_NAME:
            raise DomainError(
                "archetype-rule-invalid", f"Line {number}: names are at most {MAX_NAME} characters."
            )
        rules.append(ArchetypeRule(card, archetype))
    if len(rules) > MAX_RULES:
        raise DomainError("archetype-rule-invalid", f"At most {MAX_RULES} rules.")
    return tuple(rules)


def format_rules(rules: Iterable[ArchetypeRule]) -> str:
    return "\n".join(f"{r.card} -> {r.archetype}" for r in rules)


def main_pokemon(lines: Sequence, is_pokemon: Callable[[object], bool] | None = None) -> str | None:
    """The name of the Pokémon with the most copies (first line on a tie), or None."""
    best = None
    totals: dict[str, int] = {}
    names: dict[str, str] = {}
    for line in lines:
        pokemon = (
            line.section == "Pokémon" if line.section else bool(is_pokemon and is_pokemon(line))
        )
        if not pokemon:
            continue
        key = loose_key(line.name)
        totals[key] = totals.get(key, 0) + line.count
        names.setdefault(key, line.name)
    for key, total in totals.items():
        if best is None or total > totals[best]:
            best = key
    return names[best] if best is not None else None


def suggest_archetype(
    lines: Sequence,
    rules: Sequence[ArchetypeRule] = DEFAULT_RULES,
    is_pokemon: Callable[[object], bool] | None = None,
) -> str:
    """The first rule whose card is in `lines`, else the main Pokémon, else `UNKNOWN`."""
    present = {loose_key(line.name) for line in lines}
    for rule in rules:
        if loose_key(rule.card) in present:
            return rule.archetype
    return main_pokemon(lines, is_pokemon) or UNKNOWN
