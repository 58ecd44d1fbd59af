"""RuleSet numbers and the attendance table."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.scoring import (
    DEFAULT_TABLE,
    PLAY_POKEMON,
    AttendanceRow,
    RuleSet,
    structure_for,
    table_from_rows,
    table_to_rows,
    validate_table,
)


def test_play_pokemon_numbers():
    assert RuleSet() == PLAY_POKEMON
    assert (PLAY_POKEMON.win_points, PLAY_POKEMON.tie_points, PLAY_POKEMON.loss_points) == (3, 1, 0)
    assert PLAY_POKEMON.owp_floor == 0.25
    assert PLAY_POKEMON.dropped_cap == 0.75
    assert PLAY_POKEMON.tie_counts_as == 0.5
    # TOM compares OWP and OOWP exactly (tests/rules/test_tom_exports.py) and counts an
    # earned bye as a won round.
    assert PLAY_POKEMON.tiebreak_decimals is None
    assert PLAY_POKEMON.earned_bye_is_win is True


def test_ruleset_is_frozen_and_round_trips():
    with pytest.raises(AttributeError):
        PLAY_POKEMON.win_points = 2  # type: ignore[misc]
    data = json.loads(json.dumps(PLAY_POKEMON.to_dict()))
    assert RuleSet.from_dict(data) == PLAY_POKEMON
    custom = RuleSet.from_dict({"tie_counts_as": 0.0, "tiebreak_decimals": 2})
    assert custom.tie_counts_as == 0.0 and custom.tiebreak_decimals == 2


@pytest.mark.parametrize(
    "changes",
    [
        {"win_points": 1, "tie_points": 1},
        {"win_points": 3.0},
        {"owp_floor": 1.5},
        {"owp_floor": 0.8, "dropped_cap": 0.7},
        {"tie_counts_as": -0.1},
        {"tiebreak_decimals": -1},
        {"tiebreak_rounding": "banker"},
    ],
)
def test_ruleset_rejects_nonsense(changes):
    with pytest.raises(RulesError) as info:
        RuleSet(**changes)
    assert info.value.code == "bad-ruleset"


def test_ruleset_from_dict_rejects_unknown_fields():
    with pytest.raises(RulesError):
        RuleSet.from_dict({"win_points": 3, "bonus": 1})


@pytest.mark.parametrize(
    ("attendance", "expected"),
    [
        (4, (3, 0)),
        (8, (3, 0)),
        (9, (4, 2)),
        (12, (4, 2)),
        (13, (5, 4)),
        (20, (5, 4)),
        (21, (5, 8)),
        (32, (5, 8)),
        (33, (6, 8)),
        (64, (6, 8)),
        (65, (7, 8)),
        (128, (7, 8)),
        (129, (8, 16)),
        (226, (8, 16)),
        (227, (9, 32)),
        (409, (9, 32)),
        (410, (10, 64)),
        (4096, (10, 64)),
    ],
)
def test_structure_for_default_table(attendance, expected):
    assert structure_for(attendance) == expected


@pytest.mark.parametrize("attendance", [0, 1, 3])
def test_too_few_players(attendance):
    with pytest.raises(RulesError) as info:
        structure_for(attendance)
    assert info.value.code == "too-few-players"


@pytest.mark.parametrize("attendance", [8.0, "8", True, None])
def test_attendance_must_be_an_int(attendance):
    with pytest.raises(RulesError):
        structure_for(attendance)


def test_default_table_is_valid_data():
    assert validate_table(DEFAULT_TABLE) == DEFAULT_TABLE
    assert all(isinstance(row, tuple) and len(row) == 4 for row in DEFAULT_TABLE)
    assert DEFAULT_TABLE[0] == (4, 8, 3, 0)
    assert DEFAULT_TABLE[-1] == AttendanceRow(410, None, 10, 64)


def test_table_json_round_trip():
    rows = json.loads(json.dumps(table_to_rows()))
    assert rows[0] == {"min_players": 4, "max_players": 8, "rounds": 3, "top_cut": 0}
    assert rows[-1]["max_players"] is None
    assert table_from_rows(rows) == DEFAULT_TABLE


def test_a_season_can_use_its_own_table():
    season = table_from_rows(
        [
            {"min_players": 4, "max_players": 16, "rounds": 4, "top_cut": 0},
            {"min_players": 17, "rounds": 6, "top_cut": 8},
        ]
    )
    assert structure_for(10, season) == (4, 0)
    assert structure_for(500, season) == (6, 8)
    closed = table_from_rows([{"min_players": 4, "max_players": 16, "rounds": 4, "top_cut": 0}])
    with pytest.raises(RulesError) as info:
        structure_for(17, closed)
    assert info.value.code == "too-many-players"


@pytest.mark.parametrize(
    "rows",
    [
        [],
        [{"min_players": 4, "max_players": 8, "rounds": 3}],
        [
            {"min_players": 4, "max_players": 8, "rounds": 3, "top_cut": 0},
            {"min_players": 10, "max_players": None, "rounds": 4, "top_cut": 2},
        ],
        [
            {"min_players": 4, "max_players": 8, "rounds": 3, "top_cut": 0},
            {"min_players": 8, "max_players": None, "rounds": 4, "top_cut": 2},
        ],
        [
            {"min_players": 4, "max_players": None, "rounds": 3, "top_cut": 0},
            {"min_players": 5, "max_players": None, "rounds": 4, "top_cut": 2},
        ],
        [{"min_players": 4, "max_players": 8, "rounds": 0, "top_cut": 0}],
        [{"min_players": 4, "max_players": 8, "rounds": 3, "top_cut": 6}],
        [{"min_players": 4, "max_players": 8, "rounds": 3, "top_cut": 8}],
        [{"min_players": "4", "max_players": 8, "rounds": 3, "top_cut": 0}],
        ["not a row"],
    ],
)
def test_bad_tables_are_rejected(rows):
    with pytest.raises(RulesError) as info:
        table_from_rows(rows)
    assert info.value.code == "bad-attendance-table"


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=4, max_value=5000), st.integers(min_value=1, max_value=400))
def test_more_players_never_means_fewer_rounds_or_a_smaller_cut(attendance, extra):
    rounds, cut = structure_for(attendance)
    more_rounds, more_cut = structure_for(attendance + extra)
    assert more_rounds >= rounds and more_cut >= cut
    assert cut <= attendance
