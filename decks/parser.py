"""Decklist text parser: `parse_decklist(text) -> ParsedDeck`.

Plain Python (no Django import) so it is fast and testable alone. It never raises for any
text: every line it cannot read becomes a `parse-error` finding, and such a line counts
toward nothing.

Accepted input:

* The Pokémon TCG Live export: section headers `Pokémon: 12`, `Trainer: 10`,
  `Energy: 2` (the number counts lines, not cards, and is not checked), also in French
  (`Dresseur`, `Énergie`), German (`Trainer`, `Energie`), Spanish (`Entrenador`,
  `Energía`), Italian (`Allenatore`, `Energia`) and Portuguese (`Treinador`, `Energia`),
  with or without accents, with `:` or ` - ` and an optional `##` (old PTCGO export);
  card lines `COUNT NAME SETCODE NUMBER` (`4 Pikachu ex SVI 57`, `1 Iono PAL 185 PH`,
  `2 Lugia V SIT 138`, `1 Zeraora VMAX CRZ-GG GG42`, `1 Mew ex PR-SV 53`), basic Energy as
  `10 Basic {R} Energy SVE 2` or the old `4 Basic {M} Energy Energy 25`; a closing
  `Total Cards: 60` (or `Total de cartes : 60`, ...), which is not checked.
* Plain `COUNT NAME` lines (`4 Pikachu`), an old PTCGO `* ` bullet (or `•`, `·`) before
  the count, and `4x Pikachu` / `4X Pikachu` (an `x` glued to the count: a common forum
  style).
* A pokemontcg.io card id instead of the code and number (`4 Yanma hgss4-84`, read as
  set id `hgss4`, number `84`), and name-less lines (`* 4 OBF 186`: the name is empty, the
  engine takes the printing's).
* Exporters' pseudo-sets for basic Energy, all read as the code `Energy` (the name alone
  counts): `Energy 40`, `SWSHEnergy 14`, `SMEnergy 4`, `Base 5`, and a type letter for a
  number (`6 Fire Energy BRS R`), after a name ending in "Energy".
* A title line: the first non-blank line may name the deck (`Lost Box - Regionals 2024`)
  and is skipped, unless it reads like a card written the wrong way round (`Pikachu x4`).
* Blank lines, Windows or old Mac line ends, a byte-order mark, `//` and `#` comment
  lines, decoration lines (`****`, `======`) and banners such as PTCGO's
  `****** Pokémon Trading Card Game Deck List ******` are skipped. Names are kept as
  written (curly apostrophes, `Pokemon` without the accent: `rules.names` compares them).
  The same card on two lines is kept as two lines (the legality engine sums by name).

Limits: a paste over `MAX_PASTE_CHARS` characters (`paste-too-long`) or `MAX_PASTE_LINES`
lines (`too-many-lines`) is not read at all; the finding names the limit.

Not card lines (a `parse-error` each): a count in words (`four Pikachu`), a count after the
name (`Pikachu x4`), a count of 0, a signed count (`-1 Pikachu`), a count above 999, a
line longer than 300 characters, and any other text.

Set code + number vs. name: the last two tokens are read as a set code and a collector
number when the last is number-like (`57`, `GG39`, `TG08`, `RC11`, `SWSH135`, `77a`,
`2_A`) and the one before is code-like: upper-case letters/digits with at most one
hyphen (`SVI`, `PR-SV`, `CRZ-GG`, `G1`), a lower-case set id with a digit (`sv1`,
`swsh12pt5`), or `Energy` right after a name ending in "Energy". Tokens that end Pokémon
names (`V`, `GX`, `VMAX`, `VSTAR`, `C`, `G`, `GL`, `FB`, `E4`, `BREAK`, `LEGEND`, `LV`)
are never read as a code, so `Zacian V` or `Garchomp C LV.X` keep their names. `EX` is a
real set code (Expedition) and is read as one; the engine retries `Mewtwo EX 54` as the
name `Mewtwo EX` when EX 54 is another card. A trailing `PH` (TCG Live's alternate
print) after the number is dropped.
"""

from __future__ import annotations

import re
import unicodedata

from rules.decklist import DeckLine, ParsedDeck
from rules.findings import Finding
from rules.i18n import gettext_noop, say

