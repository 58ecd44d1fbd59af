"""A finished player (issue 31): a two-day event's day-1 finisher, below the day-2 cut,
"finishes with their day-1 standing". `rules.standings` freezes them at their last round as
it freezes a drop, but the 75 % cap on a win rate is for players who chose to leave: a
finisher's is never capped, and the standings do not mark them dropped."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from rules.errors import RulesError
from rules.standings import MatchRecord, compute_standings

# F beats O in round 1 and finishes (100 % after one round); O plays on.
MATCHES = [
    MatchRecord(1, "F", "O", "a"),
    MatchRecord(1, "X", "Y", "a"),
    MatchRecord(2, "O", "Y", "a"),
    MatchRecord(2, "X", None, "a"),
    MatchRecord(3, "O", "X", "tie"),
    MatchRecord(3, "Y", None, "a"),
]
PLAYERS = ["F", "O", "X", "Y"]


def by_id(**kwargs):
    return {s.id: s for s in compute_standings(PLAYERS, MATCHES, swiss_rounds=3, **kwargs)}


def test_the_rule_is_written_beside_the_drop():
    import rules.standings

    assert "a finisher's win rate is never capped" in rules.standings.__doc__


def test_a_finisher_is_frozen_as_a_drop_but_never_capped():
    dropped, finished = by_id(dropped={"F": 1}), by_id(finished={"F": 1})
    # O's opponents: F (100 %, capped at 75 % only for a drop), Y (0 % → the 25 % floor) and
    # X (2 wins and a tie over 2 rounds played: 1 win + 1 tie = 75 %).
    x_rate = Fraction(3, 4)
    assert dropped["O"].owp == pytest.approx(float((Fraction(3, 4) + Fraction(1, 4) + x_rate) / 3))
    assert finished["O"].owp == pytest.approx(float((1 + Fraction(1, 4) + x_rate) / 3))
    # F's own tiebreakers are frozen after round 1 either way: O was 0-1 then (the floor).
    assert finished["F"].owp == dropped["F"].owp == 0.25
    # F's OOWP is O's OWP after round 1: F's own win rate, capped only for the drop.
    assert (finished["F"].oowp, dropped["F"].oowp) == (1.0, 0.75)
    assert finished["F"].record == dropped["F"].record == "1-0-0"
    assert dropped["F"].dropped and not finished["F"].dropped


def test_a_player_both_dropped_and_finished_counts_as_dropped():
    both = by_id(dropped={"F": 1}, finished={"F": 1})
    assert both["F"].dropped and both["O"].owp == by_id(dropped={"F": 1})["O"].owp


def test_a_finish_after_the_round_shown_is_not_yet_a_finish():
    through_1 = {
        s.id: s for s in compute_standings(PLAYERS, MATCHES, finished={"F": 2}, through_round=1)
    }
    assert not through_1["F"].dropped


def test_unknown_finished_players_are_refused():
    with pytest.raises(RulesError, match="finished names unknown player"):
        by_id(finished={"Z": 1})


def test_the_command_line_takes_finished_players():
    request = {
        "players": PLAYERS,
        "matches": [{"round": m.round, "a": m.a, "b": m.b, "result": m.result} for m in MATCHES],
        "finished": {"F": 1},
        "swiss_rounds": 3,
    }
    out = subprocess.run(
        [sys.executable, "-m", "rules.standings"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = {row["id"]: row for row in json.loads(out)["standings"]}
    assert rows["F"]["dropped"] is False
    assert rows["O"]["owp"] == pytest.approx(by_id(finished={"F": 1})["O"].owp)
