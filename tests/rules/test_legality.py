"""The deck legality engine (rules/legality.py): one test (table) per rule.

A small hand-built card index covers every tricky case; the last tests run against the
real card data in ../shared/data/pokemon-tcg when it is there.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import (
    EXPANDED,
    STANDARD,
    UNLIMITED,
    CardIndex,
    FormatSpec,
    load_index,
    record_from_upstream,
)
from rules.decklist import DeckLine
from rules.findings import ERROR_CODES, WARNING_CODES, Finding
from rules.legality import Verdict, check_deck

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "pokemon-tcg"

ALL = {"unlimited": "Legal", "expanded": "Legal", "standard": "Legal"}
EXP = {"unlimited": "Legal", "expanded": "Legal"}
UNL = {"unlimited": "Legal"}
ITEM = "You may play any number of Item cards during your turn."
OLD_ITEM = "You may play as many Item cards as you like during your turn (before your attack)."
SUPPORTER = "You may play only 1 Supporter card during your turn."

SETS = {
    "n1": {"id": "n1", "ptcgoCode": "NEW"},
    "n2": {"id": "n2", "ptcgoCode": "NXT"},
    "o1": {"id": "o1", "ptcgoCode": "OLD"},
    "x1": {"id": "x1", "ptcgoCode": "XYZ"},
    "ex1": {"id": "ex1", "ptcgoCode": "EX"},
    "sve": {"id": "sve", "ptcgoCode": "SVE"},
}


def _card(card_id, name, supertype="Pokémon", subtypes=(), legal=ALL, **extra):
    data = {
        "id": card_id,
        "name": name,
        "supertype": supertype,
        "subtypes": list(subtypes),
        "number": card_id.split("-", 1)[1],
        "legalities": legal,
    }
    data.update(extra)
    return data


def _pokemon(card_id, name, stage="Basic", evolves=None, legal=ALL, more=(), hp="70", **extra):
    data = _card(card_id, name, "Pokémon", (stage, *more), legal, hp=hp, **extra)
    data.setdefault("attacks", [{"name": f"{name} attack", "cost": ["Colorless"], "damage": "10"}])
    if evolves:
        data["evolvesFrom"] = evolves
    return data


def _trainer(card_id, name, kind="Item", text="Do something.", legal=ALL, more=(), **extra):
    reminder = SUPPORTER if kind == "Supporter" else ITEM
    return _card(card_id, name, "Trainer", (kind, *more), legal,
                 rules=[text, reminder], **extra)  # fmt: skip


CARDS = [
    _pokemon("n1-1", "Pikachu", regulationMark="G"),
    _pokemon("n1-2", "Raichu", "Stage 1", "Pikachu", regulationMark="G"),
    _pokemon("n2-1", "Dreepy", regulationMark="H"),
    _pokemon("n2-2", "Drakloak", "Stage 1", "Dreepy", regulationMark="H"),
    _pokemon("n1-20", "Radiant Charizard", more=("Radiant",), regulationMark="F"),
    _pokemon("n1-21", "Radiant Greninja", more=("Radiant",), regulationMark="F"),
    _pokemon("o1-3", "Pichu", "Baby", legal=UNL),
    _pokemon("o1-5", "Gengar", "Stage 2", "Haunter", legal=UNL, level="43"),
    _pokemon("o1-6", "Gengar LV.X", "Level-Up", "Gengar", legal=UNL, level="X"),
    _pokemon("o1-7", "Haunter", "Stage 1", "Gastly", legal=UNL),
    _pokemon("o1-8", "Gastly", legal=UNL),
    _pokemon("o1-9", "Gengar", "Stage 2", "Haunter", legal=UNL, hp="110"),
    _pokemon("o1-10", "Geodude", legal=UNL),
    _pokemon("o1-11", "Brock's Geodude", legal=UNL),
    _pokemon("o1-12", "Brock's Graveler", "Stage 1", "Brock's Geodude", legal=UNL),
    _pokemon("o1-13", "Alakazam", "Stage 2", "Kadabra", legal=UNL),
    _pokemon("o1-14", "Alakazam ★", more=("Star",), legal=UNL),
    _pokemon("o1-15", "Pikachu ★", more=("Star",), legal=UNL),
    _card(
        "o1-16",
        "Mysterious Fossil",
        "Trainer",
        (),
        UNL,
        hp="10",
        rules=["Play Mysterious Fossil as if it were a Basic Pokémon."],
    ),
    _pokemon("o1-17", "Aerodactyl δ", "Stage 1", "Mysterious Fossil", legal=UNL),
    _pokemon("o1-18", "Aerodactyl", "Stage 1", "Mysterious Fossil", legal=UNL, hp="80"),
    _pokemon("x1-30", "Giratina ◇", more=("Prism Star",), legal=EXP),
    _trainer("x1-31", "Lysandre ◇", "Supporter", more=("Prism Star",), legal=EXP),
    _trainer("x1-42", "Lysandre's Trump Card", legal={"unlimited": "Legal", "expanded": "Banned"}),
    _pokemon("x1-54", "Mewtwo-EX", more=("EX",), legal=EXP),
    _pokemon("ex1-54", "Onix", legal=UNL),
    _trainer("x1-60", "Root Fossil Lileep", legal=EXP),
    _pokemon("x1-61", "Lileep", "Restored", "Root Fossil Lileep", legal=EXP),
    _trainer("n1-22", "Prime Catcher", more=("ACE SPEC",), regulationMark="H"),
    _trainer("n1-23", "Master Ball", more=("ACE SPEC",), regulationMark="H"),
    _trainer("n1-40", "Ultra Ball", text="Discard 2 cards. Search.", regulationMark="G"),
    _card(
        "o1-40",
        "Ultra Ball",
        "Trainer",
        ("Item",),
        UNL,
        rules=["Discard 2  cards.", "Search.", OLD_ITEM],
    ),
    _trainer("o1-41", "Ultra Ball", text="An older, different text.", legal=UNL),
    _trainer(
        "n1-41",
        "Professor's Research (Professor Sada)",
        "Supporter",
        text="Discard your hand and draw 7 cards.",
        regulationMark="G",
    ),
    _trainer(
        "n2-41",
        "Professor's Research (Professor Turo)",
        "Supporter",
        text="Discard your hand and draw 7 cards.",
        regulationMark="H",
    ),
    *(
        _trainer(f"n1-{70 + i}", f"Gadget {letter}", text=f"Gadget {letter}.", regulationMark="G")
        for i, letter in enumerate("ABCDEF")
    ),
    _card("n1-50", "Darkness Energy", "Energy", ("Basic",)),
    _card(
        "o1-50",
        "Darkness Energy",
        "Energy",
        ("Special",),
        UNL,
        rules=["Darkness Energy provides Darkness Energy. (Doesn't count as basic.)"],
    ),
    _card("sve-2", "Basic Fire Energy", "Energy", ("Basic",)),
    _card("o1-51", "Fire Energy", "Energy", ("Basic",)),
    _card(
        "n1-52",
        "Double Turbo Energy",
        "Energy",
        ("Special",),
        rules=["This card provides 2 Colorless Energy."],
    ),
]


@pytest.fixture(scope="module")
def index() -> CardIndex:
    return CardIndex(record_from_upstream(c, SETS[c["id"].split("-")[0]]) for c in CARDS)


def L(count: int, name: str, code: str | None = None, number: str | None = None):
    return (count, name, code, number)


def lines_of(*entries) -> list[DeckLine]:
    out = []
    for i, (count, name, code, number) in enumerate(entries, start=1):
        raw = f"{count} {name}" + (f" {code} {number}" if code else "")
        out.append(DeckLine(i, count, name, code, number, raw, None))
    return out


def base_deck(energy: int = 19) -> list[tuple]:
    """A clean 60-card Standard deck: legal and without warnings."""
    return [
        L(4, "Pikachu", "NEW", "1"),
        L(3, "Raichu", "NEW", "2"),
        L(4, "Ultra Ball", "NEW", "40"),
        L(4, "Professor's Research", "NEW", "41"),
        *(L(4, f"Gadget {letter}", "NEW", str(70 + i)) for i, letter in enumerate("ABCDEF")),
        L(1, "Radiant Charizard", "NEW", "20"),
        L(1, "Prime Catcher", "NEW", "22"),
        L(energy, "Basic {R} Energy", "SVE", "2"),
    ]


def check(index, entries, fmt=STANDARD) -> Verdict:
    return check_deck(lines_of(*entries), index, fmt)


def codes(verdict: Verdict) -> list[str]:
    return [f.code for f in verdict.errors]


def only(verdict: Verdict, code: str) -> Finding:
    found = [f for f in verdict.errors + verdict.warnings if f.code == code]
    assert len(found) == 1, (code, verdict)
    return found[0]


def padded(entries, fmt_energy=("Basic {R} Energy", "SVE", "2")) -> list[tuple]:
    """Fill a partial list up to 60 cards with basic Fire Energy (not a rule under test)."""
    total = sum(e[0] for e in entries)
    return [*entries, L(60 - total, *fmt_energy)] if total < 60 else list(entries)


# --------------------------------------------------------------------------- baseline


def test_baseline_deck_is_legal(index):
    verdict = check(index, base_deck())
    assert verdict.legal, verdict
    assert verdict.errors == () and verdict.warnings == ()
    assert verdict.card_count == 60
    assert verdict.to_dict() == {"legal": True, "errors": [], "warnings": []}


# --------------------------------------------------------------------------- deck size


@pytest.mark.parametrize(
    ("energy", "total", "fix"),
    [(18, 59, "Add 1 card."), (20, 61, "Remove 1 card."), (1, 42, "Add 18 cards.")],
)
def test_deck_size(index, energy, total, fix):
    verdict = check(index, base_deck(energy))
    finding = only(verdict, "deck-size")
    assert not verdict.legal and verdict.card_count == total
    assert finding.lines == ()
    assert finding.message == (f"The deck has {total} cards; a deck must have exactly 60. {fix}")


def test_empty_deck(index):
    verdict = check(index, [])
    assert set(codes(verdict)) == {"deck-size", "no-basic-pokemon"}
    assert verdict.card_count == 0


# --------------------------------------------------------------------------- four copies

COPIES = [
    pytest.param(
        [L(1, "Gengar", "OLD", "5"), L(1, "Gengar LV.X", "OLD", "6"), L(1, "Gengar LV.43"),
         L(2, "Gengar")],
        "Lines 2, 3, 4 and 5: 5 cards named Gengar; a deck may hold at most 4. Remove 1.",
        id="gengar-levels",
    ),
    pytest.param(
        [L(2, "Gengar LV.43", "OLD", "5"), L(3, "Gengar", "OLD", "9")],
        "Lines 2 and 3: 5 cards named Gengar; a deck may hold at most 4. Remove 1.",
        id="gengar-two-printings",
    ),
    pytest.param([L(4, "Brock's Geodude", "OLD", "11"), L(4, "Geodude", "OLD", "10")], None,
                 id="owner-is-part-of-the-name"),
    pytest.param([L(5, "Brock’s Geodude")], "5 cards named Brock's Geodude", id="curly-apostrophe"),
    pytest.param([L(5, "Darkness Energy", "OLD", "50")],
                 "Line 2: 5 cards named Darkness Energy; a deck may hold at most 4. Remove 1.",
                 id="special-darkness-energy-counts"),
    pytest.param([L(12, "Darkness Energy", "NEW", "50")], None, id="basic-darkness-energy-free"),
    pytest.param([L(12, "Darkness Energy")], None, id="darkness-energy-without-set-is-basic"),
    pytest.param([L(4, "Darkness Energy", "OLD", "50"), L(10, "Darkness Energy", "NEW", "50")],
                 None, id="4-special-plus-basic"),
    pytest.param([L(4, "Alakazam", "OLD", "13"), L(1, "Alakazam ☆")], None,
                 id="star-is-another-name"),
    pytest.param([L(3, "Aerodactyl δ", "OLD", "17"), L(2, "Aerodactyl")],
                 "5 cards named Aerodactyl", id="delta-is-not-part-of-the-name"),
    pytest.param([L(3, "Professor's Research (Professor Sada)"),
                  L(2, "Professor's Research", "NXT", "41")],
                 "5 cards named Professor's Research", id="subtitle-is-not-part-of-the-name"),
    pytest.param([L(2, "Ultra Ball", "OLD", "41"), L(3, "ultra ball")], "5 cards named Ultra Ball",
                 id="same-name-different-text"),
    pytest.param([L(2, "Pikachu", "NEW", "1"), L(3, "Pikachu", "NEW", "1")],
                 "Lines 2 and 3: 5 cards named Pikachu", id="same-card-on-two-lines"),
    pytest.param([L(4, "Pikachu"), L(1, "Pikachu ★")], None, id="pikachu-star"),
    # A line that names no card never counts toward a name's copy limit (its own error is
    # unknown-card, and only that).
    pytest.param([L(5, "Pikachuu")], None, id="unknown-cards-count-toward-nothing"),
]  # fmt: skip


@pytest.mark.parametrize(("entries", "message"), COPIES)
def test_too_many_copies(index, entries, message):
    # a Basic Pokémon first, so the entries start on line 2
    verdict = check(index, padded([L(1, "Gastly", "OLD", "8"), *entries]), UNLIMITED)
    found = [f for f in verdict.errors if f.code == "too-many-copies"]
    if message is None:
        assert found == [], found
    else:
        assert len(found) == 1 and message in found[0].message, found


def test_too_many_copies_message_and_lines(index):
    entries = [L(1, "Gengar", "OLD", "5"), L(1, "Gengar LV.X", "OLD", "6"), L(1, "Gengar LV.43"),
               L(2, "Gengar"), L(4, "Gastly", "OLD", "8")]  # fmt: skip
    verdict = check(index, padded(entries), UNLIMITED)
    finding = only(verdict, "too-many-copies")
    assert finding.lines == (1, 2, 3, 4)
    assert finding.message == (
        "Lines 1, 2, 3 and 4: 5 cards named Gengar; a deck may hold at most 4. Remove 1."
    )


# --------------------------------------------------------------------------- basic Pokémon

BASICS = [
    pytest.param([L(4, "Mysterious Fossil"), L(4, "Aerodactyl δ")], False, id="fossil-does-not-count"),
    pytest.param([L(4, "Mysterious Fossil"), L(1, "Pichu", "OLD", "3")], True, id="baby-counts"),
    pytest.param([L(4, "Ultra Ball"), L(1, "Gastly")], True, id="plain-basic"),
    pytest.param([L(4, "Ultra Ball"), L(3, "Haunter", "OLD", "7")], False, id="stage-1-only"),
]  # fmt: skip


@pytest.mark.parametrize(("entries", "ok"), BASICS)
def test_at_least_one_basic_pokemon(index, entries, ok):
    verdict = check(index, padded(entries), UNLIMITED)
    assert ("no-basic-pokemon" not in codes(verdict)) is ok
    if not ok:
        assert "Mysterious Fossil" in only(verdict, "no-basic-pokemon").message


# --------------------------------------------------------------------------- rule boxes

LIMITS = [
    pytest.param([L(1, "Prime Catcher"), L(1, "Master Ball", "NEW", "23")], "ace-spec-limit",
                 "Lines 2 and 3: 2 ACE SPEC cards (Master Ball, Prime Catcher); a deck may hold "
                 "only 1 ACE SPEC card. Remove 1.", id="ace-spec"),
    pytest.param([L(2, "Prime Catcher")], "ace-spec-limit", None, id="ace-spec-twice"),
    pytest.param([L(1, "Prime Catcher")], None, None, id="one-ace-spec"),
    pytest.param([L(1, "Radiant Charizard"), L(1, "Radiant Greninja")], "radiant-limit",
                 "Lines 2 and 3: 2 Radiant Pokémon (Radiant Charizard, Radiant Greninja); a deck "
                 "may hold only 1 Radiant Pokémon. Remove 1.", id="radiant"),
    pytest.param([L(2, "Radiant Charizard", "NEW", "20")], "radiant-limit", None, id="radiant-twice"),
    pytest.param([L(1, "Alakazam ★"), L(1, "Pikachu ★")], "star-limit",
                 "Lines 2 and 3: 2 Pokémon ★ (Star) cards (Alakazam ★, Pikachu ★); a deck may "
                 "hold only 1 Pokémon ★. Remove 1.", id="star"),
    pytest.param([L(1, "Alakazam ☆"), L(1, "Alakazam")], None, None, id="star-and-plain"),
    pytest.param([L(2, "Giratina ◇")], "prism-star-limit",
                 "Line 2: 2 copies of Giratina ◇; a deck may hold only 1 copy of each Prism Star "
                 "(◇) card. Remove 1.", id="prism-twice"),
    pytest.param([L(1, "Giratina ◇", "XYZ", "30"), L(1, "Giratina◇")], "prism-star-limit", None,
                 id="prism-two-lines"),
    pytest.param([L(1, "Giratina ◇"), L(1, "Lysandre ◇")], None, None, id="two-prism-names"),
]  # fmt: skip


@pytest.mark.parametrize(("entries", "code", "message"), LIMITS)
def test_rule_box_limits(index, entries, code, message):
    verdict = check(index, padded([L(4, "Pikachu", "NEW", "1"), *entries]), UNLIMITED)
    limit_codes = {"ace-spec-limit", "radiant-limit", "star-limit", "prism-star-limit"}
    found = [f for f in verdict.errors if f.code in limit_codes]
    if code is None:
        assert found == []
    else:
        assert [f.code for f in found] == [code]
        if message:
            assert found[0].message == message
    assert "too-many-copies" not in codes(verdict)


# --------------------------------------------------------------------------- format legality


def test_not_legal_in_standard(index):
    verdict = check(index, padded([L(4, "Pikachu", "NEW", "1"), L(2, "Gastly", "OLD", "8")]))
    finding = only(verdict, "not-legal-in-format")
    assert finding.lines == (2,)
    assert finding.message == (
        "Line 2: Gastly (OLD 8) is not legal in Standard. Replace it with a legal printing "
        "or another card."
    )


def test_name_without_set_has_no_legal_printing(index):
    verdict = check(index, padded([L(4, "Pikachu", "NEW", "1"), L(2, "Gastly")]))
    assert (
        "has no printing that is legal in Standard" in only(verdict, "not-legal-in-format").message
    )


REPRINTS = [
    pytest.param(L(4, "Ultra Ball", "OLD", "40"), True, id="older-printing-same-text"),
    pytest.param(L(4, "Ultra Ball", "OLD", "41"), False, id="older-printing-other-text"),
    pytest.param(L(4, "Ultra Ball"), True, id="no-set-some-printing-legal"),
    pytest.param(L(4, "Fire Energy", "OLD", "51"), True, id="basic-energy"),
    pytest.param(L(2, "Darkness Energy", "OLD", "50"), False, id="special-darkness-is-old"),
    pytest.param(L(4, "Professor's Research (Professor Turo)", "NXT", "41"), True, id="subtitle"),
]


@pytest.mark.parametrize(("entry", "legal"), REPRINTS)
def test_reprint_equivalence_in_standard(index, entry, legal):
    verdict = check(index, padded([L(4, "Pikachu", "NEW", "1"), entry]))
    assert ("not-legal-in-format" not in codes(verdict)) is legal, verdict


def test_banned_beats_legal(index):
    verdict = check(index, padded([L(4, "Pikachu", "NEW", "1"), L(1, "Lysandre's Trump Card")]),
                    EXPANDED)  # fmt: skip
    finding = only(verdict, "not-legal-in-format")
    assert finding.message == "Line 2: Lysandre's Trump Card is banned in Expanded. Remove it."
    verdict = check(index, padded([L(4, "Pikachu", "NEW", "1"), L(1, "Lysandre's Trump Card")]),
                    UNLIMITED)  # fmt: skip
    assert verdict.legal


CUSTOM = [
    pytest.param(FormatSpec("h", "Mark H", allowed_marks=frozenset({"H"})),
                 [L(4, "Dreepy", "NXT", "1")], [], id="marks-ok"),
    pytest.param(FormatSpec("h", "Mark H", allowed_marks=frozenset({"H"})),
                 [L(4, "Dreepy", "NXT", "1"), L(4, "Pikachu", "NEW", "1")], [2], id="marks-out"),
    pytest.param(FormatSpec("h", "Mark H", allowed_marks=frozenset({"H"})),
                 [L(4, "Dreepy"), L(4, "Professor's Research", "NEW", "41")], [],
                 id="marks-reprint"),
    # (the basic Energy types are named: in this hand-built data n2 precedes every basic
    # Energy but Darkness, so the types would otherwise be read from the sets)
    pytest.param(FormatSpec("s", "Set n2", allowed_sets=frozenset({"n2"}),
                            basic_energy_types=frozenset({"Fire"})),
                 [L(4, "Dreepy"), L(4, "Raichu", "NEW", "2")], [2], id="sets"),
    pytest.param(FormatSpec.custom("b", "No Pikachu", base="standard", banned_names=["PIKACHU"]),
                 [L(4, "Dreepy"), L(1, "Pikachu", "NEW", "1"), L(1, "Pikachu")], [2, 3],
                 id="ban-by-name"),
    pytest.param(FormatSpec("p", "No NEW 40", base="standard", banned_prints=frozenset({"n1-40"})),
                 [L(4, "Dreepy"), L(1, "Ultra Ball", "OLD", "40"), L(1, "Ultra Ball", "OLD", "41")],
                 [2, 3], id="ban-by-print-and-reprint"),
    pytest.param(FormatSpec("p", "No OLD 41", base="unlimited",
                            banned_prints=frozenset({"o1-41"})),
                 [L(4, "Dreepy"), L(1, "Ultra Ball", "NEW", "40"), L(1, "Ultra Ball", "OLD", "41")],
                 [3], id="ban-by-print-other-text-stays-legal"),
    pytest.param(FormatSpec("free", "Anything"), [L(4, "Dreepy"), L(1, "Gastly", "OLD", "8")], [],
                 id="no-restriction"),
]  # fmt: skip


@pytest.mark.parametrize(("fmt", "entries", "bad_lines"), CUSTOM)
def test_custom_formats(index, fmt, entries, bad_lines):
    verdict = check(index, padded(entries), fmt)
    found = [f for f in verdict.errors if f.code == "not-legal-in-format"]
    assert sorted(line for f in found for line in f.lines) == bad_lines, found
    for f in found:
        assert fmt.name in f.message


def test_ban_message_says_banned(index):
    fmt = FormatSpec.custom("b", "League Cup", base="standard", banned_names=["Pikachu"])
    verdict = check(index, padded([L(4, "Dreepy"), L(1, "Pikachu", "NEW", "1")]), fmt)
    assert only(verdict, "not-legal-in-format").message == (
        "Line 2: Pikachu (NEW 1) is banned in League Cup. Remove it."
    )


# --------------------------------------------------------------------------- resolution

RESOLVES = [
    pytest.param(L(10, "Basic {R} Energy", "SVE", "2"), "sve-2", id="tcg-live-basic-energy"),
    pytest.param(L(10, "Basic {D} Energy", "Energy", "25"), "n1-50", id="old-energy-code"),
    pytest.param(
        L(10, "Basic {R} Energy", "MEE", "2"), "sve-2|o1-51", id="basic-energy-unknown-code"
    ),
    pytest.param(L(2, "Gengar LV.43", "OLD", "5"), "o1-5", id="level-written"),
    pytest.param(L(2, "Gengar", "o1", "5"), "o1-5", id="set-id-as-code"),
    pytest.param(L(2, "Mewtwo", "EX", "54"), "x1-54", id="EX-code-or-name"),
    pytest.param(L(2, "Onix", "EX", "54"), "ex1-54", id="EX-set"),
    pytest.param(L(2, "Gengar LV.X"), "o1-6", id="lv-x-without-set"),
    pytest.param(L(2, "Gengar LV.43"), "o1-5|o1-9", id="level-without-set-is-not-lv-x"),
    pytest.param(L(2, "Aerodactyl δ"), "o1-17", id="delta-without-set"),
    pytest.param(L(2, "Mewtwo EX"), "x1-54", id="space-EX"),
    pytest.param(L(2, "Pokemon Gengar 5"), None, id="garbage"),
]


@pytest.mark.parametrize(("entry", "card_id"), RESOLVES)
def test_line_resolution(index, entry, card_id):
    from rules.resolve import resolve_line

    line = lines_of(entry)[0]
    found = resolve_line(index, UNLIMITED, line.name, line.set_code, line.number)
    if card_id is None:
        assert found.rec is None and found.code == "unknown-card"
    else:
        assert found.code in ("", *WARNING_CODES) and found.rec is not None, found
        assert found.rec.id in card_id.split("|")


UNKNOWN = [
    pytest.param(L(4, "Pikachuu"), "Line 2: there is no card Pikachuu. Did you mean Pikachu",
                 id="typo"),
    pytest.param(L(4, "Raichoo", "NEW", "1"),
                 "Line 2: NEW 1 is Pikachu, and no card is named Raichoo. Did you mean Raichu",
                 id="wrong-printing-unknown-name"),
    pytest.param(L(4, "Raichoo", "ZZZ", "1"), "(and no set has the code ZZZ). Did you mean Raichu",
                 id="wrong-code"),
]  # fmt: skip


@pytest.mark.parametrize(("entry", "message"), UNKNOWN)
def test_unknown_card(index, entry, message):
    verdict = check(index, padded([L(4, "Pikachu", "NEW", "1"), entry]))
    finding = only(verdict, "unknown-card")
    assert finding.lines == (2,)
    assert message in finding.message
    assert finding.message.rstrip().endswith((".", "?", "line.")), finding.message
    assert verdict.card_count == 60  # still counted toward the 60
    assert not verdict.legal


def test_unknown_card_is_counted(index):
    verdict = check(index, [*base_deck(18), L(1, "Nonexistent Card")])
    assert verdict.card_count == 60
    assert codes(verdict) == ["unknown-card"]


# --------------------------------------------------------------------------- warnings

EVOLUTION = [
    pytest.param([L(3, "Raichu", "NEW", "2")], "Line 2: Raichu evolves from Pikachu, but the deck "
                 "has no Pikachu. Add Pikachu or check the list.", id="stage-1"),
    pytest.param([L(3, "Raichu"), L(1, "Pikachu")], None, id="basis-present"),
    pytest.param([L(1, "Gengar LV.X", "OLD", "6")], "Gengar LV.X evolves from Gengar", id="lv-x-alone"),
    pytest.param([L(1, "Gengar LV.X", "OLD", "6"), L(1, "Gengar LV.43"), L(1, "Haunter"),
                  L(1, "Gastly")], None, id="lv-x-with-gengar"),
    pytest.param([L(2, "Brock's Graveler"), L(4, "Geodude")],
                 "Brock's Graveler evolves from Brock's Geodude", id="owner"),
    pytest.param([L(2, "Brock's Graveler"), L(4, "Brock's Geodude")], None, id="owner-ok"),
    pytest.param([L(2, "Aerodactyl δ"), L(2, "Mysterious Fossil")], None, id="fossil-trainer"),
    pytest.param([L(2, "Lileep")], "Lileep evolves from Root Fossil Lileep", id="restored"),
    pytest.param([L(2, "Lileep"), L(2, "Root Fossil Lileep")], None, id="restored-ok"),
]  # fmt: skip


@pytest.mark.parametrize(("entries", "message"), EVOLUTION)
def test_missing_evolution_basis(index, entries, message):
    verdict = check(index, padded([L(4, "Pichu", "OLD", "3"), *entries]), UNLIMITED)
    found = [w for w in verdict.warnings if w.code == "missing-evolution-basis"]
    if message is None:
        assert found == []
    else:
        assert len(found) == 1 and message in found[0].message, found
    assert all(f.code != "missing-evolution-basis" for f in verdict.errors)


@pytest.mark.parametrize(("energy", "warned"), [(1, False), (8, False), (30, False), (31, True)])
def test_energy_count_warning(index, energy, warned):
    entries = [
        L(4, "Pikachu", "NEW", "1"),
        L(energy - 1, "Basic {R} Energy", "SVE", "2"),
        L(1, "Double Turbo Energy"),  # Special Energy counts too
    ]
    verdict = check(index, entries)
    found = [w for w in verdict.warnings if w.code == "energy-count"]
    assert bool(found) is warned, verdict
    if warned:
        assert f"The deck has {energy} Energy cards" in found[0].message
        assert found[0].lines == (2, 3)


# --------------------------------------------------------------------------- verdict


def test_verdict_to_dict_and_parse_errors(index):
    verdict = check(index, base_deck(18))
    data = verdict.to_dict()
    assert set(data) == {"legal", "errors", "warnings"}
    assert data["legal"] is False
    assert data["errors"] == [
        {"code": "deck-size", "lines": [],
         "message": "The deck has 59 cards; a deck must have exactly 60. Add 1 card."}
    ]  # fmt: skip
    parse_error = Finding("parse-error", (3,), "Line 3: 'x' is not a card line.")
    merged = verdict.with_parse_errors([parse_error])
    assert merged.errors[0] == parse_error and not merged.legal
    clean = check(index, base_deck())
    assert clean.with_parse_errors([]) is clean
    assert not clean.with_parse_errors([parse_error]).legal
    assert check_deck(lines_of(*base_deck()), index, STANDARD, [parse_error]).errors == (
        parse_error,
    )


def test_all_codes_are_documented(index):
    entries = [L(5, "Darkness Energy", "OLD", "50"), L(2, "Giratina ◇"), L(1, "Nope"),
               L(2, "Prime Catcher"), L(2, "Radiant Greninja"), L(2, "Pikachu ★"),
               L(1, "Raichu")]  # fmt: skip
    verdict = check(index, entries)
    assert {f.code for f in verdict.errors} <= ERROR_CODES
    assert {f.code for f in verdict.warnings} <= WARNING_CODES
    assert {f.code for f in verdict.errors} == {
        "deck-size", "too-many-copies", "not-legal-in-format",
        "ace-spec-limit", "radiant-limit", "star-limit", "prism-star-limit", "unknown-card",
    }  # fmt: skip
    # No Energy-count warning: the unknown line could be Energy (see test_unknown_line_*).
    assert {f.code for f in verdict.warnings} == {"missing-evolution-basis"}


NAMES = [c["name"] for c in CARDS] + ["Pikachuu", "Basic {R} Energy", "", "δ", "Gengar LV.X"]


@settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=-3, max_value=70),
            st.one_of(st.sampled_from(NAMES), st.text(max_size=30)),
            st.one_of(st.none(), st.sampled_from(["NEW", "OLD", "EX", "Energy", "ZZZ", "sv1", ""]),
                      st.text(max_size=6)),
            st.one_of(st.none(), st.sampled_from(["1", "2", "54", "GG39", "0"]), st.text(max_size=5)),
        ),
        max_size=25,
    ),
    st.sampled_from([STANDARD, EXPANDED, UNLIMITED, FormatSpec("c", "Custom",
                                                                allowed_marks=frozenset({"G"}))]),
)  # fmt: skip
def test_check_deck_never_raises(index, entries, fmt):
    lines = [
        DeckLine(i, c, n, code, num, n, None) for i, (c, n, code, num) in enumerate(entries, 1)
    ]
    verdict = check_deck(lines, index, fmt)
    assert verdict.card_count == sum(line.count for line in lines if line.count > 0)
    assert verdict.legal is (not verdict.errors)
    for finding in verdict.errors + verdict.warnings:
        assert finding.message and set(finding.lines) <= {line.line_no for line in lines}
    json.dumps(verdict.to_dict())


# --------------------------------------------------------------------------- real data


@pytest.fixture(scope="module")
def real() -> CardIndex:
    if not (DATA / "sets" / "en.json").exists():
        pytest.skip(f"card data not found at {DATA}")
    return load_index(DATA)


def _precons() -> list[dict]:
    decks = []
    for path in sorted((DATA / "decks" / "en").glob("*.json")):
        decks.extend(json.loads(path.read_text(encoding="utf-8")))
    return decks


def _precon_lines(real: CardIndex, deck: dict) -> list[DeckLine]:
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}
    for entry in deck["cards"]:
        counts[entry["id"]] += entry["count"]
        names[entry["id"]] = entry["name"]
    lines = []
    for i, (card_id, count) in enumerate(counts.items(), start=1):
        rec = real.get(card_id)
        if rec is None:  # the swsh1-0 placeholder: basic Energy named in the deck
            lines.append(DeckLine(i, count, names[card_id], None, None, names[card_id], None))
        else:
            code = rec.set_code or rec.set_id
            lines.append(DeckLine(i, count, rec.name, code, rec.number, "", None))
    return lines


def test_every_precon_resolves_to_known_cards(real):
    decks = _precons()
    assert len(decks) == 188
    codes_seen: Counter[str] = Counter()
    for deck in decks:
        verdict = check_deck(_precon_lines(real, deck), real, UNLIMITED)
        for finding in verdict.errors + verdict.warnings:
            codes_seen[finding.code] += 1
            assert finding.code not in ("unknown-card", "not-legal-in-format"), (
                deck["id"],
                finding,
            )
        assert "no-basic-pokemon" not in [f.code for f in verdict.errors], deck["id"]
    # the documented oddities of real precons, and nothing else
    assert set(codes_seen) <= {"deck-size", "too-many-copies", "missing-evolution-basis"}


def test_real_precon_oddities(real):
    decks = {d["id"]: d for d in _precons()}

    def verdict(deck_id):
        return check_deck(_precon_lines(real, decks[deck_id]), real, UNLIMITED)

    assert only(verdict("d-base1-1"), "deck-size").message.startswith("The deck has 61 cards")
    assert "8 cards named Metal Energy" in only(verdict("d-dp2-1"), "too-many-copies").message
    assert (
        "Arceus LV.X evolves from Arceus"
        in only(verdict("d-pl4-1"), "missing-evolution-basis").message
    )
    swsh3 = verdict("d-swsh3-2")  # basic Energy via the swsh1-0 placeholder
    assert "unknown-card" not in [f.code for f in swsh3.errors]


REAL_STANDARD_LIST = [
    L(4, "Dreepy", "TWM", "128"), L(4, "Drakloak", "TWM", "129"), L(3, "Dragapult ex", "TWM", "130"),
    L(1, "Fezandipiti ex", "SFA", "38"), L(4, "Arven", "SVI", "166"), L(4, "Iono", "PAL", "185"),
    L(4, "Ultra Ball", "SVI", "196"), L(4, "Buddy-Buddy Poffin", "TEF", "144"),
    L(4, "Rare Candy", "SVI", "191"), L(4, "Nest Ball", "SVI", "181"),
    L(4, "Boss’s Orders", "PAL", "172"), L(2, "Super Rod", "PAL", "188"),
    L(3, "Counter Catcher", "PAR", "160"), L(1, "Prime Catcher", "TEF", "157"),
    L(2, "Professor's Research", "PAF", "87"), L(3, "Night Stretcher", "SFA", "61"),
    L(5, "Basic {R} Energy", "SVE", "2"), L(4, "Basic {P} Energy", "SVE", "5"),
]  # fmt: skip


def test_real_standard_list(real):
    verdict = check(real, REAL_STANDARD_LIST)
    assert verdict.card_count == 60
    assert verdict.legal, verdict
    assert [w.code for w in verdict.warnings] == []
    # a second ACE SPEC and an old Gengar break it
    broken = [*REAL_STANDARD_LIST[:-1], L(3, "Basic {P} Energy", "SVE", "5"),
              L(1, "Master Ball", "TEF", "153")]  # fmt: skip
    assert "ace-spec-limit" in codes(check(real, broken))


REAL_CASES = [
    pytest.param([L(1, "Gengar", "SF", "18"), L(1, "Gengar LV.X", "AR", "97"), L(3, "Gengar LV.43")],
                 UNLIMITED, "too-many-copies", id="gengar"),
    pytest.param([L(5, "Darkness Energy", "EM", "86")], UNLIMITED, "too-many-copies",
                 id="special-darkness"),
    pytest.param([L(20, "Darkness Energy", "HS", "121")], UNLIMITED, None, id="basic-darkness"),
    pytest.param([L(4, "Nest Ball", "SUM", "123")], STANDARD, None, id="nest-ball-reprint"),
    pytest.param([L(1, "Lysandre's Trump Card", "PHF", "99")], EXPANDED, "not-legal-in-format",
                 id="expanded-ban"),
    pytest.param([L(2, "Giratina ◇", "UPR", "58")], EXPANDED, "prism-star-limit", id="prism"),
    pytest.param([L(1, "Escavalier", "BLK", "60"), L(1, "Antique Cover Fossil", "BLK", "60")],
                 STANDARD, None, id="blk-60-collision"),
    pytest.param([L(1, "Zeraora VMAX", "CRZ-GG", "GG42")], STANDARD, None, id="crz-gg"),
    pytest.param([L(4, "Pikachuu")], STANDARD, "unknown-card", id="typo"),
]  # fmt: skip


@pytest.mark.parametrize(("entries", "fmt", "code"), REAL_CASES)
def test_real_cases(real, entries, fmt, code):
    verdict = check(real, padded([L(1, "Pikachu", "PAF", "18"), *entries],
                                 ("Basic {L} Energy", "SVE", "4")), fmt)  # fmt: skip
    found = [f.code for f in verdict.errors if f.code != "deck-size"]
    if code is None:
        assert found == [], verdict
    else:
        assert code in found, verdict
