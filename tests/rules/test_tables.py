"""Table numbers (`rules.swiss.assign_tables`): fixed seats kept, feature tables reserved for
chosen matches; and what a pairing made by hand needs confirmed (`pairing_warnings`)."""

from hypothesis import given
from hypothesis import strategies as st

from rules.swiss import PairingPlayer, assign_tables, pairing_warnings


def test_without_fixed_seats_tables_run_from_one_in_order():
    tables, missed = assign_tables([("a", "b"), ("c", "d"), ("e", None)])
    assert tables == [1, 2, 3] and missed == []


def test_a_fixed_seat_keeps_its_table_and_the_others_fill_around_it():
    # "a player in a wheelchair who needs the same table every round" (issue 29)
    pairs = [("a", "b"), ("c", "d"), ("e", "f"), ("g", None)]
    tables, missed = assign_tables(pairs, fixed={"f": 1, "g": 9})
    assert tables == [2, 3, 1, 9] and missed == []


def test_two_fixed_players_who_meet_sit_at_the_first_ones_table():
    tables, missed = assign_tables([("a", "b"), ("c", "d")], fixed={"b": 4, "a": 3})
    assert tables == [3, 1] and missed == ["b"]


def test_a_table_claimed_twice_goes_to_the_first_match():
    tables, missed = assign_tables([("a", "b"), ("c", "d")], fixed={"a": 2, "c": 2})
    assert tables == [2, 1] and missed == ["c"]


def test_feature_tables_hold_only_the_chosen_matches():
    pairs = [("a", "b"), ("c", "d"), ("e", "f")]
    tables, _ = assign_tables(pairs, featured={"d"}, feature_tables=[1, 2])
    assert tables == [3, 1, 4]  # 2 stays empty: no other match sits at a feature table


@given(st.integers(min_value=1, max_value=60), st.randoms(use_true_random=False))
def test_tables_are_distinct_and_every_kept_fixed_seat_is_honoured(n, rnd):
    ids = [str(i) for i in range(2 * n)]
    pairs = [(ids[2 * i], ids[2 * i + 1]) for i in range(n)]
    fixed = {p: rnd.randint(1, 2 * n) for p in rnd.sample(ids, rnd.randint(0, min(n, 8)))}
    feature = sorted(rnd.sample(range(1, 3 * n + 3), rnd.randint(0, 3)))
    featured = set(rnd.sample(ids, rnd.randint(0, 2)))
    tables, missed = assign_tables(pairs, fixed=fixed, featured=featured, feature_tables=feature)
    assert len(tables) == n and len(set(tables)) == n and min(tables) >= 1
    for (a, b), table in zip(pairs, tables, strict=True):
        for p in (a, b):
            if p in fixed:
                assert fixed[p] == table or p in missed
        if table in feature and table not in fixed.values():
            assert a in featured or b in featured
    # A fixed table is lost only to another match that claims it first, or to the fixed
    # table of the opponent.
    for (a, b), table in zip(pairs, tables, strict=True):
        for p, other in ((a, b), (b, a)):
            if p in missed:
                assert fixed[p] in tables or fixed.get(other) == table


def test_pairing_warnings_name_a_rematch_score_groups_and_a_second_bye():
    a = PairingPlayer("a", 6, opponents=("b",), had_bye=True)
    b = PairingPlayer("b", 3)
    c = PairingPlayer("c", 6)
    assert pairing_warnings(a, b) == ("rematch", "score-groups")
    assert pairing_warnings(b, a) == ("rematch", "score-groups")  # read both ways
    assert pairing_warnings(a, c) == ()
    assert pairing_warnings(a, None) == ("second-bye",)
    assert pairing_warnings(c, None) == ()
