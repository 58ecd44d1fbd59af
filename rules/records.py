"""Card records: one printing of a card in simple types, and its conversion from upstream.

* `CardRecord`: one printing, in simple types only, so the Django importer can store it in
  a table and rebuild it from a row. `record_from_upstream` converts one card of the
  upstream JSON (PokemonTCG/pokemon-tcg-data layout) plus its set.
* `load_upstream(path)`: reads the upstream folder layout (`sets/en.json` +
  `cards/en/<set>.json`) without a database, for tests and benchmarks.

Decisions:

* Basic Pokémon: supertype Pokémon with subtype Basic, **or Baby** (the 20 neo/e-card
  Babies lack the Basic subtype in the data but are played as Basic Pokémon). Trainers
  played "as if" they were Basic Pokémon (Mysterious Fossil, Clefairy Doll, the Antique
  fossils) are not; Buried Fossil (ecard3-47) is stored as a Basic Pokémon and counts.
* Basic Energy: supertype Energy with subtype Basic, never decided by the name.
* ACE SPEC, Radiant, Prism Star (◇) and Star (★) flags come from the subtypes (plus the
  ACE SPEC rule line, the ◇ and ★ marks in the name).

Reprint equivalence: two printings are the same card when they have the same normalised
name and the same game text (`text_key`). For Trainers and Energy the game text is the
effect text (the `rules` lines, without the generic reminder lines such as "You may play
only 1 Supporter card during your turn.", with whitespace and case ignored) plus
basic/special for Energy and the ACE SPEC / Prism Star flags; for Pokémon it is the
stage and other subtypes, HP, types, ability names and attacks (name, cost, damage).

`rules.cards` re-exports everything here.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.names import normalise_name

__all__ = [
    "BASE_FORMATS",
    "SUPERTYPES",
    "CardRecord",
    "compute_text_key",
    "load_upstream",
    "record_from_upstream",
]

SUPERTYPES = ("Pokémon", "Trainer", "Energy")
BASE_FORMATS = ("standard", "expanded", "unlimited")


@dataclass(frozen=True, slots=True)
class CardRecord:
    """One printing of a card, as the legality engine needs it (simple types only)."""

    id: str  # upstream id, e.g. "sv1-86"
    name: str  # printed name as in the data
    norm_name: str  # normalise_name(name, supertype)
    supertype: str  # "Pokémon" | "Trainer" | "Energy"
    subtypes: tuple[str, ...]
    set_id: str
    set_code: str  # ptcgoCode, or "" when the set has none
    number: str
    regulation_mark: str  # "" when none
    evolves_from: str  # "" when none (as printed)
    legal: frozenset[str]  # formats where legality == "Legal" (standard/expanded/unlimited)
    banned: frozenset[str]  # formats where legality == "Banned"
    text_key: str  # 16-hex blake2b hash of the game text (reprint equivalence)
    is_basic_pokemon: bool
    is_basic_energy: bool
    is_ace_spec: bool
    is_radiant: bool
    is_prism_star: bool
    is_star: bool

    @property
    def is_pokemon(self) -> bool:
        return self.supertype == "Pokémon"

    @property
    def is_energy(self) -> bool:
        return self.supertype == "Energy"

    @property
    def is_level_up(self) -> bool:
        return "Level-Up" in self.subtypes

    @property
    def printing(self) -> str:
        """How a decklist names this printing: `SVI 86` (set id when there is no code)."""
        return f"{self.set_code or self.set_id} {self.number}"


# --------------------------------------------------------------------------- conversion

_REMINDER_RE = re.compile(
    r"^(?:you may play (?:as many|any number of) item cards"
    r"|you (?:may|can) play only (?:1|one) supporter card"
    r"|you may play only (?:1|one) stadium card"
    r"|this (?:card|stadium) stays in play"
    r"|attach a pok[eé]mon tool to 1 of your pok[eé]mon"
    r"|you may attach any number of pok[eé]mon tools"
    r"|(?:ace spec: )?you can't have more than 1 ace spec card"
    r"|◇ \(prism star\) rule"
    r"|you can't have more than 1 pok[eé]mon star"
    r"|radiant pok[eé]mon rule)",
    re.IGNORECASE,
)
_WS_RE = re.compile(r"\s+")


def _text_hash(parts: str) -> str:
    return hashlib.blake2b(parts.encode("utf-8"), digest_size=8).hexdigest()


def _effect_text(rules: Iterable[str]) -> str:
    kept = [line for line in rules if not _REMINDER_RE.match(line.strip())]
    return _WS_RE.sub("", " ".join(kept)).casefold()


def compute_text_key(card: dict[str, Any]) -> str:
    """The reprint-equivalence hash of one upstream card (see the module docstring)."""
    supertype = card.get("supertype", "")
    subtypes = card.get("subtypes") or []
    if str(supertype).startswith("Pok"):
        attacks = []
        for attack in card.get("attacks") or []:
            cost = ",".join(c for c in attack.get("cost") or [] if c != "Free")
            damage = str(attack.get("damage") or "").replace("×", "x").replace(" ", "")
            attacks.append(f"{str(attack.get('name', '')).casefold()}:{cost}:{damage}")
        abilities = [str(a.get("name", "")).casefold() for a in card.get("abilities") or []]
        parts = "|".join(
            (
                "P",
                ",".join(sorted(subtypes)),
                str(card.get("hp", "")),
                ",".join(card.get("types") or []),
                ";".join(abilities),
                ";".join(attacks),
            )
        )
    else:
        flags = sorted(s for s in subtypes if s in ("ACE SPEC", "Prism Star", "Basic"))
        parts = "|".join(
            (str(supertype)[:1], ",".join(flags), _effect_text(card.get("rules") or []))
        )
    return _text_hash(parts)


def _require_str(
    card: dict[str, Any], key: str, *, required: bool = True, allow_int: bool = False
) -> str:
    value = card.get(key)
    if value is None:
        if required:
            raise ValueError(f"card {card.get('id', '?')!r}: missing required field {key!r}")
        return ""
    if (
        isinstance(value, bool)
        or not isinstance(value, str | int)
        or (isinstance(value, int) and not allow_int)
    ):
        raise ValueError(
            f"card {card.get('id', '?')!r}: field {key!r} must be a string, "
            f"not {type(value).__name__}"
        )
    value = str(value)
    if required and not value.strip():
        raise ValueError(f"card {card.get('id', '?')!r}: field {key!r} is empty")
    return value


def _str_list(card: dict[str, Any], key: str) -> list[Any]:
    value = card.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(
            f"card {card.get('id', '?')!r}: field {key!r} must be a list, "
            f"not {type(value).__name__}"
        )
    return value


def record_from_upstream(card: dict, card_set: dict) -> CardRecord:
    """Convert one upstream card and its set into a `CardRecord`.

    Raises `ValueError` with a message naming the card and field when the record is
    malformed (not an object, missing id/name/supertype/number, wrong types).
    """
    if not isinstance(card, dict):
        raise ValueError(f"card must be a JSON object, not {type(card).__name__}")
    if not isinstance(card_set, dict):
        raise ValueError(f"set must be a JSON object, not {type(card_set).__name__}")
    card_id = _require_str(card, "id")
    name = _require_str(card, "name")
    supertype = _require_str(card, "supertype")
    if supertype == "Pokemon":
        supertype = "Pokémon"
    if supertype not in SUPERTYPES:
        raise ValueError(
            f"card {card_id!r}: supertype {supertype!r} is not one of {', '.join(SUPERTYPES)}"
        )
    set_id = _require_str(card_set, "id")
    set_code = _require_str(card_set, "ptcgoCode", required=False)
    number = _require_str(card, "number", required=False, allow_int=True)
    if not number:
        if card_id.startswith(set_id + "-"):
            number = card_id[len(set_id) + 1 :]
        else:
            raise ValueError(f"card {card_id!r}: missing required field 'number'")
    subtypes_raw = _str_list(card, "subtypes")
    if not all(isinstance(s, str) for s in subtypes_raw):
        raise ValueError(f"card {card_id!r}: field 'subtypes' must be a list of strings")
    subtypes = tuple(subtypes_raw)
    rules = _str_list(card, "rules")
    if not all(isinstance(r, str) for r in rules):
        raise ValueError(f"card {card_id!r}: field 'rules' must be a list of strings")
    for key in ("attacks", "abilities"):
        if not all(isinstance(a, dict) for a in _str_list(card, key)):
            raise ValueError(f"card {card_id!r}: field {key!r} must be a list of objects")
    _str_list(card, "types")
    legalities = card.get("legalities")
    if legalities is None:
        legalities = {}
    if not isinstance(legalities, dict):
        raise ValueError(f"card {card_id!r}: field 'legalities' must be an object")
    legal = frozenset(k for k, v in legalities.items() if v == "Legal" and k in BASE_FORMATS)
    banned = frozenset(k for k, v in legalities.items() if v == "Banned" and k in BASE_FORMATS)
    regulation_mark = _require_str(card, "regulationMark", required=False)
    evolves_from = _require_str(card, "evolvesFrom", required=False)

    is_pokemon = supertype == "Pokémon"
    rules_text = " ".join(rules)
    return CardRecord(
        id=card_id,
        name=name,
        norm_name=normalise_name(name, supertype),
        supertype=supertype,
        subtypes=subtypes,
        set_id=set_id,
        set_code=set_code,
        number=number,
        regulation_mark=regulation_mark,
        evolves_from=evolves_from,
        legal=legal,
        banned=banned,
        text_key=compute_text_key(card),
        # Baby Pokémon (neo/e-card era) lack the Basic subtype in the data but are played
        # as Basic Pokémon, so they count. Trainers played "as if" Basic Pokémon
        # (Mysterious Fossil, Clefairy Doll, Antique ... Fossil) never count.
        is_basic_pokemon=is_pokemon and ("Basic" in subtypes or "Baby" in subtypes),
        is_basic_energy=supertype == "Energy" and "Basic" in subtypes,
        is_ace_spec="ACE SPEC" in subtypes or "ACE SPEC" in rules_text,
        is_radiant=is_pokemon and "Radiant" in subtypes,
        is_prism_star="Prism Star" in subtypes or "◇" in name,
        is_star=is_pokemon and ("Star" in subtypes or "★" in name),
    )


def load_upstream(path: str | Path) -> Iterator[CardRecord]:
    """Yield a `CardRecord` for every card in an upstream-layout folder.

    `path` holds `sets/en.json` and `cards/en/<set id>.json`; sets are read in the order of
    `sets/en.json` (release order), cards in file order.
    """
    root = Path(path)
    sets = json.loads((root / "sets" / "en.json").read_text(encoding="utf-8"))
    for card_set in sets:
        card_file = root / "cards" / "en" / f"{card_set['id']}.json"
        if not card_file.exists():
            continue
        for card in json.loads(card_file.read_text(encoding="utf-8")):
            yield record_from_upstream(card, card_set)
