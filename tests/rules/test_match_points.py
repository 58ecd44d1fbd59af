"""Match points from match results (`rules.scoring.match_points`) and a result's stored
form (`rules.results.result_snapshot`)."""

from rules.results import PlayedGame, result_snapshot
from rules.scoring import PLAY_POKEMON, RuleSet, match_points


def test_win_tie_loss_bye_and_double_loss():
    results = [
        (1, 2, "a"),  # 1 wins
        (3, 4, "b"),  # 4 wins
        (5, 6, "tie"),
        (7, None, "a"),  # a bye
        (8, 9, "double_loss"),
    ]

    points = match_points(results, PLAY_POKEMON)

    assert {p: points[p] for p in range(1, 10)} == {
        1: 3,
        2: 0,
        3: 0,
        4: 3,
        5: 1,
        6: 1,
        7: 3,
        8: 0,
        9: 0,
    }
    assert points[42] == 0  # no match yet


def test_points_add_up_over_rounds_and_follow_the_rule_set():
    rules = RuleSet(win_points=2, tie_points=1, loss_points=0)
    assert match_points([(1, 2, "a"), (1, 3, "tie"), (2, 1, "b")], rules)[1] == 5


def test_result_snapshot_is_the_same_form_for_played_games_and_stored_rows():
    games = [PlayedGame(number=1, sequence=0, outcome="both_won", reason="played", prizes=6),
             PlayedGame(number=1, sequence=1, outcome="a", reason="played", prizes=1)]  # fmt: skip

    snapshot = result_snapshot(result="a", games=games, at_time=0, intentional_draw=None)

    assert snapshot == {
        "result": "a",
        "games": [
            {"number": 1, "sequence": 0, "outcome": "both_won", "reason": "played", "prizes": 6},
            {"number": 1, "sequence": 1, "outcome": "a", "reason": "played", "prizes": 1},
        ],
        "at_time": False,
        "intentional_draw": False,
    }
