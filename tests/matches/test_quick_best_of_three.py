"""The best-of-3 quick buttons: whoever taps, the two reports of one match list the same
games in the same order, so they agree; each resolves to the result its label says."""

import pytest

from matches.forms import BestOfThreeQuickForm
from rules.results import GameResult, resolve_match

MIRROR = {
    "won_2_0": "lost_0_2",
    "won_2_1": "lost_1_2",
    "tie_1_1": "tie_1_1",
    "won_sudden_death": "lost_sudden_death",
}
EXPECTED = {  # (result for side a, a's game wins, b's)
    "won_2_0": ("a", 2, 0),
    "won_2_1": ("a", 2, 1),
    "tie_1_1": ("tie", 1, 1),
    "won_sudden_death": ("a", 2, 1),
}


def payload(outcome: str, side: str) -> dict:
    form = BestOfThreeQuickForm({"outcome": outcome})
    assert form.is_valid(), form.errors
    return form.payload(side, sudden_death_prizes=1)


@pytest.mark.parametrize("outcome", sorted(MIRROR))
def test_both_players_taps_agree_and_resolve_as_labelled(outcome):
    mine, theirs = payload(outcome, "a"), payload(MIRROR[outcome], "b")
    assert mine == theirs
    games = [GameResult(g["outcome"], g["reason"], g.get("prizes")) for g in mine["games"]]
    top_cut = "sudden_death" in outcome
    resolved = resolve_match(
        games, best_of=3, top_cut=top_cut, at_time=mine["at_time"], sudden_death_prizes=1
    )
    assert (resolved.result, resolved.a_wins, resolved.b_wins) == EXPECTED[outcome]
    if top_cut:  # the settling game is played with the event's sudden-death Prize count
        assert resolved.games[-1].prizes == 1
