"""Checking decklists against the card database.

The card index (`rules.cards.CardIndex`) is built once per process from the `Card` table and
kept until an import bumps `CardDataVersion`; every check reads that one version number.
"""

from __future__ import annotations

import threading

from rules.cards import CardIndex, FormatSpec
from rules.legality import Verdict, check_deck

from .models import Card, CardDataVersion, Format
from .parser import parse_decklist

_lock = threading.Lock()
_cache: dict[str, object] = {"version": None, "index": None}

DEFAULT_FORMATS = [
    {"key": "standard", "name": "Standard", "base": "standard"},
    {"key": "expanded", "name": "Expanded", "base": "expanded"},
    {"key": "unlimited", "name": "Unlimited", "base": "unlimited"},
]


def ensure_default_formats() -> None:
    """Create Standard, Expanded and Unlimited if they are missing (never overwrites edits)."""
    for spec in DEFAULT_FORMATS:
        Format.objects.get_or_create(key=spec["key"], defaults=spec)


def card_index() -> CardIndex:
    """The index of every card, rebuilt when the card data changed since it was built."""
    version = CardDataVersion.objects.filter(pk=1).values_list("version", flat=True).first()
    with _lock:
        if _cache["index"] is None or _cache["version"] != version:
            records = [card.to_record() for card in Card.objects.defer("data").iterator(chunk_size=5000)]
            _cache["index"] = CardIndex(records)
            _cache["version"] = version
        return _cache["index"]


def check_decklist(*, text: str, fmt: Format | FormatSpec, index: CardIndex | None = None) -> Verdict:
    """Parse `text` and check it against `fmt`. Stores nothing. Pass `index` to check many
    lists against one index without asking the database for its version each time."""
    spec = fmt.to_spec() if isinstance(fmt, Format) else fmt
    parsed = parse_decklist(text)
    verdict = check_deck(parsed.lines, index or card_index(), spec)
    return verdict.with_parse_errors(parsed.errors) if parsed.errors else verdict


def invalidate_card_index() -> None:
    with _lock:
        _cache["index"] = None


