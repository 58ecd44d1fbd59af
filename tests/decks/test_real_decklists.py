"""Real decklists as players paste them (../shared/data/real-decklists, read in place).

* Every one of the 207 lists with its expected verdict in Unlimited (each was a legal list
  where it was played; the two exceptions are explained in `NOT_LEGAL`).
* One real list rewritten one line at a time into each form exporters and players write
  (promo and gallery numbers written apart, card ids, name-less lines, pseudo-sets of basic
  Energy, symbols written out, short names ...): it stays legal, and the exact forms give
  no warning about the printing.
* No text makes the parser and the check crash or hang.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.parser import parse_decklist
from rules.cards import UNLIMITED, load_index
from rules.legality import check_deck

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
CARDS = SHARED / "pokemon-tcg"
LISTS = SHARED / "real-decklists" / "lists.jsonl"

pytestmark = pytest.mark.skipif(
    not (CARDS.is_dir() and LISTS.is_file()), reason="shared card data or real lists not present"
)

#: The two lists that are not legal in Unlimited, and why (see PROVENANCE.md).
NOT_LEGAL = {
    # The PTCGO export has 61 cards "as the author left it" (and two wrong numbers, which are
    # read by the names with a warning each).
    "ptcgo-sm-2018-zoroark-gardevoir": {"deck-size"},
    # A 2026 list with `Telepathic Psychic Energy POR 27`: set POR and that card are newer
    # than the card data (2026-01-29), so the card is unknown.
    "live-me-2026-cl-osaka-1st-alakazam": {"unknown-card"},
}


def _lists() -> list[dict]:
    if not LISTS.is_file():
        return []
    return [json.loads(line) for line in LISTS.read_text(encoding="utf-8").splitlines() if line]


REAL = _lists()


@pytest.fixture(scope="module")
def index():
    return load_index(str(CARDS))


def check(index, text, fmt=UNLIMITED):
    parsed = parse_decklist(text)
    return check_deck(parsed.lines, index, fmt, parsed.errors)


def test_the_data_holds_207_lists():
    assert len(REAL) == 207


@pytest.mark.parametrize("item", REAL, ids=[item["id"] for item in REAL])
def test_real_list_verdict_in_unlimited(index, item):
    verdict = check(index, item["decklist_text"])
    expected = NOT_LEGAL.get(item["id"])
    if expected is None:
        assert verdict.legal, [e.message for e in verdict.errors]
    else:
        assert not verdict.legal
        assert {e.code for e in verdict.errors} == expected, verdict.errors
    assert verdict.card_count == item["cards_in_text"]


BASE_ID = "sim-2023-2024-s-v-charizard"


@pytest.fixture(scope="module")
def base_text():
    return next(item["decklist_text"] for item in REAL if item["id"] == BASE_ID)


def _ids(index, *card_ids):
    return [index.get(card_id).name for card_id in card_ids]


# (line of the base list, the same card(s) written another way, exact form?)
REWRITES = [
    # promos without their series prefix
    ("1 Charmander PR-SV 47", "1 Charmander svp-47", True),
    ("1 Lumineon V BRS 40", "1 Lumineon V PR-SW 250", True),
    ("1 Justified Gloves CRE 143", "1 Dragonite V PR-SW 154", True),
    ("1 Justified Gloves CRE 143", "1 Solgaleo-GX PR-SM 104", True),
    ("1 Justified Gloves CRE 143", "1 Giratina PR-XY 184", True),
    ("1 Justified Gloves CRE 143", "1 Tropical Beach PR-BLW 50", True),
    ("1 Justified Gloves CRE 143", "1 Ho-Oh PR-HS 1", True),
    ("1 Justified Gloves CRE 143", "1 Turtwig PR-DPP 1", True),
    ("1 Justified Gloves CRE 143", "1 Kyogre ex PR-NP 1", True),
    ("1 Justified Gloves CRE 143", "1 Mew ex PR-SV 53", True),
    # gallery and trainer-gallery numbers written apart
    ("1 Lumineon V BRS 40", "1 Lumineon V CRZ-GG 39", True),
    ("1 Justified Gloves CRE 143", "1 Gardevoir ASR-TG 5", True),
    # basic Energy: pseudo-sets, type letters, RK9 suffixes
    ("7 Fire Energy 2", "7 Basic {R} Energy Energy 2", True),
    ("7 Fire Energy 2", "7 Fire Energy SWSHEnergy 2", True),
    ("7 Fire Energy 2", "7 Fire Energy SMEnergy 2", True),
    ("7 Fire Energy 2", "7 Fire Energy Base 2", True),
    ("7 Fire Energy 2", "7 Fire Energy BRS R", True),
    ("7 Fire Energy 2", "7 Basic {R} Energy SVE 2", True),
    ("7 Fire Energy 2", "7 Lightning Energy - Basic CRZ 155", True),
    ("1 Justified Gloves CRE 143", "1 Fusion Strike Energy - Special FST 244", True),
    # PTCGO's letters for multi-type Energy
    ("1 Justified Gloves CRE 143", "1 Blend Energy WLFM DRX 118", True),
    ("1 Justified Gloves CRE 143", "1 Blend Energy GRPD DRX 117", True),
    ("1 Justified Gloves CRE 143", "1 Unit Energy LPM UPR 138", True),
    ("1 Justified Gloves CRE 143", "1 Unit Energy FDY FLI 118", True),
    # symbols written out or escaped
    ("1 Justified Gloves CRE 143", "1 Heat Factory Prism Star LOT 178", True),
    ("1 Justified Gloves CRE 143", "1 Heat Factory {*} LOT 178", True),
    ("1 Justified Gloves CRE 143", "1 Rayquaza Star DX 107", True),
    ("1 Justified Gloves CRE 143", "1 Reshiram &amp; Charizard-GX UNB 20", True),
    # names shorter than the data's
    ("1 Justified Gloves CRE 143", "1 Battle Compressor PHF 92", True),
    ("1 Justified Gloves CRE 143", "1 Poke Turn PL 118", True),
    ("1 Justified Gloves CRE 143", "1 Poke Turn", True),
    # card ids, name-less lines, bullets
    ("1 Collapsed Stadium BRS 137", "1 Collapsed Stadium swsh9-137", True),
    ("1 Collapsed Stadium BRS 137", "* 1 BRS 137", True),
    ("1 Collapsed Stadium BRS 137", "• 1 Collapsed Stadium BRS 137", True),
    ("1 Collapsed Stadium BRS 137", "* 1 Collapsed Stadium BRS 137", True),
    # a number that names nothing in a set that has the card: read as it, with a warning
    ("1 Collapsed Stadium BRS 137", "1 Collapsed Stadium BRS 999", False),
    # a set newer than the data: read by the name, with a warning
    ("1 Collapsed Stadium BRS 137", "1 Collapsed Stadium ZZZ 137", False),
]


@pytest.mark.parametrize(("old", "new", "exact"), REWRITES, ids=[r[1] for r in REWRITES])
def test_a_real_list_rewritten_one_line_stays_legal(index, base_text, old, new, exact):
    assert old in base_text.splitlines()
    text = base_text.replace(old, new, 1)
    verdict = check(index, text)
    assert verdict.legal, [e.message for e in verdict.errors]
    about_printing = [w for w in verdict.warnings if w.code.startswith("printing-")]
    if exact:
        assert about_printing == []
    else:
        assert len(about_printing) == 1, verdict.warnings


def test_a_title_line_above_the_export_is_skipped(index, base_text):
    verdict = check(index, "Charizard ex / Pidgeot ex - Regionals 2024\n" + base_text)
    assert verdict.legal and verdict.errors == ()


def test_a_disagreement_names_both_cards_and_never_claims_falsely(index, base_text):
    # Shinx is CRZ 39; CRZ-GG 39 is Lumineon V, so nothing is wrong with this line.
    assert check(index, base_text.replace("1 Lumineon V BRS 40", "1 Lumineon V CRZ-GG 39")).legal
    # SUM 83 is Sandile: the warning names both, and the line counts as Zorua.
    text = base_text.replace("1 Jirachi PAR 126", "1 Zorua SUM 83")
    verdict = check(index, text)
    assert verdict.legal
    (warning,) = [w for w in verdict.warnings if w.code == "printing-mismatch"]
    assert "SUM 83 is Sandile, not Zorua" in warning.message


def test_an_unknown_line_adds_no_second_error(index, base_text):
    text = base_text.replace("7 Fire Energy 2", "7 Fyre Energy XQZ 2")
    verdict = check(index, text)
    assert [e.code for e in verdict.errors] == ["unknown-card"]
    assert verdict.card_count == 60


LINE = st.one_of(
    st.text(max_size=80),
    st.builds(
        lambda n, name, tail: f"{n} {name}{tail}",
        st.integers(min_value=0, max_value=99),
        st.text(max_size=40),
        st.sampled_from(
            [
                "",
                " SVI 57",
                " PR-SW 154",
                " CRZ-GG 39",
                " Energy 2",
                " BRS R",
                " SWSHEnergy 14",
                " hgss4-84",
                " - Basic CRZ 155",
                " {*} LOT 178",
                " &amp; UNB 20",
                " UF 86",
                " ZZZ 1",
            ]
        ),
    ),
)


@settings(deadline=2000, max_examples=150, suppress_health_check=list(HealthCheck))
@given(st.lists(LINE, max_size=60))
def test_no_text_makes_the_check_crash_or_hang(index, lines):
    verdict = check(index, "\n".join(lines))
    assert isinstance(verdict.legal, bool)
    for finding in (*verdict.errors, *verdict.warnings):
        assert finding.message


def test_a_name_less_line_is_printed_with_the_cards_name(index):
    from decks.printing import sheet_lines

    (line,) = sheet_lines("* 4 OBF 186", index)
    assert (line.count, line.name, line.printing) == (4, index.get("sv3-186").name, "OBF 186")
