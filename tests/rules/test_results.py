"""Match results from games: best of 1 and 3, time, sudden-death chains."""

import pytest

from rules.errors import RulesError
from rules.results import GameResult, games_from_payload, resolve_match


def g(*outcomes, **kw):
    return [GameResult(o) for o in outcomes]


@pytest.mark.parametrize(
    ("games", "best_of", "kw", "result", "score"),
    [
        (["a"], 1, {}, "a", (1, 0)),
        (["b"], 1, {}, "b", (0, 1)),
        (["a", "a"], 3, {}, "a", (2, 0)),
        (["a", "b", "b"], 3, {}, "b", (1, 2)),
        (["a", "b"], 3, {"at_time": True}, "tie", (1, 1)),
        (["a", "b", "tie"], 3, {"at_time": True}, "tie", (1, 1)),
        (["a", "tie"], 3, {"at_time": True}, "a", (1, 0)),
        (["tie"], 1, {"at_time": True}, "tie", (0, 0)),
        (["double_loss"], 1, {}, "double_loss", (0, 0)),
        (["double_loss", "a", "a"], 3, {}, "a", (2, 0)),
        (["double_loss", "a", "b"], 3, {}, "tie", (1, 1)),
        (["both_won", "a"], 1, {}, "a", (1, 0)),
        (["both_won", "both_won", "b"], 1, {}, "b", (0, 1)),
        (["a", "both_won", "a"], 3, {}, "a", (2, 0)),
    ],
)
def test_match_results(games, best_of, kw, result, score):
    resolution = resolve_match(g(*games), best_of=best_of, **kw)
    assert resolution.result == result
    assert (resolution.a_wins, resolution.b_wins) == score


def test_sudden_death_chain_keeps_every_replay_in_its_slot_with_the_events_prizes():
    resolution = resolve_match(g("a", "both_won", "both_won", "b", "a"), best_of=3, sudden_death_prizes=1)
    slots = [(x.number, x.sequence, x.outcome, x.prizes) for x in resolution.games]
    assert slots == [
        (1, 0, "a", 6),
        (2, 0, "both_won", 6),
        (2, 1, "both_won", 1),
        (2, 2, "b", 1),
        (3, 0, "a", 6),
    ]
    assert resolution.result == "a"


def test_handbook_sudden_death_uses_six_prizes():
    resolution = resolve_match(g("both_won"), best_of=1, sudden_death_prizes=6)
    assert resolution.result is None
    assert resolution.next_game.prizes == 6
    assert (resolution.next_game.number, resolution.next_game.sequence) == (1, 1)


def test_unfinished_replay_asks_for_another_sudden_death_game():
    resolution = resolve_match(g("both_won", "both_won"), best_of=1, sudden_death_prizes=1)
    assert not resolution.complete
    assert resolution.next_game.sequence == 2 and resolution.next_game.prizes == 1


def test_top_cut_level_at_time_goes_to_sudden_death():
    resolution = resolve_match(g("a", "b"), best_of=3, top_cut=True, at_time=True)
    assert resolution.result is None
    assert resolution.next_game.number == 3 and resolution.next_game.prizes == 1
    decided = resolve_match(
        [*g("a", "b"), GameResult("b", prizes=1)], best_of=3, top_cut=True, at_time=True
    )
    assert decided.result == "b"


def test_top_cut_best_of_one_unfinished_game_then_sudden_death():
    resolution = resolve_match(g("tie", "a"), best_of=1, top_cut=True, at_time=True)
    assert resolution.result == "a"


def test_swiss_best_of_three_in_progress_asks_for_the_next_game():
    resolution = resolve_match(g("a"), best_of=3)
    assert resolution.result is None
    assert resolution.next_game.number == 2 and resolution.next_game.prizes == 6


def test_intentional_draw():
    assert resolve_match([], best_of=3, intentional_draw=True).result == "tie"
    with pytest.raises(RulesError):
        resolve_match([], best_of=3, intentional_draw=True, top_cut=True)


@pytest.mark.parametrize(
    ("games", "best_of", "kw"),
    [
        (["a", "a"], 1, {}),
        (["a", "a", "b"], 3, {}),
        (["tie"], 1, {}),
        (["tie", "a"], 1, {"at_time": True}),
        (["wat"], 1, {}),
    ],
)
def test_impossible_lists_are_refused_with_a_code(games, best_of, kw):
    with pytest.raises(RulesError) as err:
        resolve_match(g(*games), best_of=best_of, **kw)
    assert err.value.code == "invalid-result"


def test_no_show_and_penalty_are_game_losses_with_their_reason():
    games = [GameResult("b", reason="no_show"), GameResult("a"), GameResult("a", reason="penalty")]
    resolution = resolve_match(games, best_of=3)
    assert resolution.result == "a"
    assert [x.reason for x in resolution.games] == ["no_show", "played", "penalty"]


@pytest.mark.parametrize("payload", [None, "a", [1], [{"x": 1}], [{"outcome": "a", "prizes": 9}]])
def test_bad_payloads(payload):
    with pytest.raises(RulesError):
        games_from_payload(payload)
