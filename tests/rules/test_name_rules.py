"""Name and deck-building rules exactly as the rulebooks state them, on the real card data.

Each test quotes the sentence it follows, from ../shared/rulebooks: the 2011 rulebook's
"What Does and Doesn't Count for a Pokémon's Name?" and the 1999 Advanced Rulebook (deck
building and its glossary).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.cards import UNLIMITED, FormatSpec, load_index
from rules.decklist import DeckLine
from rules.legality import check_deck
from rules.names import normalise_name

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "pokemon-tcg"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="shared card data not present")


@pytest.fixture(scope="module")
def index():
    return load_index(str(DATA))


def deck(*entries):
    """Lines from (count, name, code, number) tuples; code and number may be left out."""
    out = []
    for no, entry in enumerate(entries, start=1):
        count, name, *printing = entry
        code, number = printing if printing else (None, None)
        out.append(DeckLine(no, count, name, code, number, name, None))
    return out


def copies_errors(verdict):
    return [e.message for e in verdict.errors if e.code == "too-many-copies"]


# 2011 rulebook: "Symbols at the end of a Pokémon's name are part of a Pokémon's name".
# 1999 rulebook: "A card counts as the same as another card if it has the same name".


def test_ex_and_EX_are_different_names_each_printing_keeps_its_own(index):
    """The 2004 Pokémon-ex `Gardevoir ex` (written `Gardevoir-ex` by many lists) and the
    later `Gardevoir-EX` are different cards with different names; case tells them apart."""
    assert normalise_name("Gardevoir-ex") == normalise_name("Gardevoir ex")
    assert normalise_name("Gardevoir-ex") != normalise_name("Gardevoir-EX", "Pokémon")
    same = check_deck(deck((4, "Gardevoir ex", "EX2", "96"), (4, "Gardevoir-ex")), index, UNLIMITED)
    assert copies_errors(same) == [
        "Lines 1 and 2: 8 cards named Gardevoir ex; a deck may hold at most 4. Remove 4."
    ]
    apart = check_deck(
        deck((4, "Gardevoir ex", "EX2", "96"), (4, "Gardevoir-EX")), index, UNLIMITED
    )
    assert copies_errors(apart) == []


def test_a_trailing_bracket_or_letter_is_part_of_the_name(index):
    """`Unown (A)` is the data's `Unown [A]`; `Unown (A)` and `Unown (B)` are two names."""
    assert normalise_name("Unown (A)") == normalise_name("Unown [A]", "Pokémon")
    verdict = check_deck(deck((4, "Unown (A)"), (4, "Unown (B)")), index, UNLIMITED)
    assert copies_errors(verdict) == []
    assert not [e for e in verdict.errors if e.code == "unknown-card"]
    too_many = check_deck(deck((4, "Unown (A)"), (1, "Unown [A]")), index, UNLIMITED)
    assert copies_errors(too_many) == [
        "Lines 1 and 2: 5 cards named Unown [A]; a deck may hold at most 4. Remove 1."
    ]


def test_level_is_not_part_of_the_name(index):
    """2011: "Level is not part of a Pokémon's name" ("Gengar, Gengar LV. 43, Gengar LV. 44,
    and Gengar LV.X all have the same name")."""
    verdict = check_deck(deck((3, "Gengar"), (1, "Gengar LV.X"), (1, "Gengar LV.44")), index,
                         UNLIMITED)  # fmt: skip
    assert any("5 cards named Gengar" in m for m in copies_errors(verdict))


def test_an_owner_is_part_of_the_name(index):
    """2011: "An owner in a Pokémon's name is part of the Pokémon's name" ("you could have
    4 Geodude and 4 Brock's Geodude")."""
    verdict = check_deck(deck((4, "Geodude"), (4, "Brock's Geodude")), index, UNLIMITED)
    assert copies_errors(verdict) == []


