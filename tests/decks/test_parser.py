"""The decklist text parser (decks/parser.py): plain Python, no database."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.parser import MAX_COUNT, MAX_PASTE_CHARS, MAX_PASTE_LINES, parse_decklist
from rules.decklist import DeckLine, ParsedDeck

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "pokemon-tcg"

TCG_LIVE = """\
Pokémon: 7
4 Dreepy TWM 128
4 Drakloak TWM 129
3 Dragapult ex TWM 130
1 Fezandipiti ex SFA 38
1 Zeraora VMAX CRZ-GG GG42
1 Mew ex PR-SV 53
1 Pikachu V BRS TG05

Trainer: 9
4 Arven SVI 166
4 Iono PAL 185 PH
4 Ultra Ball SVI 196
4 Buddy-Buddy Poffin TEF 144
4 Rare Candy SVI 191
4 Nest Ball SVI 181
4 Boss’s Orders PAL 172
3 Counter Catcher PAR 160
1 Professor's Research PR-SW SWSH152

Energy: 2
5 Basic {R} Energy SVE 2
4 Basic {M} Energy Energy 25

Total Cards: 56
"""


def parsed_tuples(deck: ParsedDeck) -> list[tuple]:
    return [(d.line_no, d.count, d.name, d.set_code, d.number, d.section) for d in deck.lines]


def test_tcg_live_export():
    deck = parse_decklist(TCG_LIVE)
    assert deck.errors == ()
    assert parsed_tuples(deck) == [
        (2, 4, "Dreepy", "TWM", "128", "Pokémon"),
        (3, 4, "Drakloak", "TWM", "129", "Pokémon"),
        (4, 3, "Dragapult ex", "TWM", "130", "Pokémon"),
        (5, 1, "Fezandipiti ex", "SFA", "38", "Pokémon"),
        (6, 1, "Zeraora VMAX", "CRZ-GG", "GG42", "Pokémon"),
        (7, 1, "Mew ex", "PR-SV", "53", "Pokémon"),
        (8, 1, "Pikachu V", "BRS", "TG05", "Pokémon"),
        (11, 4, "Arven", "SVI", "166", "Trainer"),
        (12, 4, "Iono", "PAL", "185", "Trainer"),
        (13, 4, "Ultra Ball", "SVI", "196", "Trainer"),
        (14, 4, "Buddy-Buddy Poffin", "TEF", "144", "Trainer"),
        (15, 4, "Rare Candy", "SVI", "191", "Trainer"),
        (16, 4, "Nest Ball", "SVI", "181", "Trainer"),
        (17, 4, "Boss’s Orders", "PAL", "172", "Trainer"),
        (18, 3, "Counter Catcher", "PAR", "160", "Trainer"),
        (19, 1, "Professor's Research", "PR-SW", "SWSH152", "Trainer"),
        (22, 5, "Basic {R} Energy", "SVE", "2", "Energy"),
        (23, 4, "Basic {M} Energy", "Energy", "25", "Energy"),
    ]
    assert deck.card_count == 56
    assert deck.lines[8].raw == "4 Iono PAL 185 PH"


HEADERS = [
    ("Pokémon: 1", "Pokémon"),
    ("Pokemon: 1", "Pokémon"),
    ("POKÉMON: 1", "Pokémon"),
    ("Pokémon : 1", "Pokémon"),
    ("##Pokémon - 1", "Pokémon"),
    ("Trainer: 1", "Trainer"),
    ("Trainers", "Trainer"),
    ("Dresseur : 1", "Trainer"),
    ("Entrenador: 1", "Trainer"),
    ("Allenatore: 1", "Trainer"),
    ("Treinador: 1", "Trainer"),
    ("Energy: 1", "Energy"),
    ("Énergie : 1", "Energy"),
    ("Energie: 1", "Energy"),
    ("Energía: 1", "Energy"),
    ("Energia: 1", "Energy"),
    ("Energy (1)", "Energy"),
]


@pytest.mark.parametrize(("header", "section"), HEADERS)
def test_section_headers(header, section):
    deck = parse_decklist(f"{header}\n1 Pikachu SVI 57")
    assert deck.errors == ()
    assert deck.lines[0].section == section


def test_french_export():
    text = (
        "Pokémon : 2\n4 Pikachu ex SSP 57\n2 Zapdos PAF 29\n\n"
        "Dresseur : 2\n4 Ordres du Boss PAL 172\n4 Poké Ball MEW 165\n\n"
        "Énergie : 1\n10 Énergie {L} de base SVE 4\n\nTotal de cartes : 24\n"
    )
    deck = parse_decklist(text)
    assert deck.errors == ()
    assert [d.section for d in deck.lines] == ["Pokémon"] * 2 + ["Trainer"] * 2 + ["Energy"]
    assert deck.lines[-1].name == "Énergie {L} de base"
    assert deck.card_count == 24


@pytest.mark.parametrize(
    "total", ["Total Cards: 60", "Total de cartes : 60", "Karten insgesamt: 60",
              "Cartas totales: 60", "Carte totali: 60", "Total de cartas: 60"]
)  # fmt: skip
def test_total_lines_are_skipped(total):
    deck = parse_decklist(f"4 Pikachu\n{total}")
    assert deck.errors == ()
    assert len(deck.lines) == 1


def test_tolerant_whitespace_and_line_ends():
    text = "\ufeffPokémon: 1\r\n\r\n  4   Pikachu   ex   SVI  57  \r\n\r\n4\tRaichu\rEnergy: 1\n"
    deck = parse_decklist(text)
    assert deck.errors == ()
    assert parsed_tuples(deck) == [
        (3, 4, "Pikachu ex", "SVI", "57", "Pokémon"),
        (5, 4, "Raichu", None, None, "Pokémon"),
    ]


def test_plain_lines_and_styles():
    deck = parse_decklist(
        "4 Pikachu\n4x Raichu\n2X Gengar\n3× Mew\n* 2 Iono PAL 185\n1 Pokemon Catcher\n"
        "2 Boss’s Orders\n"
    )
    assert deck.errors == ()
    assert [(d.count, d.name, d.set_code) for d in deck.lines] == [
        (4, "Pikachu", None),
        (4, "Raichu", None),
        (2, "Gengar", None),
        (3, "Mew", None),
        (2, "Iono", "PAL"),
        (1, "Pokemon Catcher", None),
        (2, "Boss’s Orders", None),
    ]


def test_same_card_on_two_lines_is_kept():
    deck = parse_decklist("2 Pikachu SVI 57\n2 Pikachu SVI 57")
    assert [d.count for d in deck.lines] == [2, 2]


SPLITS = [
    ("1 Zacian V", ("Zacian V", None, None)),
    ("1 Zacian V SSH 138", ("Zacian V", "SSH", "138")),
    ("1 Zacian V 138", ("Zacian V 138", None, None)),
    ("1 Tapu Lele-GX", ("Tapu Lele-GX", None, None)),
    ("1 Tapu Lele GX 60", ("Tapu Lele GX 60", None, None)),
    ("1 Mewtwo EX", ("Mewtwo EX", None, None)),
    ("1 Mewtwo EX 54", ("Mewtwo", "EX", "54")),  # EX is Expedition; the engine retries
    ("1 Mewtwo-EX NXD 54", ("Mewtwo-EX", "NXD", "54")),
    ("1 Garchomp C", ("Garchomp C", None, None)),
    ("1 Garchomp C SV 145", ("Garchomp C", "SV", "145")),
    ("1 Garchomp C LV.X SV 145", ("Garchomp C LV.X", "SV", "145")),
    ("1 Dialga G LV.X", ("Dialga G LV.X", None, None)),
    ("1 Dialga G 7", ("Dialga G 7", None, None)),
    ("1 Drapion E4", ("Drapion E4", None, None)),
    ("1 Drapion E4 RR 17", ("Drapion E4", "RR", "17")),
    ("1 Dusknoir FB SV 26", ("Dusknoir FB", "SV", "26")),
    ("1 Luxray GL LV.X RR 109", ("Luxray GL LV.X", "RR", "109")),
    ("2 Gengar LV.43 SF 18", ("Gengar LV.43", "SF", "18")),
    ("2 Gengar LV. 43 SF 18", ("Gengar LV. 43", "SF", "18")),
    ("2 Gengar LV.43", ("Gengar LV.43", None, None)),
    ("1 Charizard VSTAR BRS 18", ("Charizard VSTAR", "BRS", "18")),
    ("1 Charizard VMAX", ("Charizard VMAX", None, None)),
    ("1 Blaine's Quiz #1 G1 97", ("Blaine's Quiz #1", "G1", "97")),
    ("1 Blaine's Quiz #1", ("Blaine's Quiz #1", None, None)),
    ("1 Porygon2", ("Porygon2", None, None)),
    ("1 Porygon-Z UPR 157", ("Porygon-Z", "UPR", "157")),
    ("1 Dark Porygon2 N4 42", ("Dark Porygon2", "N4", "42")),
    ("1 Nidoran♀ BS 55", ("Nidoran♀", "BS", "55")),
    ("1 Alakazam ★ CG 99", ("Alakazam ★", "CG", "99")),
    ("1 Giratina ◇ UPR 58", ("Giratina ◇", "UPR", "58")),
    ("1 Aerodactyl δ HP 35", ("Aerodactyl δ", "HP", "35")),
    ("1 Reshiram sv1 86", ("Reshiram", "sv1", "86")),
    ("1 Pikachu swshp SWSH020", ("Pikachu", "swshp", "SWSH020")),
    ("1 Blastoise CEL 2_A", ("Blastoise", "CEL", "2_A")),
    ("1 Reset Stamp UNM 206a", ("Reset Stamp", "UNM", "206a")),
    ("1 Double Colorless Energy 25", ("Double Colorless Energy 25", None, None)),
    ("1 Double Colorless Energy Energy 25", ("Double Colorless Energy", "Energy", "25")),
    ("1 Psychic Energy energy 5", ("Psychic Energy", "Energy", "5")),
    ("1 Iono PAL 185 PH", ("Iono", "PAL", "185")),
    ("1 PH", ("PH", None, None)),
    ("1 Unown [A]", ("Unown [A]", None, None)),
]


@pytest.mark.parametrize(("line", "expected"), SPLITS)
def test_name_set_number_split(line, expected):
    deck = parse_decklist(line)
    assert deck.errors == ()
    d = deck.lines[0]
    assert (d.name, d.set_code, d.number) == expected


BROKEN = [
    ("four Pikachu", "in words"),
    ("Pikachu x4", "write the count first"),
    ("Pikachu 4", "write the count first"),
    ("0 Pikachu", "count of 0"),
    ("00 Pikachu", "count of 0"),
    ("-1 Pikachu", "signed count"),
    ("+4 Pikachu", "signed count"),
    ("1000 Pikachu", f"more than {MAX_COUNT}"),
    ("99999999999999999999999999 Pikachu", f"more than {MAX_COUNT}"),
    ("4Pikachu", "not a card line"),
    ("4", "not a card line"),
    ("Pikachu", "not a card line"),
    ("Deck name: Lost Box", "not a card line"),
    ("4 " + "Pikachu " * 60, "too long"),
]


@pytest.mark.parametrize(("line", "message"), BROKEN)
def test_broken_lines_are_parse_errors(line, message):
    deck = parse_decklist(f"4 Raichu\n{line}\n2 Mew")
    assert [d.name for d in deck.lines] == ["Raichu", "Mew"]  # counts toward nothing
    assert deck.card_count == 6
    assert len(deck.errors) == 1
    finding = deck.errors[0]
    assert finding.code == "parse-error"
    assert finding.lines == (2,)
    assert finding.message.startswith("Line 2: ")
    assert message in finding.message


def test_comments_and_decoration_are_skipped():
    text = "****** Pokémon Trading Card Game Deck List ******\n// my deck\n# notes\n4 Pikachu\n"
    deck = parse_decklist(text)
    assert deck.errors == () and len(deck.lines) == 1


def test_non_string_input_does_not_raise():
    assert parse_decklist("") == ParsedDeck((), ())
    assert parse_decklist(None).lines == ()  # type: ignore[arg-type]
    assert parse_decklist(b"4 Pikachu\xff").lines[0].count == 4  # type: ignore[arg-type]


def test_deckline_is_immutable():
    line = parse_decklist("4 Pikachu").lines[0]
    assert isinstance(line, DeckLine)
    with pytest.raises(AttributeError):
        line.count = 5  # type: ignore[misc]


def test_large_input_is_fast_and_refused_with_the_limit_named():
    import time

    text = "\n".join(f"{i % 4 + 1} Card Number {i} SVI {i}" for i in range(20000))
    start = time.perf_counter()
    deck = parse_decklist(text)
    assert time.perf_counter() - start < 1
    assert deck.lines == ()
    assert [f.code for f in deck.errors] == ["paste-too-long"]
    assert f"{MAX_PASTE_CHARS:,}" in deck.errors[0].message


def test_too_many_lines_are_refused_with_the_limit_named():
    deck = parse_decklist("\n".join("1 Pikachu" for _ in range(MAX_PASTE_LINES + 1)))
    assert deck.lines == ()
    assert [f.code for f in deck.errors] == ["too-many-lines"]
    assert str(MAX_PASTE_LINES) in deck.errors[0].message
    assert len(parse_decklist("\n".join("1 Pikachu" for _ in range(MAX_PASTE_LINES))).lines) == (
        MAX_PASTE_LINES
    )


CARD_LINE = st.builds(
    lambda count, name, tail: f"{count} {name}{tail}",
    st.integers(min_value=-5, max_value=2000),
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=0, max_size=30),
    st.sampled_from(["", " SVI 57", " PR-SV 27", " CRZ-GG GG39", " Energy 25", " EX 54", " PH"]),
)
ANY_LINE = st.one_of(
    CARD_LINE,
    st.text(max_size=120),
    st.sampled_from(["Pokémon: 12", "Trainer: 3", "Énergie : 2", "Total Cards: 60", "", "\r"]),
)


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ANY_LINE, max_size=40), st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_text_only_produces_parse_errors(lines, newline):
    text = newline.join(lines)
    deck = parse_decklist(text)
    n_lines = len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    for finding in deck.errors:
        assert finding.code == "parse-error"
        assert len(finding.lines) == 1 and 1 <= finding.lines[0] <= n_lines
        assert finding.message.startswith(f"Line {finding.lines[0]}: ")
    for line in deck.lines:
        assert 1 <= line.count <= MAX_COUNT
        assert 1 <= line.line_no <= n_lines
        assert line.name == line.name.strip()
        assert line.name or line.set_code  # a name-less line names its printing
        assert (line.set_code is None) == (line.number is None)
        assert line.section in (None, "Pokémon", "Trainer", "Energy")
    used = [d.line_no for d in deck.lines] + [f.lines[0] for f in deck.errors]
    assert len(used) == len(set(used))  # each line is a card, an error or skipped


@settings(deadline=None, max_examples=100)
@given(st.text(max_size=3000))
def test_arbitrary_text_never_raises(text):
    deck = parse_decklist(text)
    assert all(f.code in ("parse-error", "too-many-lines") for f in deck.errors)


@settings(deadline=None, max_examples=20)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(data):
    parse_decklist(data.decode("utf-8", errors="replace"))


# --------------------------------------------------------------------------- real data


def test_real_precons_as_tcg_live_text_parse_and_check():
    if not (DATA / "sets" / "en.json").exists():
        pytest.skip(f"card data not found at {DATA}")
    from rules.cards import UNLIMITED, load_index
    from rules.legality import check_deck

    index = load_index(DATA)
    decks = []
    for path in sorted((DATA / "decks" / "en").glob("*.json")):
        decks.extend(json.loads(path.read_text(encoding="utf-8")))
    energy = {"Grass": "G", "Fire": "R", "Water": "W", "Lightning": "L", "Psychic": "P",
              "Fighting": "F", "Darkness": "D", "Metal": "M", "Fairy": "Y"}  # fmt: skip
    for deck in decks:
        counts: Counter[str] = Counter()
        names: dict[str, str] = {}
        for entry in deck["cards"]:
            counts[entry["id"]] += entry["count"]
            names[entry["id"]] = entry["name"]
        sections: dict[str, list[str]] = {"Pokémon": [], "Trainer": [], "Energy": []}
        for card_id, count in counts.items():
            rec = index.get(card_id)
            if rec is None:
                sections["Energy"].append(f"{count} {names[card_id]}")
            elif rec.is_basic_energy and rec.name.split()[0] in energy:
                symbol = energy[rec.name.split()[0]]
                sections["Energy"].append(
                    f"{count} Basic {{{symbol}}} Energy {rec.set_code or rec.set_id} {rec.number}"
                )
            else:
                code = rec.set_code or rec.set_id
                sections[rec.supertype].append(f"{count} {rec.name} {code} {rec.number}")
        text = (
            "\n".join(
                f"{title}: {len(lines)}\n" + "\n".join(lines) + "\n"
                for title, lines in sections.items()
            )
            + f"\nTotal Cards: {sum(counts.values())}\n"
        )
        parsed = parse_decklist(text)
        assert parsed.errors == (), (deck["id"], parsed.errors)
        assert parsed.card_count == sum(counts.values())
        verdict = check_deck(parsed.lines, index, UNLIMITED)
        assert "unknown-card" not in [f.code for f in verdict.errors], (deck["id"], verdict)
