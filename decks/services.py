"""Checking decklists against the card database.

The card index (`rules.cards.CardIndex`) is built once per process from the `Card` table and
kept until an import stamps `CardDataVersion` anew; every check reads that one stamp. Format
specs are cached per format until the format is saved again.
"""

from __future__ import annotations

import threading
import time

from rules.cards import CardIndex, FormatSpec
from rules.legality import Verdict, check_deck

from .models import Card, CardDataVersion, Format
from .parser import parse_decklist
from .presets import PRESET_FORMATS

_lock = threading.Lock()
_cache: dict[str, object] = {"stamp": None, "index": None, "checked": 0.0}
#: How long the stamp read from the database is trusted before it is read again. An import in
#: another process (`manage.py import_cards`) reaches running web processes within this time;
#: an import in this process drops the cache at once (`invalidate_card_index`).
STAMP_TTL_SECONDS = 5.0
_specs: dict[int, tuple[object, FormatSpec]] = {}

DEFAULT_FORMATS = [
    {"key": "standard", "name": "Standard", "base": "standard"},
    {"key": "expanded", "name": "Expanded", "base": "expanded"},
    {"key": "unlimited", "name": "Unlimited", "base": "unlimited"},
]


def ensure_default_formats() -> None:
    """Create Standard, Expanded, Unlimited and the rulebook presets (`decks.presets`) if
    they are missing (never overwrites edits)."""
    for spec in DEFAULT_FORMATS + PRESET_FORMATS:
        Format.objects.get_or_create(key=spec["key"], defaults=spec)


def card_index() -> CardIndex:
    """The index of every card, rebuilt when the card data changed since it was built."""
    with _lock:
        now = time.monotonic()
        if _cache["index"] is not None and now - _cache["checked"] < STAMP_TTL_SECONDS:
            return _cache["index"]
        stamp = CardDataVersion.objects.filter(pk=1).values_list("stamp", flat=True).first()
        if _cache["index"] is None or _cache["stamp"] != stamp:
            records = [
                card.to_record() for card in Card.objects.defer("data").iterator(chunk_size=5000)
            ]
            _cache["index"] = CardIndex(records)
            _cache["stamp"] = stamp
        _cache["checked"] = now
        return _cache["index"]


def check_decklist(
    *, text: str, fmt: Format | FormatSpec, index: CardIndex | None = None
) -> Verdict:
    """Parse `text` and check it against `fmt`. Stores nothing. Pass `index` to check many
    lists against one index without asking the database for its version each time."""
    index = index or card_index()
    spec = format_spec(fmt) if isinstance(fmt, Format) else fmt
    parsed = parse_decklist(text)
    return check_deck(parsed.lines, index, spec, parsed.errors)


def format_spec(fmt: Format) -> FormatSpec:
    """`fmt.to_spec()`, cached until the format row is saved again or the card data changes
    (a format's sets released by a date are read from the imported sets)."""
    version = (fmt.updated_at, _cache["stamp"])
    cached = _specs.get(fmt.pk)
    if cached is not None and cached[0] == version:
        return cached[1]
    spec = fmt.to_spec()
    _specs[fmt.pk] = (version, spec)
    return spec


def invalidate_card_index() -> None:
    with _lock:
        _cache["index"] = None
        _cache["checked"] = 0.0
