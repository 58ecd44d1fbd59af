"""Card-name normalisation: the key behind the 4-copy rule and every name comparison.

`normalise_name(printed_name, supertype)` turns a name as printed in the card data, or as a
player typed it, into a comparison key. Two cards have "the same name" for deck building
exactly when their keys are equal. Decisions (see the data README for the naming notes):

* **Case** is ignored (`casefold`): `Ho-oh` = `Ho-Oh`.
* **Accents** are dropped (NFKD, combining marks removed): `Pokemon` = `Pokémon`,
  `Poke Ball` = `Poké Ball`, `Flabebe` = `Flabébé`. Full-width and other compatibility
  characters fold to their plain forms.
* **Punctuation variants:** curly apostrophes, primes and back-ticks become `'`; en and em
  dashes become `-`; non-breaking and other odd spaces become one space; whitespace runs
  collapse and the ends are trimmed.
* **Levels are not part of the name:** ` LV.43`, ` LV. 43`, ` Lv 43` and ` LV.X` are
  removed, so `Gengar`, `Gengar LV.43` and `Gengar LV.X` all have the key `gengar`, and
  `Luxray GL LV.X` is `luxray gl` (the SP symbol stays).
* **Delta Species:** on a Pokémon (`supertype` starting with "Pok") the `δ` mark is dropped
  (`Aerodactyl δ` is `aerodactyl`, `Charizard ★ δ` is `charizard ★`). On Trainers and
  Energy a Greek letter is part of the name (`δ Rainbow Energy`, `Mystery Plate δ`). When
  the supertype is unknown (`None`, a name typed by a player) the `δ` is kept; the card
  index then retries without it among Pokémon (see `rules.cards.CardIndex.by_name`).
* **Star:** `☆` (and `✩`) is the same mark as `★`. Star, Prism Star (`◇`; `◆`, `♢`, `◊` are
  read as `◇`) and gender signs are separate tokens: `Alakazam★` = `Alakazam ★`,
  `Nidoran♀` = `Nidoran ♀`. `Nidoran F`, `Nidoran (F)` and `Nidoran female` are read as
  `Nidoran ♀` (and likewise for ♂). `Alakazam ★` and `Alakazam` stay different names.
* **Kept as part of the name:** SP symbols (`G`, `GL`, `FB`, `C`, `E4`), owners
  (`Brock's Geodude` differs from `Geodude`), `Dark`/`Light`/`Radiant`/regional prefixes,
  and the suffixes `ex`, `EX`, `GX`, `V`, `VMAX`, `VSTAR`, `BREAK`, `LEGEND`.
* **EX / GX spelling:** the data always writes `Mewtwo-EX` and `Tapu Lele-GX` (hyphen),
  never with a space, while `ex` (2003-07 and 2023 on) is always ` ex`. Case is what tells
  them apart (`Gardevoir ex` ex2-96 and `Gardevoir-EX` are different cards with different
  names), so it is read *before* case folding: an upper-case `EX` suffix, written
  ` EX`, `-EX` or `- EX`, becomes `-EX`; a lower-case `ex` suffix, written ` ex`, `-ex` or
  `- ex` (the 2004 cards are often written `Gardevoir-ex`), becomes ` ex`. So
  `Mewtwo EX` = `Mewtwo-EX`, `Gardevoir-ex` = `Gardevoir ex`, and the two families never
  meet. ` GX` in any case becomes `-GX` (no ` gx` names exist).
* **Parenthesised subtitles are not part of the name:** `Professor's Research (Professor
  Oak)` and `Boss's Orders (Ghetsis)` are `professor's research` and `boss's orders`, as in
  the official rules (all Professor's Research count together toward the limit of 4).
  A parenthesised *single* letter or mark is not a subtitle but the end of the name, as
  the 2011 rulebook says of symbols at the end of a Pokémon's name: `Unown (A)` =
  `Unown [A]` = `Unown A`, which differs from `Unown (B)`. Brackets are read as spaces.
* **Symbols written out:** `&amp;` (and other HTML entities) are unescaped
  (`Reshiram &amp; Charizard-GX`); `{*}` and a final `Prism Star` are `◇`
  (`Heat Factory Prism Star` = `Heat Factory ◇`).
* **Export suffixes:** RK9's ` - Basic` / ` - Special` after an Energy name
  (`Lightning Energy - Basic`) are dropped. PTCGO's letters for multi-type Energy
  (`Blend Energy WLFM`, `Unit Energy LPM`) become the type names the data writes
  (`Blend Energy WaterLightningFightingMetal`).
* **Energy symbols:** `{G} {R} {W} {L} {P} {F} {D} {M} {Y} {N} {C}` (as written by TCG
  Live) become type names: `Basic {R} Energy` is `Basic Fire Energy`, and
  `Blend Energy {G}{R}{P}{D}` is `Blend Energy GrassFirePsychicDarkness` as in the data.
* **Basic Energy names:** `Basic Fire Energy` (sve) and `Fire Energy` (older sets) are the
  same name (`fire energy`). Whether a card *is* basic Energy is never decided by the
  name; see `rules.cards.CardRecord.is_basic_energy`.

The function is pure and cached (an LRU cache keyed by name and supertype class), so
calling it once per decklist line is cheap.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

__all__ = [
    "ENERGY_SYMBOLS",
    "display_name",
    "loose_key",
    "normalise_name",
    "strip_level",
    "supertype_class",
]

ENERGY_SYMBOLS: dict[str, str] = {
    "G": "Grass",
    "R": "Fire",
    "W": "Water",
    "L": "Lightning",
    "P": "Psychic",
    "F": "Fighting",
    "D": "Darkness",
    "M": "Metal",
    "Y": "Fairy",
    "N": "Dragon",
    "C": "Colorless",
}

_TRANSLATE = str.maketrans(
    {
        "☆": "★",
        "✩": "★",
        "\u2019": "'",
        "\u2018": "'",
        "\u02bc": "'",
        "\u2032": "'",
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "◆": "◇",
        "♢": "◇",
        "◊": "◇",
        "\u2013": "-",
        "\u2014": "-",
        "\u2010": "-",
        "\u2011": "-",
        "\u2212": "-",
        "[": " ",
        "]": " ",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\t": " ",
        "\ufeff": "",
        "\u200b": "",
    }
)

_ENERGY_SYMBOL_RE = re.compile(r"\{([GRWLPFDMYNC])\}", re.IGNORECASE)
_NIDORAN_RE = re.compile(
    r"(nidoran)\s*(?:(♀|\(f\)|\bf\b|\bfemale\b)|(♂|\(m\)|\bm\b|\bmale\b))", re.IGNORECASE
)
_LEVEL_RE = re.compile(r"\s+lv\.?\s*(?:\d+|x)(?=\s|$)", re.IGNORECASE)
_PAREN_RE = re.compile(r"(?<=\S)(?:\s*\([^()]{2,}\))+\s*$")
_MARK_PAREN_RE = re.compile(r"\s*\((\S)\)\s*$")
_EX_RE = re.compile(r"(?<=\w)(?:\s+-?\s*|\s*-\s*)EX(?=\s|$)")
_LOWER_EX_RE = re.compile(r"(?<=\w)\s*-\s*ex(?=\s|$)")
_PRISM_RE = re.compile(r"(?:\s*\{\*\}|\s+prism\s+star)(?=\s|$)", re.IGNORECASE)
_RK9_SUFFIX_RE = re.compile(r"(?<=energy)\s+-\s+(?:basic|special)$", re.IGNORECASE)
_TYPE_LETTERS_RE = re.compile(r"(?<=\bEnergy )([GRWLPFDMYN]{2,5})$")
_GX_RE = re.compile(r"(?<=\w)(?:\s+-?\s*|\s*-\s*)gx(?=\s|$)", re.IGNORECASE)
_SYMBOL_SPACE_RE = re.compile(r"\s*([★◇♀♂])")
_DELTA_RE = re.compile(r"\s*δ")
_DELTA_SPACE_RE = re.compile(r"(?<=\S)δ")
_BASIC_ENERGY_RE = re.compile(
    r"^basic (grass|fire|water|lightning|psychic|fighting|darkness|metal|fairy) energy$"
)
_LOOSE_DROP_RE = re.compile(r"[^\w★◇♀♂]")


def supertype_class(supertype: str | None) -> str:
    """'P' for Pokémon, 'T' for Trainer, 'E' for Energy, '' when unknown."""
    if not supertype:
        return ""
    first = supertype[:1].upper()
    return first if first in ("P", "T", "E") else ""


def _fold_accents(s: str) -> str:
    decomposed = unicodedata.normalize("NFKD", s)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _energy_symbol(match: re.Match[str]) -> str:
    return ENERGY_SYMBOLS[match.group(1).upper()]


def _type_letters(match: re.Match[str]) -> str:
    return "".join(ENERGY_SYMBOLS[ch] for ch in match.group(1))


def _nidoran(match: re.Match[str]) -> str:
    return match.group(1) + (" ♀" if match.group(2) else " ♂")


def strip_level(name: str) -> str:
    """Remove a written level (`LV.43`, `LV. 43`, `Lv 43`, `LV.X`) from a name."""
    return _LEVEL_RE.sub("", name)


@lru_cache(maxsize=1 << 16)
def _normalise(name: str, kind: str) -> str:
    if "&" in name and ";" in name:
        name = html.unescape(name)
    if "(" in name and name.rstrip().endswith(")"):
        name = _MARK_PAREN_RE.sub(r" [\1]", name)
    s = name.translate(_TRANSLATE)
    if not s.isascii():
        s = _fold_accents(s)
    if "{" in s or "rism" in s or "RISM" in s:
        s = _PRISM_RE.sub(" ◇", s)
    if "{" in s:
        s = _ENERGY_SYMBOL_RE.sub(_energy_symbol, s)
    if "idoran" in s or "IDORAN" in s:
        s = _NIDORAN_RE.sub(_nidoran, s)
    s = " ".join(s.split())
    if "v" in s or "V" in s:
        s = _LEVEL_RE.sub("", s)
    if ")" in s:
        s = _PAREN_RE.sub("", s)
    if "EX" in s:
        s = _EX_RE.sub("-EX", s)
    if "-" in s and "ex" in s:
        s = _LOWER_EX_RE.sub(" ex", s)
    if kind in ("E", "") and "nergy" in s:
        if " - " in s:
            s = _RK9_SUFFIX_RE.sub("", s)
        s = _TYPE_LETTERS_RE.sub(_type_letters, s)
    if "x" in s or "X" in s:
        s = _GX_RE.sub("-GX", s)
    s = s.casefold()
    if not s.isascii():
        s = _fold_accents(s.translate(_TRANSLATE))
        if "δ" in s:
            s = _DELTA_RE.sub("", s) if kind == "P" else _DELTA_SPACE_RE.sub(" δ", s)
        s = _SYMBOL_SPACE_RE.sub(r" \1", s)
    s = " ".join(s.split())
    if kind in ("E", "") and s.startswith("basic "):
        s = _BASIC_ENERGY_RE.sub(r"\1 energy", s)
    return s


def normalise_name(printed_name: str, supertype: str | None = None) -> str:
    """The comparison key of a card name (see the module docstring for every rule).

    `supertype` is the card's supertype when known ("Pokémon", "Trainer", "Energy"); it
    only changes how a `δ` is treated (dropped on Pokémon, kept otherwise) and whether
    `Basic X Energy` folds to `X Energy` (not on Pokémon or Trainers).
    """
    return _normalise(printed_name, supertype_class(supertype))


def loose_key(name: str, supertype: str | None = None) -> str:
    """A looser key: the normalised name with punctuation and spaces removed.

    Used only as a fallback for typed names (`Porygon Z` for `Porygon-Z`, `Mr Mime` for
    `Mr. Mime`, `Farfetchd`), never for the 4-copy rule.
    """
    return _LOOSE_DROP_RE.sub("", normalise_name(name, supertype)).replace("_", "")


def display_name(printed_name: str, supertype: str | None = None) -> str:
    """The printed name without level, subtitle in parentheses or (on Pokémon) δ mark.

    Used in messages about a name group, e.g. "5 cards named Gengar".
    """
    s = " ".join(printed_name.split())
    s = _LEVEL_RE.sub("", s)
    s = _PAREN_RE.sub("", s)
    if supertype_class(supertype) == "P" and "δ" in s:
        s = _DELTA_RE.sub("", s)
    return s.strip() or printed_name