__all__ = [
    "MAX_COUNT",
    "MAX_LINE_LENGTH",
    "MAX_PASTE_CHARS",
    "MAX_PASTE_LINES",
    "DeckLine",
    "ParsedDeck",
    "parse_decklist",
]

MAX_COUNT = 999
MAX_LINE_LENGTH = 300
#: What one paste may hold. The longest real list (a singleton list with headers) has about
#: 80 lines and 2,000 characters; a paste over either limit is not read at all
#: (`paste-too-long`, `too-many-lines`), so no text costs more than 250 line look-ups.
MAX_PASTE_CHARS = 20_000
MAX_PASTE_LINES = 250

_SECTIONS = {
    "Pokémon": ("pokemon", "pokemons", "pokemon cards"),
    "Trainer": (
        "trainer",
        "trainers",
        "trainer cards",
        "dresseur",
        "dresseurs",
        "entrenador",
        "entrenadores",
        "allenatore",
        "allenatori",
        "treinador",
        "treinadores",
    ),
    "Energy": (
        "energy",
        "energies",
        "energy cards",
        "energie",
        "energien",
        "energia",
        "energias",
    ),
}
_SECTION_BY_LABEL = {label: canon for canon, labels in _SECTIONS.items() for label in labels}
_TOTAL_WORDS = ("total", "gesamt", "totali", "totale")

_HEADER_RE = re.compile(
    r"(?:#+\s*)?(?P<label>[^\W\d_][^:()\d]{0,40}?)\s*"
    r"(?:[:\-–—]\s*(?P<n>[0-9]{1,4})|\(\s*(?P<n2>[0-9]{1,4})\s*\)|:)?\s*"
)
_SIGNED_RE = re.compile(r"(?:\*\s*)?[+\-−]\s*[0-9]+(?:[xX×])?\s+\S")
_COUNT_AFTER_RE = re.compile(r".*\S\s*[xX×]\s*[0-9]+|.*\S\s+\(?[0-9]+\)?")
# `Pikachu x4`, `Pikachu 4`: a card written the wrong way round, never a title (a title
# may end in a year: `Lost Box - Regionals 2024`).
_COUNT_AFTER_FEW_RE = re.compile(r".*\S\s*[xX×]\s*[0-9]{1,3}|.*\S\s+\(?[0-9]{1,2}\)?")
_WORD_COUNT_RE = re.compile(
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|an)\s+\S",
    re.IGNORECASE,
)
_DECORATION_RE = re.compile(r"[*=_\-~#.\s]+")
_BANNER_ENDS = ("***", "===", "---", "~~~")  # e.g. the old PTCGO "****** ... ******" title
_NUMBER_PATTERN = r"(?:[A-Za-z]{1,6}-?)?[0-9]{1,4}[A-Za-z]?(?:_[A-Za-z][0-9]?)?"
_CODE_PATTERN = (
    r"[A-Z][A-Z0-9]{0,5}(?:-[A-Z0-9]{1,6})?"
    r"|[0-9][A-Z0-9]{0,4}[A-Z][A-Z0-9]{0,4}"
    r"|[a-z]{1,8}[0-9][a-z0-9]{0,8}"
    r"|svp|swshp|smp|xyp|bwp|dpp|hsp|np|mep|basep|sve|sma|pgo|bp"
    r"|[Ee]nergy|ENERGY"
)
# Exporters' pseudo-sets for basic Energy (`SWSHEnergy 14`, `SMEnergy 4`, `Base 5`, `Energy
# 40`) and the type letter some write instead of a number (`Fire Energy BRS R`).
_ENERGY_CODE_RE = re.compile(r"[A-Z]{0,6}[Ee]nergy|ENERGY|Base|BASE")
_TYPE_LETTER_RE = re.compile(r"[GRWLPFDMY]")
# A pokemontcg.io card id as the last token: `hgss4-84`, `base1-71`, `swshp-SWSH154`.
_ID_RE = re.compile(
    r"(?P<set>[a-z]{1,8}[0-9][a-z0-9]{0,8}|svp|swshp|smp|xyp|bwp|dpp|hsp|np|mep|basep|sve|sma"
    r"|pgo|bp)-(?P<number>[A-Za-z]{0,6}[0-9]{1,4}[A-Za-z]?(?:_[A-Za-z][0-9]?)?|[A-Z!?]{1,4})"
)
_CARD_RE = re.compile(r"(?:[*•·◦‣▪●]\s*)?(?P<count>[0-9]+)[xX×]?\s+(?=\S)")
_is_number = re.compile(_NUMBER_PATTERN).fullmatch
_is_code = re.compile(_CODE_PATTERN).fullmatch
_NAME_SUFFIXES = frozenset(
    {
        "V",
        "GX",
        "VMAX",
        "VSTAR",
        "C",
        "G",
        "GL",
        "FB",
        "E4",
        "BREAK",
        "LEGEND",
        "LV",
        "X",
        "M",
        "TAG",
        "TEAM",
        "UNION",
        "V-UNION",
    }
)
_INVISIBLE = str.maketrans({"\ufeff": None, "\u200b": None, "\u00a0": " ", "\u202f": " "})


