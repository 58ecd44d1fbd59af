"""The card model of the legality engine: formats and a fast in-memory card index.

* `CardRecord` and its conversion from the upstream JSON (`record_from_upstream`,
  `load_upstream`) live in `rules.records` and are re-exported here.
* `FormatSpec`: an event format, either one of upstream's legality columns (Standard,
  Expanded, Unlimited) or a custom format (see its docstring for the exact semantics).
* `CardIndex`: built once from records, answers lookups by set code + number (with the
  forms exporters write: promo numbers without their prefix, gallery numbers apart) and by
  name (with known short forms), legality in a format (with reprint equivalence and the
  basic Energy types a format allows) and "did you mean" suggestions.
* `load_index(path)`: a `CardIndex` of an upstream-layout folder, built once per process.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rules.formats import CURRENT, FormatRules
from rules.names import display_name, loose_key, normalise_name
from rules.records import (
    BASE_FORMATS,
    SUPERTYPES,
    CardRecord,
    compute_text_key,
    load_upstream,
    record_from_upstream,
)

__all__ = [
    "BASE_FORMATS",
    "EXPANDED",
    "FORMATS",
    "STANDARD",
    "SUPERTYPES",
    "UNLIMITED",
    "CardIndex",
    "CardRecord",
    "FormatSpec",
    "basic_energy_type",
    "compute_text_key",
    "load_index",
    "load_upstream",
    "number_key",
    "record_from_upstream",
    "short_form",
]


@lru_cache(maxsize=4)
def load_index(path: str | Path) -> CardIndex:
    """Build (once per path and process) a `CardIndex` from an upstream-layout folder."""
    return CardIndex(load_upstream(path))


# --------------------------------------------------------------------------- formats


@dataclass(frozen=True)
class FormatSpec:
    """An event format.

    A printing is **eligible** when every non-empty criterion holds for it:

    * `base` ("standard", "expanded" or "unlimited"): upstream marks it "Legal" there.
      `base=None` means no upstream column is consulted (a custom format).
    * `allowed_sets` (set ids such as "sv1"): its set is one of them.
    * `allowed_marks` (regulation marks such as "G"): its mark is one of them.

    Basic Energy is exempt from `allowed_sets` and `allowed_marks` (any basic Energy
    printing may be played, as in official formats), but not from `base` or the bans, and
    only of the types the format allows: `basic_energy_types` (`{"Fire", "Water"}`) when
    given, else, for a format with `allowed_sets`, the types that had a basic Energy card
    by the release of its newest set. The 1999 rulebook's glossary knows six basic Energy
    types (Grass, Fire, Water, Lightning, Psychic, Fighting); Darkness and Metal came with
    Diamond & Pearl (2007), Fairy with XY (2014), so a Base-Set-only format does not accept
    basic Darkness, Metal or Fairy Energy.
    A custom format with `base=None` and no allowed sets or marks allows every card.

    `rules` are the deck-building and game rules (`rules.formats.FormatRules`: deck size,
    Prize cards, Basic Pokémon, copy limit); today's rules unless given.

    A printing is **banned** when upstream marks any printing of the same card "Banned"
    in `base`, when its normalised name is in `banned_names`, or when it or any reprint
    of the same card (same name and game text) is in `banned_prints` (card ids). A
    printing is **legal** when it is not banned and it or some reprint of the same card is
    eligible. Banned beats legal. `banned_names` may be given printed or normalised; they
    are normalised again when used.
    """

    key: str
    name: str
    base: str | None = None
    allowed_sets: frozenset[str] = frozenset()
    allowed_marks: frozenset[str] = frozenset()
    banned_names: frozenset[str] = frozenset()
    banned_prints: frozenset[str] = frozenset()
    basic_energy_types: frozenset[str] = frozenset()
    rules: FormatRules = CURRENT

    def __post_init__(self) -> None:
        if self.base is not None and self.base not in BASE_FORMATS:
            raise ValueError(
                f"format base must be one of {BASE_FORMATS} or None, not {self.base!r}"
            )
        for attr in (
            "allowed_sets",
            "allowed_marks",
            "banned_names",
            "banned_prints",
            "basic_energy_types",
        ):
            value = getattr(self, attr)
            if not isinstance(value, frozenset):
                object.__setattr__(self, attr, frozenset(value))

    @classmethod
    def custom(
        cls,
        key: str,
        name: str,
        *,
        base: str | None = None,
        sets: Iterable[str] = (),
        marks: Iterable[str] = (),
        banned_names: Iterable[str] = (),
        banned_prints: Iterable[str] = (),
        basic_energy_types: Iterable[str] = (),
        rules: FormatRules = CURRENT,
    ) -> FormatSpec:
        """Convenience constructor that normalises the banned names."""
        return cls(
            key=key,
            name=name,
            base=base,
            allowed_sets=frozenset(sets),
            allowed_marks=frozenset(m.upper() for m in marks),
            banned_names=frozenset(normalise_name(n) for n in banned_names),
            banned_prints=frozenset(banned_prints),
            basic_energy_types=frozenset(t.capitalize() for t in basic_energy_types),
            rules=rules,
        )


STANDARD = FormatSpec("standard", "Standard", base="standard")
EXPANDED = FormatSpec("expanded", "Expanded", base="expanded")
UNLIMITED = FormatSpec("unlimited", "Unlimited", base="unlimited")
FORMATS: dict[str, FormatSpec] = {f.key: f for f in (STANDARD, EXPANDED, UNLIMITED)}


# --------------------------------------------------------------------------- index

SUGGESTION_CACHE = 4096
_NUMBER_ZEROS_RE = re.compile(r"(?<![0-9])0+(?=[0-9])")

# Codes that exports use but the data does not (promo spellings from other tools).
_CODE_ALIASES = {
    "SVP": "PR-SV",
    "PR-SVP": "PR-SV",
    "SWSHP": "PR-SW",
    "PR-SWSH": "PR-SW",
    "SMP": "PR-SM",
    "XYP": "PR-XY",
    "BWP": "PR-BLW",
    "PR-BW": "PR-BLW",
    "HSP": "PR-HS",
    "DPP": "PR-DPP",
    "NP": "PR-NP",
    "MEW151": "MEW",
}

# Known slips in upstream's evolvesFrom.
_EVOLVES_FROM_FIXES = {"Antiuqe Plume Fossil": "Antique Plume Fossil"}
# A basis satisfied by another card: Pokémon that evolve from Mysterious Fossil may be
# played on Buried Fossil (ecard3-47).
_BASIS_ALTERNATIVES = {"mysterious fossil": ("buried fossil",)}


def number_key(number: str) -> str:
    """Collector number comparison key: upper case, no leading zeros (`TG08` = `TG8`)."""
    return _NUMBER_ZEROS_RE.sub("", number.strip().upper())


class _FormatCache:
    __slots__ = ("banned_names", "card", "energy_types", "fmt", "memo", "name")

    def __init__(self, fmt: FormatSpec, energy_types: frozenset[str] | None):
        self.fmt = fmt
        self.banned_names = frozenset(normalise_name(n) for n in fmt.banned_names)
        self.energy_types = energy_types  # None: every type
        self.card: dict[str, bool] = {}
        self.name: dict[str, bool] = {}
        self.memo: dict[object, object] = {}


_BASIC_TYPES = (
    "Grass",
    "Fire",
    "Water",
    "Lightning",
    "Psychic",
    "Fighting",
    "Darkness",
    "Metal",
    "Fairy",
)


def basic_energy_type(card: CardRecord) -> str:
    """The type of a basic Energy card (`Fire` for `Fire Energy` and `Basic {R} Energy`)."""
    for kind in _BASIC_TYPES:
        if kind.casefold() in card.norm_name:
            return kind
    return ""


_SHORT_FORM_RE = re.compile(r"^team galactic's invention \S+ | team flare gear$")


def short_form(norm_name: str) -> str:
    """The name players write for a card whose printed name carries a title: `battle
    compressor` for `Battle Compressor Team Flare Gear`, `poke turn` for `Team Galactic's
    Invention G-105 Poké Turn` (a normalised name in, a normalised name out)."""
    return _SHORT_FORM_RE.sub("", norm_name)


def _number_prefix(number: str) -> str:
    head = re.match(r"[A-Za-z]+(?=[0-9])", number)
    return head.group(0).upper() if head else ""


class CardIndex:
    """All printings, indexed for the legality engine.

    Build once and share (also between threads): lookups only fill caches, and a race
    between two threads filling the same entry is harmless. Legality caches are kept per
    format key and dropped when a different `FormatSpec` arrives under a key already seen.
    """

    def __init__(self, records: Iterable[CardRecord]):
        self._records: list[CardRecord] = []
        self._by_id: dict[str, CardRecord] = {}
        by_norm: dict[str, list[CardRecord]] = {}
        by_print: dict[tuple[str, str], list[CardRecord]] = {}
        classes: dict[tuple[str, str], list[CardRecord]] = {}
        code_sets: dict[str, list[str]] = {}
        set_ids: dict[str, str] = {}
        prefixes: dict[str, set[str]] = {}
        self._set_order: dict[str, int] = {}
        self._energy_since: dict[str, int] = {}
        for rec in records:
            if rec.id in self._by_id:
                continue
            self._records.append(rec)
            self._by_id[rec.id] = rec
            by_norm.setdefault(rec.norm_name, []).append(rec)
            keys = {number_key(rec.number)}
            prefix = rec.set_id + "-"
            if rec.id.startswith(prefix):
                keys.add(number_key(rec.id[len(prefix) :]))
            for key in keys:
                by_print.setdefault((rec.set_id, key), []).append(rec)
            classes.setdefault((rec.norm_name, rec.text_key), []).append(rec)
            self._set_order.setdefault(rec.set_id, len(self._set_order))
            if prefix_ := _number_prefix(rec.number):
                prefixes.setdefault(rec.set_id, set()).add(prefix_)
            if rec.is_basic_energy and (kind := basic_energy_type(rec)):
                self._energy_since.setdefault(kind, self._set_order[rec.set_id])
            if rec.set_id.lower() not in set_ids:
                set_ids[rec.set_id.lower()] = rec.set_id
                if rec.set_code:
                    code_sets.setdefault(rec.set_code.upper(), []).append(rec.set_id)
        self._by_norm = {k: tuple(v) for k, v in by_norm.items()}
        self._by_print = {k: tuple(v) for k, v in by_print.items()}
        self._classes = {k: tuple(v) for k, v in classes.items()}
        self._code_sets = {k: tuple(v) for k, v in code_sets.items()}
        self._set_ids = set_ids
        self._prefixes = {k: tuple(sorted(v, key=len, reverse=True)) for k, v in prefixes.items()}
        loose: dict[str, set[str]] = {}
        for norm, recs in self._by_norm.items():
            loose.setdefault(loose_key(recs[0].name, recs[0].supertype), set()).add(norm)
            loose.setdefault(loose_key(norm), set()).add(norm)
        self._loose = {k: tuple(sorted(v)) for k, v in loose.items()}
        short: dict[str, set[str]] = {}
        for norm in self._by_norm:
            cut = short_form(norm)
            if cut != norm:
                short.setdefault(cut, set()).add(norm)
        self._short = {k: tuple(v) for k, v in short.items() if k not in self._by_norm}
        self._display: dict[str, str] = {}
        for norm, recs in self._by_norm.items():
            names = sorted({display_name(r.name, r.supertype) for r in recs}, key=len)
            self._display[norm] = names[0]
        self._choices: list[str] | None = None
        self._suggest_cache: dict[str, tuple[str, ...]] = {}
        self._formats: dict[str, _FormatCache] = {}
        self._evo_cache: dict[str, str] = {}
        self._code_cache: dict[str, tuple[str, ...]] = {}
        self._name_cache: dict[str, tuple[CardRecord, ...]] = {}

    # ---- basic access

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[CardRecord]:
        return iter(self._records)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def get(self, card_id: str) -> CardRecord | None:
        return self._by_id.get(card_id)

    def names(self) -> Iterator[str]:
        """Every normalised name."""
        return iter(self._by_norm)

    def display_name(self, norm_name: str) -> str:
        """A readable printed form of a normalised name (`Gengar` for `gengar`)."""
        return self._display.get(norm_name, norm_name)

    def reprints(self, card: CardRecord) -> tuple[CardRecord, ...]:
        """All printings of the same card (same normalised name and game text)."""
        return self._classes.get((card.norm_name, card.text_key), (card,))

    # ---- lookups

    def sets_for_code(self, set_code: str) -> tuple[str, ...]:
        """Set ids that a code (or set id, or known alias) written in a decklist means."""
        cached = self._code_cache.get(set_code)
        if cached is not None:
            return cached
        code = set_code.strip()
        upper = code.upper()
        found = self._code_sets.get(upper)
        if found is None and code.lower() in self._set_ids:
            found = (self._set_ids[code.lower()],)
        if found is None and upper in _CODE_ALIASES:
            found = self._code_sets.get(_CODE_ALIASES[upper])
        if found is None and "-" in upper:
            # TCG Live writes sub-set codes such as CRZ-GG or BRS-TG.
            head, _, tail = upper.partition("-")
            if tail and head != "PR":
                found = self._code_sets.get(head)
        if found is None and "-" in code and code.lower() in self._set_ids:
            found = (self._set_ids[code.lower()],)
        result = found or ()
        if len(self._code_cache) < 4096:
            self._code_cache[set_code] = result
        return result

    def printings(
        self, set_code: str, number: str, *, guess: bool = True
    ) -> tuple[CardRecord, ...]:
        """Every printing a set code + number may mean, exact number first.

        When the number as written matches nothing, the forms exporters write apart are
        tried: a sub-set code's tail (`CRZ-GG 39` is `GG39`, `ASR-TG 5` is `TG05`) and the
        number prefixes of the set (`PR-SW 154` is `SWSH154`, `PR-SM 104` is `SM104`,
        `PR-BLW 50` is `BW50`, `LTR 24` may be `RC24`). Those are guesses: the caller
        accepts one only when the written name agrees with it.
        """
        set_ids = self.sets_for_code(set_code)
        if not set_ids:
            return ()
        key = number_key(number)
        _, _, tail = set_code.strip().upper().partition("-")
        if tail and tail != "PR" and key[:1].isdigit():
            # A sub-set code names its own numbers: `CRZ-GG 39` is GG39, never CRZ 39.
            sub = number_key(tail + key)
            found = tuple(rec for sid in set_ids for rec in self._by_print.get((sid, sub), ()))
            if found:
                return found
        found = tuple(rec for sid in set_ids for rec in self._by_print.get((sid, key), ()))
        if found or not guess or not key[:1].isdigit():
            return found
        guesses: list[CardRecord] = []
        for sid in set_ids:
            heads = self._prefixes.get(sid, ())
            if tail and tail != "PR":
                heads = (tail, *[h for h in heads if h != tail])
            for head in heads:
                guesses.extend(self._by_print.get((sid, number_key(head + key)), ()))
        return tuple(guesses)

    def in_sets(self, set_code: str, norm_name: str) -> tuple[CardRecord, ...]:
        """The printings named `norm_name` in the set(s) a code means."""
        set_ids = set(self.sets_for_code(set_code))
        return tuple(r for r in self._by_norm.get(norm_name, ()) if r.set_id in set_ids)

    def by_code_number(
        self, set_code: str, number: str, name_hint: str | None = None
    ) -> CardRecord | None:
        """The printing with this set code (or set id) and collector number.

        A few (code, number) pairs name more than one card (CEL, BLK 60); the written
        name then picks the printing whose name matches. Without a matching hint the first
        printing (in release order) is returned.
        """
        set_ids = self.sets_for_code(set_code)
        if not set_ids:
            return None
        key = number_key(number)
        if len(set_ids) == 1:
            candidates = self._by_print.get((set_ids[0], key), ())
        else:
            candidates = tuple(rec for sid in set_ids for rec in self._by_print.get((sid, key), ()))
        if not candidates:
            return None
        if len(candidates) == 1 or not name_hint:
            return candidates[0]
        for rec in candidates:
            if self.name_matches(name_hint, rec):
                return rec
        return candidates[0]

    def name_matches(self, written: str, card: CardRecord) -> bool:
        """Does a name as written in a decklist name this printing?"""
        if normalise_name(written, card.supertype) == card.norm_name:
            return True
        return loose_key(written, card.supertype) == loose_key(card.name, card.supertype)

    def by_name(self, name: str) -> list[CardRecord]:
        """All printings with this normalised name (release order); [] when none.

        A typed `δ` is retried without the mark among Pokémon, and a name that misses only
        on punctuation or spacing (`Porygon Z`, `Mr Mime`) is found when the loose form
        names exactly one card name.
        """
        cached = self._name_cache.get(name)
        if cached is not None:
            return list(cached)
        result = self._lookup_name(name)
        if len(self._name_cache) < 65536:
            self._name_cache[name] = result
        return list(result)

    def _lookup_name(self, name: str) -> tuple[CardRecord, ...]:
        key = normalise_name(name)
        found = self._by_norm.get(key)
        if found:
            return found
        if "δ" in key:
            pokemon_key = normalise_name(name, "Pokémon")
            found = tuple(r for r in self._by_norm.get(pokemon_key, ()) if r.is_pokemon)
            if found:
                return found
        loose = self._loose.get(loose_key(name))
        if loose and len(loose) == 1:
            return self._by_norm[loose[0]]
        if key.endswith(" star"):  # `Pikachu Star` for `Pikachu ★`
            found = self._by_norm.get(key[:-5] + " ★")
            if found:
                return found
        short = self._short.get(key)
        if short and len(short) == 1:
            return self._by_norm[short[0]]
        return ()

    def suggestions(self, name: str, limit: int = 3) -> list[str]:
        """The printed names closest to `name` (best first), for "did you mean" hints.

        One search costs well under a millisecond to a few (see `_search`; the query is cut
        to 60 characters, longer than any card name); results are cached per
        normalised query (at most `SUGGESTION_CACHE` of them), and callers ask for a
        bounded number of lines per list (`rules.legality.MAX_SUGGESTED_LINES`).
        """
        query = normalise_name(name)[:60]
        if not query or limit <= 0:
            return []
        cached = self._suggest_cache.get(query)
        if cached is None:
            cached = tuple(self._search(query, 3))
            if len(self._suggest_cache) >= SUGGESTION_CACHE:
                self._suggest_cache.clear()
            self._suggest_cache[query] = cached
        return list(cached[:limit])

    def _search(self, query: str, limit: int) -> list[str]:
        from rapidfuzz import fuzz, process

        if self._choices is None:
            self._choices = list(self._by_norm)
        # Plain edit-distance similarity (`fuzz.ratio`) over the ~4,000 distinct names costs
        # about 0.2 ms and finds typos (`Pikachuu`, `Bofs Orders`, `Ultra Bal`); only when it
        # finds nothing is the slower weighted ratio (partial and token matches, ~3 ms) tried,
        # and for short names only (a long line of garbage never pays for it).
        results = process.extract(
            query, self._choices, scorer=fuzz.ratio, limit=limit * 3, score_cutoff=60
        )
        if not results and len(query) <= 30:
            results = process.extract(
                query, self._choices, scorer=fuzz.WRatio, limit=limit * 3, score_cutoff=75
            )
        ranked = sorted(
            results,
            key=lambda r: (-r[1], -fuzz.ratio(query, r[0]), len(r[0])),
        )
        out: list[str] = []
        for choice, _score, _idx in ranked:
            shown = self.display_name(choice)
            if shown not in out:
                out.append(shown)
            if len(out) >= limit:
                break
        return out

    # ---- evolution

    def evolves_from(self, card: CardRecord) -> str:
        """The normalised name this card evolves from, or "" (Basic, Trainer, unknown).

        Fixes upstream's `Antiuqe Plume Fossil` slip, and for printings without
        `evolvesFrom` (the me2pt5/mep sets) borrows it from another printing with the same
        name and stage.
        """
        cached = self._evo_cache.get(card.id)
        if cached is not None:
            return cached
        printed = card.evolves_from
        if not printed and card.is_pokemon and not card.is_basic_pokemon:
            stage = [s for s in card.subtypes if s.startswith("Stage") or s in _EVO_KINDS]
            for other in self._by_norm.get(card.norm_name, ()):
                if other.evolves_from and (not stage or any(s in other.subtypes for s in stage)):
                    printed = other.evolves_from
                    break
        printed = _EVOLVES_FROM_FIXES.get(printed, printed)
        result = normalise_name(printed, "Pokémon") if printed else ""
        self._evo_cache[card.id] = result
        return result

    @staticmethod
    def basis_alternatives(norm_name: str) -> tuple[str, ...]:
        """Names that also satisfy an evolution basis (Buried Fossil for Mysterious Fossil)."""
        return (norm_name, *_BASIS_ALTERNATIVES.get(norm_name, ()))

    # ---- legality

    def _format_cache(self, fmt: FormatSpec) -> _FormatCache:
        cache = self._formats.get(fmt.key)
        if cache is None:
            cache = self._formats[fmt.key] = _FormatCache(fmt, self._energy_types(fmt))
        elif cache.fmt is not fmt:
            if cache.fmt == fmt:
                cache.fmt = fmt  # an equal spec built again (Format.to_spec() per request)
            else:
                cache = self._formats[fmt.key] = _FormatCache(fmt, self._energy_types(fmt))
        return cache

    def _energy_types(self, fmt: FormatSpec) -> frozenset[str] | None:
        """The basic Energy types `fmt` allows (None: all); see `FormatSpec`."""
        if fmt.basic_energy_types:
            return fmt.basic_energy_types
        if not fmt.allowed_sets:
            return None
        newest = max((self._set_order.get(s, -1) for s in fmt.allowed_sets), default=-1)
        types = frozenset(k for k, since in self._energy_since.items() if since <= newest)
        return types or None  # sets older than any basic Energy in the data: no limit

    def basic_energy_types(self, fmt: FormatSpec) -> frozenset[str] | None:
        """The basic Energy types `fmt` allows, or None when it allows every type."""
        return self._format_cache(fmt).energy_types

    def format_memo(self, fmt: FormatSpec) -> dict[object, object]:
        """Scratch space for per-format caches of callers (the legality engine keeps its
        line resolutions here). Emptied when `fmt` changes under the same key; callers
        should bound what they put in it."""
        memo = self._format_cache(fmt).memo
        if len(memo) > 200_000:
            memo.clear()
        return memo

    def _eligible(self, rec: CardRecord, fmt: FormatSpec) -> bool:
        if fmt.base is not None and fmt.base not in rec.legal:
            return False
        if rec.is_basic_energy:
            types = self._format_cache(fmt).energy_types
            return types is None or basic_energy_type(rec) in types
        if fmt.allowed_sets and rec.set_id not in fmt.allowed_sets:
            return False
        return not (fmt.allowed_marks and rec.regulation_mark not in fmt.allowed_marks)

    def is_banned(self, card: CardRecord, fmt: FormatSpec) -> bool:
        """Banned in this format (by upstream's column, by name or by printing)."""
        cache = self._format_cache(fmt)
        if card.norm_name in cache.banned_names:
            return True
        for rec in self.reprints(card):
            if rec.id in fmt.banned_prints or (fmt.base is not None and fmt.base in rec.banned):
                return True
        return False

    def is_legal(self, card: CardRecord, fmt: FormatSpec) -> bool:
        """Legal in `fmt`: not banned, and this printing or a reprint of it is eligible.

        Cached per (format key, card id); a different FormatSpec under a key already seen
        resets that key's cache.
        """
        cache = self._format_cache(fmt)
        known = cache.card.get(card.id)
        if known is not None:
            return known
        members = self.reprints(card)
        if card not in members:  # a record that is not in this index
            members = (card, *members)
        result = not self.is_banned(card, fmt) and any(self._eligible(r, fmt) for r in members)
        for rec in members:
            cache.card[rec.id] = result
        return result

    def is_name_legal(self, name: str, fmt: FormatSpec) -> bool:
        """A line written without a set: legal when some printing with this name is legal."""
        cache = self._format_cache(fmt)
        known = cache.name.get(name)
        if known is not None:
            return known
        result = any(self.is_legal(rec, fmt) for rec in self.by_name(name))
        cache.name[name] = result
        return result


_EVO_KINDS = ("Level-Up", "BREAK", "MEGA", "VMAX", "VSTAR", "Restored", "V-UNION")