def test_a_wrong_number_is_never_a_silent_basic_energy(index):
    """1999: "you can't have more than 4 of any one card other than basic Energy cards".
    `UF 86` is Mary's Request; Unseen Forces' Darkness Energy is UF 96, a Special Energy, so
    six of them are too many, and the line says which printing it was read as."""
    verdict = check_deck(deck((6, "Darkness Energy", "UF", "86")), index, UNLIMITED)
    (warning,) = [w for w in verdict.warnings if w.code == "printing-corrected"]
    assert "UF 86 is Mary's Request, not Darkness Energy" in warning.message
    assert "Darkness Energy (UF 96)" in warning.message
    assert copies_errors(verdict) == [
        "Line 1: 6 cards named Darkness Energy; a deck may hold at most 4. Remove 2."
    ]


def test_a_number_that_names_nothing_names_the_printings(index):
    """The same rule when the number matches no card of the set."""
    verdict = check_deck(deck((6, "Darkness Energy", "UF", "199")), index, UNLIMITED)
    (warning,) = [w for w in verdict.warnings if w.code == "printing-corrected"]
    assert "there is no card UF 199" in warning.message and "UF 96" in warning.message
    assert copies_errors(verdict)


BASE_ONLY = FormatSpec.custom("base", "Base Set only", sets=["base1"])


@pytest.mark.parametrize(
    ("name", "legal"),
    [("Fire Energy", True), ("Fighting Energy", True), ("Darkness Energy", False),
     ("Metal Energy", False), ("Fairy Energy", False)],
)  # fmt: skip
def test_a_format_says_which_basic_energy_types_it_allows(index, name, legal):
    """1999 glossary: "Basic Energy card: A Grass (leaf), Fire (flame), Water (circle),
    Lightning (lightning bolt), Psychic (circle with a dot), or Fighting (circle with a
    cross) Energy card." Basic Energy is exempt from a format's set list, but a
    Base-Set-only format knows those six types only."""
    verdict = check_deck(deck((4, "Pikachu", "BS", "58"), (4, name)), index, BASE_ONLY)
    bad = [e for e in verdict.errors if e.code == "not-legal-in-format"]
    assert (not bad) is legal, bad
    named = FormatSpec.custom("b", "Base + Darkness", sets=["base1"], basic_energy_types=[
        "Fire", "Darkness"])  # fmt: skip
    dark = check_deck(deck((4, "Pikachu", "BS", "58"), (4, "Darkness Energy")), index, named)
    assert not [e for e in dark.errors if e.code == "not-legal-in-format"]


def test_a_plain_name_with_an_ace_spec_printing_is_read_as_the_unrestricted_one(index):
    """`Computer Search` is the Base Set Trainer and a later ACE SPEC: without a set code
    the list gets no ACE SPEC error, and a warning says which card was assumed."""
    verdict = check_deck(deck((2, "Computer Search"), (1, "Prime Catcher")), index, UNLIMITED)
    assert not [e for e in verdict.errors if e.code == "ace-spec-limit"]
    (warning,) = [w for w in verdict.warnings if w.code == "ambiguous-name"]
    assert "ACE SPEC Computer Search" in warning.message
    pinned = check_deck(deck((1, "Computer Search", "BCR", "137"), (1, "Prime Catcher")), index,
                        UNLIMITED)  # fmt: skip
    assert [e.code for e in pinned.errors if e.code == "ace-spec-limit"] == ["ace-spec-limit"]


def test_no_missing_evolution_warning_for_a_stage_2_reached_with_rare_candy(index):
    lines = deck((4, "Charmander", "MEW", "4"), (3, "Charizard ex", "OBF", "125"),
                 (4, "Rare Candy", "SVI", "191"))  # fmt: skip
    verdict = check_deck(lines, index, UNLIMITED)
    assert not [w for w in verdict.warnings if w.code == "missing-evolution-basis"]
    no_candy = check_deck(lines[:2], index, UNLIMITED)
    assert [w for w in no_candy.warnings if w.code == "missing-evolution-basis"]
