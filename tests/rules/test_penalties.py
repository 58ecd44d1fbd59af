"""Penalties as games of a match: pure, no database."""

import pytest

from rules import penalties
from rules.errors import RulesError
from rules.results import GameResult, resolve_match


def test_a_game_loss_is_one_more_game_the_opponent_won():
    played = [GameResult("a")]
    games = penalties.penalty_games("game-loss", penalised="a", played=played, best_of=3)
    assert games == [GameResult("a"), GameResult("b", reason="penalty")]
    assert resolve_match(games, best_of=3).result is None  # 1–1: game 3 is still to play
    best_of_1 = penalties.penalty_games("game-loss", penalised="b", played=[], best_of=1)
    assert resolve_match(best_of_1, best_of=1).result == "a"


@pytest.mark.parametrize("penalty", ["match-loss", "disqualification"])
@pytest.mark.parametrize(("best_of", "games"), [(1, 1), (3, 2)])
def test_a_match_loss_is_the_opponents_win_by_penalty_games_only(penalty, best_of, games):
    result = penalties.penalty_games(
        penalty, penalised="a", played=[GameResult("a")], best_of=best_of
    )
    assert result == [GameResult("b", reason="penalty")] * games
    resolution = resolve_match(result, best_of=best_of)
    assert (resolution.result, resolution.b_wins) == ("b", games)


@pytest.mark.parametrize("penalty", ["caution", "warning", "prize"])
def test_lighter_penalties_cost_no_games(penalty):
    assert not penalties.costs_games(penalty)
    with pytest.raises(RulesError):
        penalties.penalty_games(penalty, penalised="a", played=[], best_of=1)


@pytest.mark.parametrize(
    ("infraction", "penalty", "prizes", "ok"),
    [
        ("tardiness", "prize", 1, True),
        ("tardiness", "prize", 6, True),
        ("tardiness", "prize", 0, False),
        ("tardiness", "prize", 7, False),
        ("tardiness", "warning", 2, False),
        ("tardiness", "warning", None, True),
        ("jaywalking", "warning", None, False),
        ("cheating", "banishment", None, False),
    ],
)
def test_check_penalty(infraction, penalty, prizes, ok):
    if ok:
        penalties.check_penalty(infraction, penalty, prizes)
    else:
        with pytest.raises(RulesError) as exc:
            penalties.check_penalty(infraction, penalty, prizes)
        assert exc.value.code == "invalid-penalty"


def test_labels_and_repeats():
    assert penalties.penalty_label("prize", 1) == "Prize penalty (1 Prize)"
    assert penalties.penalty_label("prize", 2) == "Prize penalty (2 Prizes)"
    assert penalties.penalty_label("match-loss") == "Match loss"
    assert penalties.repeat_infractions(["tardiness", "cheating", "tardiness"]) == {"tardiness"}
    assert {code for code, _ in penalties.INFRACTIONS} >= {
        "procedural-minor", "procedural-major", "tardiness", "deck-decklist",
        "unsporting-minor", "unsporting-major", "unsporting-severe", "cheating",
    }  # fmt: skip
