"""Which card a decklist line means: `resolve_line(index, fmt, name, code, number)`.

A line is resolved to one printing (or to none) before any deck rule is applied. The result
(`Resolution`) carries the printing, its legality in the format, and at most one finding
about the line itself (without the `Line N: ` prefix, which the caller adds):

* **Set code + number** (`4 Pikachu ex SVI 57`, `4 Yanma hgss4-84`): the printings that
  code and number may mean (`CardIndex.printings`: TCG Live/PTCGO codes, set ids,
  promo codes without their series prefix, `CRZ-GG 39` for GG39) are compared with the
  written name (`names_agree`: the card's name, a level or accent written differently,
  symbols written out, or a known short form such as `Battle Compressor`). One that agrees
  is the card. A name-less line (`4 OBF 186`) takes the printing's name.
* **They disagree.** The card rules count cards by name, so a written name that is a card
  wins over a wrong number, and the player is told with both names:
  - the number names another card: if the written set has one card of the written name,
    the line is read as that printing (`6 Darkness Energy UF 86`: UF 86 is Mary's Request,
    UF 96 the Special Darkness Energy, never a silent basic Energy), with a
    `printing-corrected` warning naming both; else it is read by its name with a
    `printing-mismatch` warning (`SUM 83 is Sandile, not Zorua. Read as Zorua by its name`);
  - it names the same card with a mark left out (`Umbreon pop5-17` for `Umbreon ★`):
    read as that printing, `printing-corrected` warning (the ★ rules then apply);
  - the written name is no card's but is a slip of the printing's (`Azelv Lv.X dp6-140`,
    `Pokegear hgss1-96`): read as the printing, `printing-corrected` warning; another
    unknown name is `unknown-card`, saying what the number is;
  - the number names nothing: if that set has the written name, the line is read as that
    printing with a `printing-corrected` warning that names it; if the set (or an unknown
    code, say a set newer than the data) does not have it, the line is read by name (the
    printing with the fewest restrictions, see below) and the warning names the other
    cards of that name when there are any. Several cards of that name in that set:
    `ambiguous-card` error listing them.
  A name that starts with `Basic` (`Basic {D} Energy`) only ever means basic Energy.
* **Pseudo-sets** of basic Energy (the parser turns `Energy 40`, `SWSHEnergy 14`,
  `Base 5`, `BRS R` into the code `Energy`): the name alone counts; a basic Energy
  printing is preferred.
* **A name alone** (`4 Computer Search`): every printing with that name is a candidate;
  the one used for the rules is legal in the format if any is, and among those the one
  with the fewest deck-building restrictions (basic Energy before Special Energy, a plain
  Trainer before an ACE SPEC, a Pokémon before its ★ or ◇ form). When legal printings with
  different restrictions share the name, an `ambiguous-name` warning says which was
  assumed and asks for the set code.
* Otherwise `unknown-card` (the caller adds "did you mean" suggestions, for a bounded
  number of lines).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import CardIndex, CardRecord, FormatSpec, short_form
from rules.i18n import Text, gettext_noop, say, sentences
from rules.names import normalise_name

__all__ = ["Resolution", "names_agree", "resolve_line"]

ENERGY_PSEUDO_CODE = "Energy"
_LVX_RE = re.compile(r"\blv\.?\s*x\b", re.IGNORECASE)
_TRAILING_NUMBER_RE = re.compile(r"^(?P<name>.+?)\s+(?:#\s*)?[A-Za-z]{0,6}\d{1,4}[a-z]?$")


@dataclass(frozen=True, slots=True)
class Resolution:
    rec: CardRecord | None  # the printing used for the rules; None when no card is meant
    legal: bool
    banned: bool
    by_name: bool  # resolved by name (the written set and number did not pin it)
    code: str = ""  # a finding about the line: its code ("" when none) ...
    text: Text | None = None  # ... and its text, without the "Line N: " prefix
    suggest_for: str = ""  # unknown-card: the name to look for "did you mean" hints

    @property
    def message(self) -> str:
        return self.text.render() if self.text is not None else ""


def _restrictions(rec: CardRecord) -> int:
    return (rec.is_energy and not rec.is_basic_energy) + 2 * (
        rec.is_ace_spec or rec.is_prism_star or rec.is_star or rec.is_radiant
    )


def _rule_kind(rec: CardRecord) -> tuple[bool, ...]:
    """What the deck rules read from a printing; printings alike here are interchangeable."""
    return (
        rec.is_basic_energy,
        rec.is_ace_spec,
        rec.is_prism_star,
        rec.is_star,
        rec.is_radiant,
        rec.is_basic_pokemon,
        rec.supertype == "Pokémon",
    )


def _pick(
    index: CardIndex, candidates: Sequence[CardRecord], written: str, fmt: FormatSpec
) -> tuple[CardRecord, bool]:
    """The representative printing of a name-only line, and whether any printing is legal."""
    legal = [r for r in candidates if index.is_legal(r, fmt)]
    pool = legal or list(candidates)
    fewest = min(_restrictions(r) for r in pool)
    pool = [r for r in pool if _restrictions(r) == fewest]
    wants_lvx = bool(_LVX_RE.search(written))
    wants_delta = "δ" in written
    best = pool[0]
    best_key = None
    for pos, rec in enumerate(pool):
        key = (
            rec.is_level_up == wants_lvx,
            ("δ" in rec.name) == wants_delta,
            rec.regulation_mark,
            pos,
        )
        if best_key is None or key > best_key:
            best, best_key = rec, key
    return best, bool(legal)


def _by_name(
    index: CardIndex,
    fmt: FormatSpec,
    written: str,
    cands: Sequence[CardRecord],
    *,
    code: str = "",
    message: Text | None = None,
) -> Resolution:
    rec, legal = _pick(index, cands, written, fmt)
    banned = not legal and any(index.is_banned(r, fmt) for r in cands)
    if not code and legal and _restrictions(rec) < 2:
        others = [r for r in cands if _restrictions(r) >= 2 and index.is_legal(r, fmt)]
        if others:
            code = "ambiguous-name"
            message = say(
                _RESTRICTION_MSGIDS[_restriction_kind(others[0])],
                written=written,
                card=f"{rec.name} ({rec.printing})",
                other=f"{others[0].name} ({others[0].printing})",
            )
    return Resolution(rec, legal, banned, True, code, message)


def _restriction_kind(rec: CardRecord) -> str:
    if rec.is_ace_spec:
        return "ace-spec"
    if rec.is_prism_star:
        return "prism-star"
    if rec.is_star:
        return "star"
    return "radiant" if rec.is_radiant else "other"


#: `ambiguous-name`, one sentence for each kind of card the name could also be.
_RESTRICTION_MSGIDS = {
    "ace-spec": gettext_noop(
        "%(written)s names more than one card: read as %(card)s, not the ACE SPEC %(other)s. "
        "Add the set code and number if you mean that one."
    ),
    "prism-star": gettext_noop(
        "%(written)s names more than one card: read as %(card)s, not the Prism Star (◇) "
        "%(other)s. Add the set code and number if you mean that one."
    ),
    "star": gettext_noop(
        "%(written)s names more than one card: read as %(card)s, not the Pokémon ★ %(other)s. "
        "Add the set code and number if you mean that one."
    ),
    "radiant": gettext_noop(
        "%(written)s names more than one card: read as %(card)s, not the Radiant %(other)s. "
        "Add the set code and number if you mean that one."
    ),
    "other": gettext_noop(
        "%(written)s names more than one card: read as %(card)s, not the other %(other)s. "
        "Add the set code and number if you mean that one."
    ),
}


def _pinned(
    index: CardIndex, fmt: FormatSpec, rec: CardRecord, code: str = "", message: Text | None = None
) -> Resolution:
    legal = index.is_legal(rec, fmt)
    return Resolution(rec, legal, not legal and index.is_banned(rec, fmt), False, code, message)


def names_agree(index: CardIndex, written: str, rec: CardRecord) -> bool:
    """Does a name as written name this printing? Its name (`rules.names` rules, then
    punctuation and spaces ignored), a known short form of it, or `Star` for `★`."""
    if index.name_matches(written, rec):
        return True
    key = normalise_name(written, rec.supertype)
    if key == short_form(rec.norm_name):
        return True
    return key.endswith(" star") and key[:-5] + " ★" == rec.norm_name


def _printings_phrase(recs: Sequence[CardRecord], limit: int = 4) -> Text | str:
    shown: list[Text | str] = [f"{r.name} ({r.printing})" for r in recs[:limit]]
    if len(recs) > limit:
        shown.append(say(gettext_noop("%(count)s more"), count=len(recs) - limit))
    if len(shown) == 1:
        return shown[0]
    head = ", ".join(f"{r.name} ({r.printing})" for r in recs[: len(shown) - 1])
    return say(gettext_noop("%(cards)s or %(last)s"), cards=head, last=shown[-1])


def _distinct_cards(index: CardIndex, recs: Sequence[CardRecord]) -> list[CardRecord]:
    """One printing per card (reprints folded), release order."""
    seen: set[tuple[str, str]] = set()
    out = []
    for rec in recs:
        key = (rec.norm_name, rec.text_key)
        if key not in seen:
            seen.add(key)
            out.append(rec)
    return out


def resolve_line(
    index: CardIndex, fmt: FormatSpec, name: str, code: str | None, number: str | None
) -> Resolution:
    """Resolve one line (see the module docstring). Never raises."""
    if not (code and number):
        return _resolve_name(index, fmt, name)
    if code == ENERGY_PSEUDO_CODE or code.casefold() == "energy":
        return _resolve_pseudo_energy(index, fmt, name, number)

    label = f"{code} {number}"
    found = index.printings(code, number)
    if not name:
        exact = index.printings(code, number, guess=False)
        cards = _distinct_cards(index, exact)
        if len({r.norm_name for r in cards}) == 1:
            return _pinned(index, fmt, exact[0])
        if exact:
            return Resolution(
                None,
                True,
                False,
                False,
                "printing-mismatch",
                say(
                    gettext_noop(
                        "%(label)s is more than one card (%(cards)s); write the card's name "
                        "before the set code."
                    ),
                    label=label,
                    cards=_printings_phrase(exact),
                ),
            )
        return Resolution(
            None,
            True,
            False,
            False,
            "unknown-card",
            say(
                gettext_noop("there is no card %(label)s. Check the set code and number."),
                label=label,
            ),
        )

    agree = [r for r in found if names_agree(index, name, r)]
    if agree:
        return _pinned(index, fmt, agree[0])
    if name.casefold().endswith(" energy energy"):
        return _resolve_pseudo_energy(index, fmt, name, number)  # PTCGO's set "Energy"

    # The "code" may be the end of a name (`Mewtwo EX 54`).
    for alt in (f"{name} {code} {number}", f"{name} {code}"):
        candidates = index.by_name(alt)
        if candidates:
            return _by_name(index, fmt, alt, candidates)

    candidates = _named(index, name)
    exact = index.printings(code, number, guess=False)
    if exact:
        pinned = next((r for r in exact if _same_but_marks(name, r)), None)
        if pinned is not None:
            return _pinned(
                index,
                fmt,
                pinned,
                "printing-corrected",
                say(
                    gettext_noop(
                        "%(label)s is %(card)s; read as that card (the line says %(written)s, "
                        "without its mark). Write %(card)s."
                    ),
                    label=label,
                    card=pinned.name,
                    written=name,
                ),
            )
        other = exact[0]
        if candidates:
            in_set = index.in_sets(code, candidates[0].norm_name)
            if in_set and len(_distinct_cards(index, in_set)) == 1:
                # The set holds the written name: that printing, not some other one.
                return _pinned(
                    index,
                    fmt,
                    in_set[0],
                    "printing-corrected",
                    say(
                        gettext_noop(
                            "%(label)s is %(other)s, not %(written)s; read as %(card)s, the "
                            "%(written)s of that set. Fix the number."
                        ),
                        label=label,
                        other=other.name,
                        written=name,
                        card=f"{in_set[0].name} ({in_set[0].printing})",
                    ),
                )
            if in_set:
                mismatch = say(
                    gettext_noop(
                        "%(label)s is %(other)s, not %(written)s; in that set %(written)s is "
                        "%(cards)s. Read as %(written)s by its name; fix the set code and "
                        "number."
                    ),
                    label=label,
                    other=other.name,
                    written=name,
                    cards=_printings_phrase(in_set),
                )
            else:
                mismatch = say(
                    gettext_noop(
                        "%(label)s is %(other)s, not %(written)s. Read as %(written)s by its "
                        "name; fix the set code and number."
                    ),
                    label=label,
                    other=other.name,
                    written=name,
                )
            resolved = _by_name(index, fmt, name, candidates)
            return Resolution(
                resolved.rec, resolved.legal, resolved.banned, True, "printing-mismatch", mismatch
            )
        close = next((r for r in exact if _misspelt(name, r)), None)
        if close is not None:
            return _pinned(
                index,
                fmt,
                close,
                "printing-corrected",
                say(
                    gettext_noop(
                        "%(label)s is %(card)s; read as that card (the line says %(written)s). "
                        "Check the spelling."
                    ),
                    label=label,
                    card=close.name,
                    written=name,
                ),
            )
        return Resolution(
            None,
            True,
            False,
            False,
            "unknown-card",
            say(
                gettext_noop("%(label)s is %(other)s, and no card is named %(written)s."),
                label=label,
                other=other.name,
                written=name,
            ),
            suggest_for=name,
        )
    if not candidates:
        if index.sets_for_code(code):
            what = say(
                gettext_noop("there is no card %(written)s %(label)s."), written=name, label=label
            )
        else:
            what = say(
                gettext_noop("there is no card %(written)s (and no set has the code %(code)s)."),
                written=name,
                code=code,
            )
        return Resolution(None, True, False, False, "unknown-card", what, suggest_for=name)

    if index.sets_for_code(code):
        missing = say(gettext_noop("there is no card %(label)s"), label=label)
    else:
        missing = say(gettext_noop("no set has the code %(code)s"), code=code)
    in_set = index.in_sets(code, candidates[0].norm_name)
    if in_set:
        cards = _distinct_cards(index, in_set)
        if len(cards) == 1:
            return _pinned(
                index,
                fmt,
                in_set[0],
                "printing-corrected",
                say(
                    gettext_noop(
                        "%(missing)s; read as %(card)s, the %(written)s of that set. Check the "
                        "number."
                    ),
                    missing=missing,
                    card=f"{in_set[0].name} ({in_set[0].printing})",
                    written=name,
                ),
            )
        return Resolution(
            None,
            True,
            False,
            False,
            "ambiguous-card",
            say(
                gettext_noop(
                    "%(missing)s; %(written)s in that set is %(cards)s. Write the number of yours."
                ),
                missing=missing,
                written=name,
                cards=_printings_phrase(cards),
            ),
        )
    resolved = _by_name(index, fmt, name, candidates)
    rec = resolved.rec
    cards = _distinct_cards(index, candidates)
    others = [r for r in cards if _rule_kind(r) != _rule_kind(rec)]
    if others:
        also = say(
            gettext_noop("If you mean %(cards)s, write its set code and number."),
            cards=_printings_phrase(others, 2),
        )
    else:
        also = say(gettext_noop("Check the set code and number."))
    read_as = say(
        gettext_noop("%(missing)s; read as %(card)s by its name (for example %(printing)s)."),
        missing=missing,
        card=rec.name,
        printing=rec.printing,
    )
    return Resolution(
        rec,
        resolved.legal,
        resolved.banned,
        True,
        "printing-corrected",
        sentences(read_as, also),
    )


_MARKS_RE = re.compile(r"\s*[★◇δ]")
_BASIC_WRITTEN_RE = re.compile(r"\s*basic\b", re.IGNORECASE)


def _named(index: CardIndex, name: str) -> list[CardRecord]:
    """Printings with this name; only basic Energy when the name says `Basic`."""
    candidates = index.by_name(name)
    if candidates and _BASIC_WRITTEN_RE.match(name):
        basic = [r for r in candidates if r.is_basic_energy]
        return basic or candidates
    return candidates


def _same_but_marks(written: str, rec: CardRecord) -> bool:
    """`Umbreon` for `Umbreon ★`: the written name lacks a ★, ◇ or δ the card has."""
    if not _MARKS_RE.search(rec.norm_name + rec.name):
        return False
    bare = _MARKS_RE.sub("", rec.name)
    return normalise_name(written, rec.supertype) == normalise_name(bare, rec.supertype)


def _misspelt(written: str, rec: CardRecord) -> bool:
    """A slip of the keyboard (`Azelv` for `Azelf`) or the name cut short (`Pokegear` for
    `Pokégear 3.0`), for a written name that is no card's."""
    from rapidfuzz import fuzz  # noqa: PLC0415 (only a misspelt name needs it; the rules import fast)

    key = normalise_name(written, rec.supertype)
    if len(key) >= 5 and rec.norm_name.startswith(key + " "):
        return True
    return fuzz.ratio(key, rec.norm_name) >= 80


