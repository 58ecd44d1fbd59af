"""Board-game nights (Hasbro's Pokémon Master Trainer, 1999): "For 2 to 6 Players", one
winner ("If you beat one of the Pokémon Masters, the game is over and you win!")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.gamenights import TableResult, night_places, seat, table_sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(2, [2]), (3, [3]), (4, [4]), (5, [5]), (6, [6]), (7, [4, 3]), (12, [6, 6]),
     (13, [5, 4, 4]), (19, [5, 5, 5, 4])],
)  # fmt: skip
def test_tables_are_as_few_and_as_even_as_six_seats_allow(players, sizes):
    assert table_sizes(players) == sizes


@pytest.mark.parametrize("players", [0, 1])
def test_one_player_cannot_sit_a_table(players):
    with pytest.raises(RulesError) as exc:
        table_sizes(players)
    assert exc.value.code == "too-few-players"


@given(st.integers(min_value=2, max_value=500))
def test_every_split_keeps_the_rulebook_table_size(players):
    sizes = table_sizes(players)
    assert sum(sizes) == players
    assert all(2 <= s <= 6 for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert len(sizes) == -(-players // 6)


def test_seating_is_random_but_reproducible_from_its_seed():
    players = list(range(100, 113))
    tables = seat(players, seed="night-1")
    assert [len(t) for t in tables] == [5, 4, 4]
    assert sorted(p for t in tables for p in t) == players
    assert seat(list(reversed(players)), seed="night-1") == tables
    assert seat(players, seed="night-2") != tables


def test_a_player_sits_once():
    with pytest.raises(RulesError) as exc:
        seat([1, 1, 2], seed="x")
    assert exc.value.code == "duplicate-player"


def test_winners_share_first_place_and_the_rest_share_the_next():
    results = [TableResult((1, 2, 3, 4, 5), (3,)), TableResult((6, 7, 8, 9), (9,)),
               TableResult((10, 11, 12, 13), (10,))]  # fmt: skip
    places = {p.player: p.place for p in night_places(results, full_order=False)}
    assert {p for p, place in places.items() if place == 1} == {3, 9, 10}
    assert {place for p, place in places.items() if p not in (3, 9, 10)} == {4}


def test_a_full_order_house_rule_ranks_seconds_before_thirds():
    results = [TableResult((1, 2, 3), (2, 3, 1)), TableResult((4, 5, 6), (6, 4, 5))]
    places = {p.player: p.place for p in night_places(results, full_order=True)}
    assert places == {2: 1, 6: 1, 3: 3, 4: 3, 1: 5, 5: 5}


def test_several_games_rank_by_wins_first():
    results = [TableResult((1, 2), (1,)), TableResult((3, 4), (3,)),
               TableResult((1, 3), (1,)), TableResult((2, 4), (4,))]  # fmt: skip
    places = {p.player: (p.place, p.wins, p.games) for p in night_places(results, full_order=False)}
    assert places == {1: (1, 2, 2), 3: (2, 1, 2), 4: (2, 1, 2), 2: (4, 0, 2)}


@pytest.mark.parametrize(
    ("order", "full"), [((), False), ((9,), False), ((1, 1), False), ((1, 2), True)]
)
def test_a_table_reports_its_own_players_once(order, full):
    with pytest.raises(RulesError) as exc:
        results = [TableResult((1, 2, 3), order)]
        night_places(results, full_order=full)
    assert exc.value.code in ("invalid-result", "result-incomplete")