def _fold(label: str) -> str:
    decomposed = unicodedata.normalize("NFKD", label)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.casefold().split())


def _shown(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _split_card(rest: str) -> tuple[str, str | None, str | None]:
    """NAME [CODE NUMBER [PH]] -> (name, set_code, number); the name keeps any rejected code."""
    parts = rest.rsplit(None, 2)
    last = parts[-1]
    if "-" in last and last[0].islower():
        ident = _ID_RE.fullmatch(last)
        if ident is not None:
            return _clean(rest[: -len(last)].rstrip()), ident.group("set"), ident.group("number")
    if (
        len(parts) == 2
        and _is_number(parts[1])
        and _is_code(parts[0])
        and parts[0] not in _NAME_SUFFIXES
        and parts[0].casefold() != "energy"
    ):
        return "", parts[0], parts[1]  # a name-less line: `* 4 OBF 186`
    if len(parts) == 3:
        head, code, number = parts
        if number == "PH" and _is_number(code):
            more = head.rsplit(None, 1)
            if len(more) == 2:
                head, code, number = more[0], more[1], code
        if _is_number(number) and code not in _NAME_SUFFIXES and _is_code(code):
            if code[0] not in "Ee" or code.casefold() != "energy":
                return _clean(head), code, number
            if head.casefold().endswith("energy"):
                return _clean(head), "Energy", number
        if head.casefold().endswith("energy") and (
            (_ENERGY_CODE_RE.fullmatch(code) and _is_number(number))
            or (_TYPE_LETTER_RE.fullmatch(number) and _is_code(code))
        ):
            return _clean(head), "Energy", number
    return _clean(rest), None, None


def _clean(name: str) -> str:
    if name.isascii() and "  " not in name and "\t" not in name:
        return name
    return " ".join(name.split())


def _is_title(text: str) -> bool:
    """The first line of a paste may name the deck (`Lost Box - Regionals 2023`), as
    players and sites write above an export; it is skipped unless it looks like a card line
    written the wrong way round."""
    return (
        len(text) <= 80
        and _CARD_RE.match(text) is None
        and not _SIGNED_RE.match(text)
        and not _WORD_COUNT_RE.match(text)
        and not _COUNT_AFTER_FEW_RE.fullmatch(text)
    )


def _not_a_card(line_no: int, text: str) -> Finding:
    if _SIGNED_RE.match(text):
        msgid = gettext_noop(
            "Line %(line)s: '%(text)s' has a signed count; write how many copies as a plain "
            "number of at least 1, e.g. '4 Pikachu'."
        )
    elif _WORD_COUNT_RE.match(text):
        msgid = gettext_noop(
            "Line %(line)s: '%(text)s' has its count in words; write it in digits, "
            "e.g. '4 Pikachu'."
        )
    elif _COUNT_AFTER_RE.fullmatch(text):
        msgid = gettext_noop(
            "Line %(line)s: '%(text)s' is not a card line; write the count first, "
            "e.g. '4 Pikachu' or '4 Pikachu ex SVI 57'."
        )
    else:
        # Translators: COUNT, NAME, SET and NUMBER are the parts of a card line; translate
        # them, keep the examples as they are.
        msgid = gettext_noop(
            "Line %(line)s: '%(text)s' is not a card line. Write 'COUNT NAME' (4 Pikachu) or "
            "'COUNT NAME SET NUMBER' (4 Pikachu ex SVI 57), or remove it."
        )
    return Finding("parse-error", (line_no,), say(msgid, line=line_no, text=_shown(text)))


def parse_decklist(text: str) -> ParsedDeck:
    """Parse a decklist; unreadable lines become `parse-error` findings, never exceptions."""
    if text is None:
        text = ""
    elif isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        text = str(text)
    if len(text) > MAX_PASTE_CHARS:
        return ParsedDeck(
            (),
            (
                Finding(
                    "paste-too-long",
                    (),
                    say(
                        gettext_noop(
                            "The decklist is %(length)s characters long; a paste may hold at "
                            "most %(max)s characters. Paste one decklist, one card per line."
                        ),
                        length=f"{len(text):,}",
                        max=f"{MAX_PASTE_CHARS:,}",
                    ),
                ),
            ),
        )
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    raw_lines = text.split("\n")
    if len(raw_lines) > MAX_PASTE_LINES:
        return ParsedDeck(
            (),
            (
                Finding(
                    "too-many-lines",
                    (),
                    say(
                        gettext_noop(
                            "The decklist has %(count)s lines; a paste may hold at most %(max)s "
                            "lines. Paste one decklist, one card per line."
                        ),
                        count=f"{len(raw_lines):,}",
                        max=MAX_PASTE_LINES,
                    ),
                ),
            ),
        )

    lines: list[DeckLine] = []
    errors: list[Finding] = []
    section: str | None = None
    started = False
    for line_no, raw in enumerate(raw_lines, start=1):
        stripped = (raw if raw.isascii() else raw.translate(_INVISIBLE)).strip()
        if not stripped:
            continue
        first, started = not started, True
        if len(stripped) > MAX_LINE_LENGTH:
            errors.append(
                Finding(
                    "parse-error",
                    (line_no,),
                    say(
                        gettext_noop(
                            "Line %(line)s: the line is %(length)s characters long, too long for "
                            "a card line ('%(text)s'). Write one card per line."
                        ),
                        line=line_no,
                        length=len(stripped),
                        text=_shown(stripped),
                    ),
                )
            )
            continue

        if not stripped[0].isdigit():
            header = _HEADER_RE.fullmatch(stripped)
            if header is not None:
                label = _fold(header.group("label"))
                canon = _SECTION_BY_LABEL.get(label)
                if canon is not None:
                    section = canon
                    continue
                if (header.group("n") or header.group("n2")) and any(
                    word in label for word in _TOTAL_WORDS
                ):
                    section = None
                    continue
            if (
                stripped.startswith(("//", "#"))
                or _DECORATION_RE.fullmatch(stripped)
                or (stripped[:3] in _BANNER_ENDS and stripped[-3:] == stripped[:3])
            ):
                continue
            if first and _is_title(stripped):
                continue

        match = _CARD_RE.match(stripped)
        if match is None:
            errors.append(_not_a_card(line_no, stripped))
            continue
        digits = match.group("count")
        count = int(digits) if len(digits) <= 6 else MAX_COUNT + 1
        if count < 1:
            errors.append(
                Finding(
                    "parse-error",
                    (line_no,),
                    say(
                        gettext_noop(
                            "Line %(line)s: '%(text)s' has a count of 0; write at least 1 or "
                            "remove the line."
                        ),
                        line=line_no,
                        text=_shown(stripped),
                    ),
                )
            )
            continue
        if count > MAX_COUNT:
            errors.append(
                Finding(
                    "parse-error",
                    (line_no,),
                    say(
                        gettext_noop(
                            "Line %(line)s: '%(text)s' has a count of %(count)s, more than "
                            "%(max)s; write how many copies the deck holds."
                        ),
                        line=line_no,
                        text=_shown(stripped),
                        count=_shown(digits, 12),
                        max=MAX_COUNT,
                    ),
                )
            )
            continue
        name, set_code, number = _split_card(stripped[match.end() :])
        lines.append(DeckLine(line_no, count, name, set_code, number, raw, section))
    return ParsedDeck(lines=tuple(lines), errors=tuple(errors))