def _resolve_pseudo_energy(index: CardIndex, fmt: FormatSpec, name: str, number: str) -> Resolution:
    written = name
    candidates = _named(index, written)
    if not candidates and written.casefold().endswith(" energy energy"):
        written = written[: -len(" Energy")]  # PTCGO's `Fairy Energy Energy XY 9`
        candidates = index.by_name(written)
    basic = [r for r in candidates if r.is_basic_energy]
    if basic:
        return _by_name(index, fmt, written, basic)
    if candidates:
        return _by_name(index, fmt, written, candidates)
    return Resolution(
        None,
        True,
        False,
        False,
        "unknown-card",
        say(
            gettext_noop("there is no card %(written)s (Energy %(number)s)."),
            written=name,
            number=number,
        ),
        suggest_for=name,
    )


def _resolve_name(index: CardIndex, fmt: FormatSpec, name: str) -> Resolution:
    candidates = _named(index, name)
    if candidates:
        return _by_name(index, fmt, name, candidates)
    match = _TRAILING_NUMBER_RE.match(name)
    if match:
        candidates = index.by_name(match.group("name"))
        if candidates:
            return _by_name(index, fmt, match.group("name"), candidates)
    return Resolution(
        None,
        True,
        False,
        False,
        "unknown-card",
        say(gettext_noop("there is no card %(written)s."), written=name),
        suggest_for=name,
    )
