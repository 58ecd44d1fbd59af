"""Load card data in the layout of the public pokemon-tcg-data project.

    PATH/sets/en.json            the sets
    PATH/cards/en/<set id>.json  one list of cards per set
    PATH/decks/en/<set id>.json  theme and precon decks (optional)

`import_card_data` reads and checks every file first, then writes in one transaction with
bulk statements, only the rows that differ from the database. A malformed file or record
raises `CardDataError` naming the file and the record before anything is written, so the
database is left as it was. Running it twice changes nothing the second time.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from django.db import transaction

from rules.cards import CardRecord, record_from_upstream
from rules.errors import DomainError

from .models import Card, CardDataVersion, CardSet, PreconDeck
from .services import invalidate_card_index


class CardDataError(DomainError):
    def __init__(self, path: Path, record: str | None, problem: str):
        where = f"{path}" + (f", record {record}" if record else "")
        super().__init__("card-data", f"{where}: {problem}")


@dataclass
class ImportSummary:
    sets: int = 0
    cards: int = 0
    decks: int = 0
    added: dict[str, int] = field(default_factory=lambda: {"sets": 0, "cards": 0, "decks": 0})
    changed: dict[str, int] = field(default_factory=lambda: {"sets": 0, "cards": 0, "decks": 0})

    @property
    def wrote_anything(self) -> bool:
        return any(self.added.values()) or any(self.changed.values())

    def __str__(self) -> str:
        parts = []
        for kind, total in (("sets", self.sets), ("cards", self.cards), ("decks", self.decks)):
            parts.append(
                f"{total} {kind} ({self.added[kind]} added, {self.changed[kind]} changed, "
                f"{total - self.added[kind] - self.changed[kind]} unchanged)"
            )
        return "; ".join(parts)


def _read_json(path: Path) -> object:
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise CardDataError(path, None, "file not found") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CardDataError(path, None, f"not valid JSON ({exc})") from None


def _parse_date(value: object) -> date | None:
    if not value:
        return None
    try:
        year, month, day = (int(p) for p in str(value).replace("-", "/").split("/"))
        return date(year, month, day)
    except ValueError:
        return None


def _set_row(raw: object, path: Path, index: int) -> CardSet:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw.get("name"):
        raise CardDataError(path, f"#{index}", "a set needs a string 'id' and a 'name'")
    return CardSet(
        id=raw["id"],
        name=str(raw["name"]),
        series=str(raw.get("series", "")),
        ptcgo_code=str(raw.get("ptcgoCode", "")),
        printed_total=int(raw.get("printedTotal") or 0),
        total=int(raw.get("total") or 0),
        release_date=_parse_date(raw.get("releaseDate")),
        legalities=raw.get("legalities") or {},
    )


def _card_row(record: CardRecord, raw: dict) -> Card:
    values = {f: getattr(record, f) for f in Card.RECORD_FIELDS}
    values["subtypes"] = list(record.subtypes)
    values["legal"] = sorted(record.legal)
    values["banned"] = sorted(record.banned)
    return Card(id=record.id, card_set_id=record.set_id, data=raw, **values)


def read_card_data(
    root: Path, progress: Callable[[Iterable], Iterable] = lambda it: it
) -> tuple[list[CardSet], list[Card], list[PreconDeck]]:
    """Read and check every file under `root`; raise `CardDataError` on the first problem."""
    sets_path = root / "sets" / "en.json"
    raw_sets = _read_json(sets_path)
    if not isinstance(raw_sets, list):
        raise CardDataError(sets_path, None, "expected a list of sets")
    sets = [_set_row(raw, sets_path, i) for i, raw in enumerate(raw_sets)]
    raw_set_by_id = {raw["id"]: raw for raw in raw_sets}

    cards: list[Card] = []
    seen: set[str] = set()
    for card_set in progress(sets):
        path = root / "cards" / "en" / f"{card_set.id}.json"
        if not path.exists():
            continue
        raw_cards = _read_json(path)
        if not isinstance(raw_cards, list):
            raise CardDataError(path, None, "expected a list of cards")
        for i, raw in enumerate(raw_cards):
            label = raw.get("id") if isinstance(raw, dict) and raw.get("id") else f"#{i}"
            try:
                record = record_from_upstream(raw, raw_set_by_id[card_set.id])
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise CardDataError(path, str(label), str(exc)) from None
            if record.id in seen:
                raise CardDataError(path, record.id, "duplicate card id")
            seen.add(record.id)
            cards.append(_card_row(record, raw))

    decks: list[PreconDeck] = []
    set_ids = {s.id for s in sets}
    deck_dir = root / "decks" / "en"
    for path in sorted(deck_dir.glob("*.json")) if deck_dir.is_dir() else []:
        raw_decks = _read_json(path)
        if not isinstance(raw_decks, list) or path.stem not in set_ids:
            raise CardDataError(path, None, "expected a list of decks for a known set")
        for i, raw in enumerate(raw_decks):
            if (
                not isinstance(raw, dict)
                or not raw.get("id")
                or not isinstance(raw.get("cards"), list)
            ):
                raise CardDataError(path, str(i), "a deck needs an 'id' and a list of 'cards'")
            entries = [
                {"id": c["id"], "name": c.get("name", ""), "count": int(c["count"])}
                for c in raw["cards"]
                if isinstance(c, dict) and "id" in c and "count" in c
            ]
            decks.append(
                PreconDeck(
                    id=raw["id"],
                    name=str(raw.get("name", raw["id"])),
                    card_set_id=path.stem,
                    cards=entries,
                )
            )
    return sets, cards, decks


def _sync(model, rows: list, fields: list[str], kind: str, summary: ImportSummary) -> None:
    """Insert new rows and update changed ones, leaving equal rows untouched."""
    existing = {
        values[0]: values[1:] for values in model.objects.values_list("pk", *fields).iterator(2000)
    }
    to_create, to_update = [], []
    for row in rows:
        old = existing.get(row.pk)
        if old is None:
            to_create.append(row)
        elif old != tuple(getattr(row, f) for f in fields):
            to_update.append(row)
    model.objects.bulk_create(to_create, batch_size=2000)
    if to_update:
        model.objects.bulk_update(to_update, fields, batch_size=500)
    summary.added[kind] = len(to_create)
    summary.changed[kind] = len(to_update)


def import_card_data(
    root: Path | str, progress: Callable[[Iterable], Iterable] = lambda it: it
) -> ImportSummary:
    """Read `root` and bring the card tables in line with it. Writes sets, cards and precon
    decks (never deletes), and gives `CardDataVersion` a new stamp when anything changed."""
    root = Path(root)
    if not (root / "sets" / "en.json").exists():
        raise CardDataError(
            root / "sets" / "en.json", None, "file not found (is PATH the data folder?)"
        )
    sets, cards, decks = read_card_data(root, progress)
    summary = ImportSummary(sets=len(sets), cards=len(cards), decks=len(decks))
    set_fields = [
        "name",
        "series",
        "ptcgo_code",
        "printed_total",
        "total",
        "release_date",
        "legalities",
    ]
    card_fields = ["card_set_id", *Card.RECORD_FIELDS, "data"]
    with transaction.atomic():
        _sync(CardSet, sets, set_fields, "sets", summary)
        _sync(Card, cards, card_fields, "cards", summary)
        _sync(PreconDeck, decks, ["name", "card_set_id", "cards"], "decks", summary)
        if summary.wrote_anything:
            CardDataVersion.objects.update_or_create(pk=1, defaults={"stamp": uuid.uuid4().hex})
            transaction.on_commit(invalidate_card_index)
    return summary
