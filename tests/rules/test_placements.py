"""`rules.placements`: the final order of a pod from its Swiss order and its top cut."""

import pytest

from rules.errors import RulesError
from rules.placements import CutMatch, final_order, reached

SWISS = ["s1", "s2", "s3", "s4", "s5", "s6"]


def test_without_a_cut_the_final_order_is_the_swiss_order():
    assert final_order(SWISS, []) == SWISS


def test_top_four_by_how_far_each_player_got_then_swiss_order():
    semis = [CutMatch("s1", "s4", winner="s4"), CutMatch("s2", "s3", winner="s2")]
    final = [CutMatch("s4", "s2", winner="s2")]
    # The champion, the finalist, the semi-finalists by Swiss place, then the rest.
    assert final_order(SWISS, [semis, final]) == ["s2", "s4", "s1", "s3", "s5", "s6"]
    assert reached([semis, final]) == {"s1": "Top 4", "s3": "Top 4", "s4": "Final", "s2": "Winner"}


def test_an_undecided_final_lists_both_finalists_by_swiss_place():
    semis = [CutMatch("s1", "s4", winner="s4"), CutMatch("s2", "s3", winner="s3")]
    final = [CutMatch("s4", "s3")]
    assert final_order(SWISS, [semis, final])[:2] == ["s3", "s4"]
    assert reached([semis, final])["s3"] == "Final"


def test_a_player_who_got_no_seed_is_first_below_the_cut():
    """ "A player who drops after the last Swiss round gets no top-cut seed and is listed first
    below the cut" (the TOM exports' README): s2 dropped, s3 took the seed."""
    final = [CutMatch("s1", "s3", winner="s3")]
    assert final_order(SWISS, [final]) == ["s3", "s1", "s2", "s4", "s5", "s6"]


def test_bad_input_is_refused():
    with pytest.raises(RulesError):
        final_order(["a", "a"], [])
    with pytest.raises(RulesError):
        final_order(["a", "b"], [[CutMatch("a", "b", winner="c")]])
