"""Format rules as data (rules/formats.py) in the legality engine and the result rules.

Each test quotes the rulebook sentence (../shared/rulebooks/) the rule follows; the decks are
real Base Set cards from ../shared/data/pokemon-tcg.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.cards import STANDARD, UNLIMITED, FormatSpec, load_index
from rules.decklist import DeckLine
from rules.errors import RulesError
from rules.formats import (
    ADVANCED_1999,
    BASIC_1999,
    CURRENT,
    ORIGINAL_1996,
    PRESETS,
    RULES_2011,
    FormatRules,
    notes_apart_from_sudden_death,
)
from rules.legality import check_deck
from rules.results import GameResult, both_won_outcome, resolve_match, same_result

SHARED = Path(__file__).resolve().parents[3] / "shared"
DATA = SHARED / "data" / "pokemon-tcg"
RULEBOOKS = SHARED / "rulebooks"
pytestmark = pytest.mark.skipif(not DATA.exists(), reason="needs ../shared/data/pokemon-tcg")

BASE_POOL_1999 = {"base1", "base2", "basep", "base3"}
ORIGINAL = FormatSpec.custom("original-1996", "Original rules (1996)", sets={"base1"},
                             rules=ORIGINAL_1996)  # fmt: skip
ADVANCED = FormatSpec.custom("advanced-1999", "Advanced rules (1999)", sets=BASE_POOL_1999,
                             rules=ADVANCED_1999)  # fmt: skip
BASIC = FormatSpec.custom("basic-1999", "Basic game (1999)", sets=BASE_POOL_1999,
                          rules=BASIC_1999)  # fmt: skip
ELEVEN = FormatSpec("rules-2011", "2011 rules", base="unlimited", rules=RULES_2011)


def rulebook_says(name: str, sentence: str) -> str:
    """The sentence, after checking that the rulebook really has it (whitespace aside)."""
    text = " ".join((RULEBOOKS / name).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, f"{name} does not say: {sentence}"
    return sentence


def deck(*entries: tuple[int, str, str, str]) -> list[DeckLine]:
    return [
        DeckLine(i, count, name, code, number, f"{count} {name} {code} {number}", None)
        for i, (count, name, code, number) in enumerate(entries, start=1)
    ]


@pytest.fixture(scope="module")
def index():
    return load_index(DATA)


def codes(verdict) -> set[str]:
    return {f.code for f in verdict.errors}


# A Base Set theme of 30 cards: Pikachu and Raichu, with Trainers and Lightning Energy.
THIRTY = deck(
    (4, "Pikachu", "BS", "58"),
    (2, "Raichu", "BS", "14"),
    (2, "Electabuzz", "BS", "20"),
    (2, "Bill", "BS", "91"),
    (2, "Potion", "BS", "94"),
    (2, "Switch", "BS", "95"),
    (16, "Lightning Energy", "BS", "100"),
)


def test_a_30_card_deck_is_legal_in_the_basic_game_and_not_in_standard(index):
    rulebook_says(
        "1999-wotc-advanced-rulebook.txt",
        "Instead of each player playing with a 30-card deck, now each of you must play with "
        "a 60-card deck, no more and no less!",
    )
    assert sum(line.count for line in THIRTY) == 30
    basic = check_deck(THIRTY, index, BASIC)
    assert basic.legal, basic.errors
    standard = check_deck(THIRTY, index, STANDARD)
    assert not standard.legal
    assert "deck-size" in codes(standard)
    assert "exactly 60" in next(f.message for f in standard.errors if f.code == "deck-size")
    # The same cards under the advanced rules: the deck size alone is the difference.
    assert codes(check_deck(THIRTY, index, ADVANCED)) == {"deck-size"}


def test_the_basic_game_is_played_with_3_prize_cards():
    rulebook_says("1999-wotc-advanced-rulebook.txt", "Each of you puts down 6 Prizes instead of 3.")
    resolution = resolve_match([GameResult("a")], best_of=1, prizes=BASIC_1999.prizes)
    assert [g.prizes for g in resolution.games] == [3]
    with pytest.raises(RulesError) as err:
        resolve_match([GameResult("a", prizes=6)], best_of=1, prizes=BASIC_1999.prizes)
    assert err.value.code == "prize-count"


NO_POKEMON = deck(
    (4, "Bill", "BS", "91"),
    (4, "Professor Oak", "BS", "88"),
    (4, "Potion", "BS", "94"),
    (4, "Switch", "BS", "95"),
    (4, "Gust of Wind", "BS", "93"),
    (4, "Energy Removal", "BS", "92"),
    (4, "PlusPower", "BS", "84"),
    (4, "Double Colorless Energy", "BS", "96"),
    (28, "Grass Energy", "BS", "99"),
)


def test_a_deck_without_a_basic_pokemon_is_legal_in_1996_and_not_under_2011(index):
    rulebook_says(
        "2011-rulebook.txt", "Lastly, your deck must have at least one Basic Pokémon in it."
    )
    # 1996 states no such rule: a hand without Pokémon is a mulligan, and the third loses.
    rulebook_says(
        "1996-japanese-first-edition-rulebook.txt",
        "If you try 3 times and still don’t draw any Pokémon on the third attempt, you lose "
        "the game.",
    )
    assert sum(line.count for line in NO_POKEMON) == 60
    original = check_deck(NO_POKEMON, index, ORIGINAL)
    assert original.legal, original.errors
    eleven = check_deck(NO_POKEMON, index, ELEVEN)
    assert codes(eleven) == {"no-basic-pokemon"}
    # Today's formats keep the rule.
    assert "no-basic-pokemon" in codes(check_deck(NO_POKEMON, index, UNLIMITED))


def test_1996_limits_only_double_colorless_among_energy(index):
    rulebook_says(
        "1996-japanese-first-edition-rulebook.txt",
        "You may put as many of any colors of Energy you like in your deck. Only “Double "
        "Colorless Energy” is limited to 4 copies per deck.",
    )
    five_dce = deck(
        (4, "Pikachu", "BS", "58"),
        (5, "Double Colorless Energy", "BS", "96"),
        (51, "Lightning Energy", "BS", "100"),
    )
    verdict = check_deck(five_dce, index, ORIGINAL)
    assert codes(verdict) == {"too-many-copies"}
    assert "Double Colorless Energy" in verdict.errors[0].message
    five_pikachu = deck((5, "Pikachu", "BS", "58"), (55, "Lightning Energy", "BS", "100"))
    assert codes(check_deck(five_pikachu, index, ORIGINAL)) == {"too-many-copies"}


def test_1996_exempts_every_energy_but_the_listed_ones():
    rules = ORIGINAL_1996
    assert rules.copy_exempt_card(is_energy=True, is_basic_energy=False, norm_name="rainbow energy")
    assert not rules.copy_exempt_card(
        is_energy=True, is_basic_energy=False, norm_name="double colorless energy"
    )
    assert not CURRENT.copy_exempt_card(
        is_energy=True, is_basic_energy=False, norm_name="rainbow energy"
    )
    assert CURRENT.copy_exempt_card(is_energy=True, is_basic_energy=True, norm_name="fire energy")


def test_today_formats_keep_todays_rules():
    # Every format made before formats carried rules gets exactly the old constants.
    for spec in (STANDARD, UNLIMITED, FormatSpec("x", "X", base="expanded")):
        assert spec.rules == CURRENT == FormatRules()
    assert (CURRENT.deck_size, CURRENT.prizes, CURRENT.copy_limit) == (60, 6, 4)
    assert CURRENT.require_basic_pokemon and CURRENT.copy_exempt == "basic_energy"
    assert set(PRESETS) == {"original-1996", "advanced-1999", "basic-1999", "rules-2011"}


def test_won_both_ways_decides_the_game_and_the_match():
    rulebook_says(
        "1999-wotc-advanced-rulebook.txt",
        "If this happens, play Sudden Death. But if you win in both ways and your opponent "
        "wins in only one way, you win!",
    )
    rulebook_says(
        "2011-rulebook.txt",
        "However, if you win in both ways and your opponent wins in only one way, you are the "
        "victor!",
    )
    assert both_won_outcome(2, 1) == "a"
    assert both_won_outcome(1, 2) == "b"
    assert both_won_outcome(1, 1) == both_won_outcome(2, 2) == "both_won"
    # Game 1: both players won at once, but b won both ways: b wins the game; b wins 2-0.
    resolution = resolve_match([GameResult("both_won", ways=(1, 2)), GameResult("b")], best_of=3)
    assert resolution.result == "b" and (resolution.a_wins, resolution.b_wins) == (0, 2)
    first = resolution.games[0]
    assert (first.number, first.sequence, first.outcome, first.reason) == (1, 0, "b", "both_ways")
    # One way each: sudden death, as always.
    level = resolve_match([GameResult("both_won", ways=(1, 1))], best_of=1)
    assert not level.complete and level.next_game.sequence == 1


def test_1996_has_no_won_both_ways():
    # The 1996 rulebook: "If both players’ 6th Pokémon are Knocked Out at the same time by a
    # special Attack, Sudden Death is played." (no exception for winning two ways)
    rulebook_says(
        "1996-japanese-first-edition-rulebook.txt",
        "If both players’ 6th Pokémon are Knocked Out at the same time by a special Attack, "
        "Sudden Death is played.",
    )
    assert both_won_outcome(2, 1, both_ways=False) == "both_won"
    resolution = resolve_match(
        [GameResult("both_won", ways=(2, 1))], best_of=1, both_ways=False, sudden_death="continue"
    )
    assert not resolution.complete
    with pytest.raises(RulesError):
        resolve_match([GameResult("a", reason="both_ways")], best_of=1, both_ways=False)


def test_a_player_who_won_both_ways_and_one_who_just_won_agree():
    first = {"result": "a", "games": [{"number": 1, "sequence": 0, "outcome": "a",
             "reason": "both_ways", "prizes": 6}], "at_time": False, "intentional_draw": False}  # fmt: skip
    second = {**first, "games": [{**first["games"][0], "reason": "played"}]}
    assert same_result(first, second)
    assert not same_result(first, {**second, "result": "b"})


SUDDEN_DEATH_1996 = (
    "If neither player has any Pokémon that can be released at the time of Sudden Death, the "
    "game is a draw."
)


def test_1996_sudden_death_goes_on_in_the_same_game_and_can_be_a_draw():
    rulebook_says("1996-japanese-first-edition-rulebook.txt", SUDDEN_DEATH_1996)
    rulebook_says(
        "1996-japanese-first-edition-rulebook.txt",
        "The first player to Knock Out the seventh Pokémon of their opponent wins.",
    )
    pending = resolve_match([GameResult("both_won")], best_of=1, sudden_death="continue")
    assert pending.next_game.sequence == 1 and pending.next_game.prizes == 0
    assert "goes on" in pending.next_game.why
    # Swiss best of 1: the drawn game makes a tie.
    drawn = resolve_match(
        [GameResult("both_won"), GameResult("draw")], best_of=1, sudden_death="continue"
    )
    assert drawn.result == "tie" and (drawn.a_wins, drawn.b_wins) == (0, 0)
    assert [(g.number, g.sequence, g.outcome, g.prizes) for g in drawn.games] == [
        (1, 0, "both_won", 6),
        (1, 1, "draw", 0),
    ]
    # The top cut needs a winner: a tiebreaker game follows (the event's sudden-death count).
    cut = resolve_match(
        [GameResult("both_won"), GameResult("draw")],
        best_of=1,
        top_cut=True,
        sudden_death="continue",
    )
    assert not cut.complete and cut.next_game.number == 2 and cut.next_game.sequence == 0
    won = resolve_match(
        [GameResult("both_won"), GameResult("draw"), GameResult("a")],
        best_of=1,
        top_cut=True,
        sudden_death="continue",
    )
    assert won.result == "a"
    # Best of 3: the drawn game is nobody's; the match goes on to game 3, and three games
    # with one win each are a tie.
    bo3 = resolve_match(
        [GameResult("a"), GameResult("both_won"), GameResult("draw")],
        best_of=3,
        sudden_death="continue",
    )
    assert not bo3.complete and bo3.next_game.number == 3 and bo3.next_game.prizes == 6
    three = resolve_match(
        [GameResult("a"), GameResult("both_won"), GameResult("draw"), GameResult("b")],
        best_of=3,
        sudden_death="continue",
    )
    assert three.result == "tie" and (three.a_wins, three.b_wins) == (1, 1)


@pytest.mark.parametrize("kw", [{}, {"sudden_death": "new_game"}])
def test_a_draw_is_refused_where_the_rules_have_none(kw):
    with pytest.raises(RulesError) as err:
        resolve_match([GameResult("both_won"), GameResult("draw")], best_of=1, **kw)
    assert err.value.code == "invalid-result"
    with pytest.raises(RulesError):
        resolve_match([GameResult("draw")], best_of=1, sudden_death="continue")


def test_a_reported_prize_count_never_overrides_the_events():
    with pytest.raises(RulesError) as err:
        resolve_match(
            [GameResult("both_won"), GameResult("a", prizes=6)], best_of=1, sudden_death_prizes=1
        )
    assert err.value.code == "prize-count"
    assert "1 Prize card each" in err.value.message
    ok = resolve_match(
        [GameResult("both_won"), GameResult("a", prizes=1)], best_of=1, sudden_death_prizes=1
    )
    assert [g.prizes for g in ok.games] == [6, 1]
    with pytest.raises(RulesError):  # more Prize cards in sudden death than in the game
        resolve_match([GameResult("a")], best_of=1, prizes=3, sudden_death_prizes=6)


def test_beside_an_events_sudden_death_the_notes_say_nothing_of_their_own():
    for key, rules in PRESETS.items():
        kept = notes_apart_from_sudden_death(rules.play_notes)
        assert not any("sudden death" in note.lower() for note in kept), key
        assert len(kept) >= len(rules.play_notes) - 1  # at most the note that is all about it
    kept = notes_apart_from_sudden_death(PRESETS["rules-2011"].play_notes)
    assert kept[-1] == (
        "If you win in both ways and your opponent wins in only one way, you are the victor."
    )
