"""Standings and tiebreakers (the TOM data has its own file, test_tom_exports.py)."""

import json
import math
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.scoring import PLAY_POKEMON, RuleSet
from rules.standings import MatchRecord, Standing, compute_standings

ROOT = Path(__file__).resolve().parents[2]


def M(rnd, a, b, result, earned=False):
    return MatchRecord(rnd, a, b, result, earned)


def by_id(standings):
    return {s.id: s for s in standings}


# -- a straightforward reference implementation of the module docstring -------------------------


def reference(
    players, matches, dropped=None, late=None, rules=PLAY_POKEMON, through=None, swiss=None
):
    """Exact fractions, computed per definition, recursively 'as of' a round."""
    dropped = dict(dropped or {})
    late = dict(late or {})
    last = through
    if last is None:
        last = max([m.round for m in matches] + list(dropped.values()) + list(late.values()) + [0])
    matches = [m for m in matches if m.round <= last]
    for pid, lr in late.items():
        have = {m.round for m in matches if m.a == pid or m.b == pid}
        matches += [M(r, pid, None, "b") for r in range(1, min(lr, last) + 1) if r not in have]
    drop = {p: d for p, d in dropped.items() if d <= last}
    last_swiss = last if swiss is None else swiss
    tie = Fraction(str(rules.tie_counts_as))
    floor = Fraction(str(rules.owp_floor))
    cap = Fraction(str(rules.dropped_cap))

    def as_of(p, r):
        return min(r, drop[p]) if p in drop else r

    def games(p, r):
        return [m for m in matches if m.round <= r and p in (m.a, m.b)]

    def opponents(p, r):
        return [m.b if m.a == p else m.a for m in games(p, r) if m.b is not None]

    def win_rate(p, r):
        r = as_of(p, r)
        won = played = Fraction(0)
        for m in games(p, r):
            if m.b is None:
                if m.result == "b" and rules.late_loss_counts_as_played:
                    played += 1
                if m.result == "a" and m.earned and rules.earned_bye_is_win:
                    won += 1
                    played += 1
                continue
            played += 1
            if m.result == "tie":
                won += tie
            elif m.result == "double_loss":
                pass
            elif (m.result == "a") == (m.a == p):
                won += 1
        value = max(won / played if played else Fraction(0), floor)
        if p in drop and drop[p] <= r and drop[p] < last_swiss:
            value = min(value, cap)
        return value

    def earned_byes(p, r):
        if not rules.earned_bye_is_win:
            return 0
        return sum(1 for m in games(p, r) if m.b is None and m.result == "a" and m.earned)

    def owp(p, r):
        r = as_of(p, r)
        rates = [win_rate(o, r) for o in opponents(p, r)] + [Fraction(1)] * earned_byes(p, r)
        return sum(rates, Fraction(0)) / len(rates) if rates else Fraction(0)

    def oowp(p, r):
        r = as_of(p, r)
        opps = opponents(p, r)
        return sum((owp(o, r) for o in opps), Fraction(0)) / len(opps) if opps else Fraction(0)

    out = {}
    for p in players:
        w = lo = t = 0
        for m in games(p, last):
            if m.result == "tie":
                t += 1
            elif m.result == "double_loss":
                lo += 1
            elif (m.result == "a") == (m.a == p):
                w += 1
            else:
                lo += 1
        points = w * rules.win_points + t * rules.tie_points + lo * rules.loss_points
        out[p] = (points, (w, lo, t), owp(p, last), oowp(p, last))
    return out


def rounded(value, rules=PLAY_POKEMON):
    if rules.tiebreak_decimals is None:
        return float(value)
    scaled = value * 10**rules.tiebreak_decimals
    if rules.tiebreak_rounding == "floor":
        units = math.floor(scaled)
    elif rules.tiebreak_rounding == "half_up":
        units = math.floor(scaled + Fraction(1, 2))
    else:
        units = round(scaled)  # Fraction rounds half to even
    return units / 10**rules.tiebreak_decimals


def assert_matches_reference(standings, ref, rules=PLAY_POKEMON):
    got = by_id(standings)
    assert set(got) == set(ref)
    for pid, (points, (w, lo, t), owp, oowp) in ref.items():
        s = got[pid]
        assert (s.points, s.wins, s.losses, s.ties) == (points, w, lo, t), pid
        assert s.owp == pytest.approx(rounded(owp, rules), abs=1e-12), pid
        assert s.oowp == pytest.approx(rounded(oowp, rules), abs=1e-12), pid
    keys = [(s.points, s.owp, s.oowp) for s in standings]
    assert keys == sorted(keys, reverse=True)
    assert [s.rank for s in standings] == list(range(1, len(standings) + 1))


# -- hand-checked examples --------------------------------------------------------------------


def test_points_records_and_win_rates():
    players = ["ann", "bob", "cat", "dan"]
    matches = [
        M(1, "ann", "bob", "a"),
        M(1, "cat", "dan", "tie"),
        M(2, "ann", "cat", "a"),
        M(2, "bob", "dan", "b"),
        M(3, "ann", "dan", "tie"),
        M(3, "bob", "cat", "a"),
    ]
    s = by_id(compute_standings(players, matches))
    assert (s["ann"].points, s["ann"].record) == (7, "2-0-1")
    assert (s["dan"].points, s["dan"].record) == (5, "1-0-2")
    assert (s["bob"].points, s["bob"].record) == (3, "1-2-0")
    assert (s["cat"].points, s["cat"].record) == (1, "0-2-1")
    # ann's opponents: bob 1/3, cat (0.5)/3 -> floor 0.25, dan (1 + 1)/3 = 2/3
    exact = (Fraction(1, 3) + Fraction(1, 4) + Fraction(2, 3)) / 3  # 0.4166...
    assert s["ann"].owp == float(exact)
    rounded_rules = RuleSet(tiebreak_decimals=2)
    assert by_id(compute_standings(players, matches, rules=rounded_rules))["ann"].owp == 0.42
    assert isinstance(s["ann"], Standing)


def test_a_tie_is_half_a_win_in_the_win_rate():
    # "x" goes 2-1-1 (62.5 %) and is "y"'s only opponent.
    matches = [
        M(1, "x", "a", "a"),
        M(2, "x", "b", "a"),
        M(3, "x", "c", "b"),
        M(4, "x", "y", "tie"),
    ]
    players = ["x", "y", "a", "b", "c"]
    exact = RuleSet(tiebreak_decimals=None)
    assert by_id(compute_standings(players, matches, rules=exact))["y"].owp == 0.625
    assert by_id(compute_standings(players, matches))["y"].owp == 0.625  # TOM: exact
    even = RuleSet(tiebreak_decimals=2)
    assert by_id(compute_standings(players, matches, rules=even))["y"].owp == 0.62
    up = RuleSet(tiebreak_decimals=2, tiebreak_rounding="half_up")
    assert by_id(compute_standings(players, matches, rules=up))["y"].owp == 0.63
    nothing = RuleSet(tie_counts_as=0.0, tiebreak_decimals=None)
    assert by_id(compute_standings(players, matches, rules=nothing))["y"].owp == 0.5


def test_byes_score_but_do_not_enter_win_rates():
    players = ["a", "b", "c"]
    matches = [M(1, "a", None, "a"), M(1, "b", "c", "a"), M(2, "a", "b", "b"), M(2, "c", None, "a")]
    s = by_id(compute_standings(players, matches, rules=RuleSet(tiebreak_decimals=None)))
    assert (s["a"].points, s["a"].record) == (3, "1-1-0")
    assert (s["b"].points, s["b"].record) == (6, "2-0-0")
    # a's win rate ignores the bye: 0 / 1 -> floor 25 %; b's only other opponent c: 0/1 -> 25 %
    assert s["b"].owp == 0.25
    # c's opponent b: 2/2
    assert s["c"].owp == 1.0
    # a's opponent b: 1.0
    assert s["a"].owp == 1.0


def test_an_earned_bye_is_a_won_round_and_a_perfect_opponent():
    """The TOM data's README: "an earned bye counts as a won round in the holder's own win
    rate and, in the holder's OWP, as an opponent at 100%"."""
    players = ["a", "b", "c"]
    plain = [M(1, "a", None, "a"), M(1, "b", "c", "a"), M(2, "a", "b", "a"), M(2, "c", None, "a")]
    earned = [M(1, "a", None, "a", earned=True), *plain[1:]]
    s, e = by_id(compute_standings(players, plain)), by_id(compute_standings(players, earned))
    assert (e["a"].points, e["a"].record) == (s["a"].points, s["a"].record) == (6, "2-0-0")
    # a's OWP: b (1 win in 2) alone after a plain bye; b and the earned bye's 100 % after one
    assert s["a"].owp == 0.5
    assert e["a"].owp == (0.5 + 1) / 2
    # b's OWP: c (0/1 -> floor 25 %) and a: 1/1 after a plain bye, 2/2 after an earned one
    assert s["b"].owp == e["b"].owp == (0.25 + 1) / 2
    # c met only b: 1/2 either way. The OOWP uses real opponents only.
    assert e["c"].owp == 0.5 and e["c"].oowp == e["b"].owp
    # The old reading, an earned bye scored like any bye, is a rule set away.
    like_a_bye = RuleSet(earned_bye_is_win=False)
    assert compute_standings(players, earned, rules=like_a_bye) == compute_standings(players, plain)


def test_an_earned_bye_raises_the_holders_own_win_rate():
    players = ["a", "b", "c", "d"]
    matches = [
        M(1, "a", None, "a", earned=True),
        M(1, "b", "c", "a"),
        M(2, "a", "b", "b"),
        M(2, "c", "d", "a"),
    ]
    s = by_id(compute_standings(players, matches, late={"d": 1}))
    # b's opponents: c (1/2) and a, who won the earned bye and lost to b: 1 win in 2 rounds
    assert s["b"].owp == (0.5 + 0.5) / 2


def test_a_double_loss_is_a_loss_for_both_and_they_are_opponents():
    players = ["a", "b", "c", "d"]
    matches = [
        M(1, "a", "b", "double_loss"),
        M(1, "c", "d", "a"),
        M(2, "a", "c", "a"),
        M(2, "b", "d", "a"),
    ]
    s = by_id(compute_standings(players, matches))
    assert (s["a"].record, s["a"].points) == ("1-1-0", 3)
    assert (s["b"].record, s["b"].points) == ("1-1-0", 3)
    # a's opponents: b (1 win in 2) and c (1 win in 2)
    assert s["a"].owp == 0.5
    # d's opponents: c (1/2) and b (1/2)
    assert s["d"].owp == 0.5
    with pytest.raises(RulesError):
        compute_standings(players, [M(1, "a", None, "double_loss")])


def test_the_cap_applies_only_to_drops_before_the_last_swiss_round():
    """The TOM data's README: "a player who drops before the last Swiss round has their own
    win rate capped at 75%; one who drops after it is not"."""
    players = ["d", "x", "y", "z"]
    matches = [
        M(1, "d", "x", "a"),
        M(1, "y", "z", "a"),
        M(2, "d", "y", "a"),
        M(2, "x", "z", "a"),
    ]
    after = by_id(compute_standings(players, matches, dropped={"d": 2}))
    assert after["d"].dropped and after["x"].owp == (1 + 0.25) / 2
    before = by_id(compute_standings(players, matches, dropped={"d": 2}, swiss_rounds=3))
    assert before["x"].owp == (0.75 + 0.25) / 2


def test_late_entrant_forced_losses():
    players = ["a", "b", "c", "late"]
    matches = [
        M(1, "a", "b", "a"),
        M(1, "c", None, "a"),
        M(2, "late", "a", "a"),
        M(2, "b", "c", "a"),
    ]
    got = by_id(
        compute_standings(players, matches, late={"late": 1}, rules=RuleSet(tiebreak_decimals=None))
    )
    assert got["late"].record == "1-1-0"
    assert got["late"].points == 3
    # a met b (1 win in 2) and "late", whose forced loss is a round played: 1 win in 2
    assert got["a"].owp == 0.5
    explicit = [*matches, M(1, "late", None, "b")]
    assert compute_standings(players, explicit, late={"late": 1}) == compute_standings(
        players, matches, late={"late": 1}
    )
    not_played = RuleSet(late_loss_counts_as_played=False, tiebreak_decimals=None)
    got = by_id(compute_standings(players, matches, late={"late": 1}, rules=not_played))
    assert got["a"].owp == 0.75  # "late" is 1 win in 1 round played


def test_dropped_players_are_frozen_and_capped():
    players = ["d", "x", "y", "z"]
    matches = [
        M(1, "d", "x", "a"),
        M(1, "y", "z", "a"),
        M(2, "d", "y", "a"),
        M(2, "x", "z", "a"),
        # d drops after round 2 (2-0): its win rate is capped at 75 %
        M(3, "x", "y", "a"),
        M(3, "z", None, "a"),
    ]
    exact = RuleSet(tiebreak_decimals=None)
    s = by_id(compute_standings(players, matches, dropped={"d": 2}, rules=exact))
    assert s["d"].dropped and not s["x"].dropped
    # x played d (capped 0.75), z (0/2 -> 0.25), y (1/3 -> 0.33..)
    assert s["x"].owp == pytest.approx((Fraction(3, 4) + Fraction(1, 4) + Fraction(1, 3)) / 3)
    # d's OWP is frozen after round 2: x was 1/2, y was 1/2 then
    assert s["d"].owp == 0.5
    # without the drop, d's OWP would use the final records: x 2/3, y 1/3
    s2 = by_id(compute_standings(players, matches, rules=exact))
    assert s2["d"].owp == pytest.approx(0.5)
    assert s2["x"].owp == pytest.approx((1 + Fraction(1, 4) + Fraction(1, 3)) / 3)


def test_head_to_head_breaks_a_two_way_tie():
    # a and b both go 2-1 with identical OWP and OOWP; b beat a in round 3.
    players = ["a", "b", "c", "d"]
    matches = [
        M(1, "d", "b", "a"),
        M(1, "a", "c", "a"),
        M(2, "a", "d", "a"),
        M(2, "b", "c", "a"),
        M(3, "d", "c", "b"),
        M(3, "b", "a", "a"),
    ]
    for seed in range(20):
        standings = compute_standings(players, matches, seed=seed)
        keys = {s.id: (s.points, s.owp, s.oowp) for s in standings}
        assert keys["a"] == keys["b"]
        assert (keys["a"][0], round(keys["a"][1], 2), round(keys["a"][2], 2)) == (6, 0.44, 0.52)
        assert [s.id for s in standings][:2] == ["b", "a"]


def test_head_to_head_is_ignored_for_larger_ties():
    # Everyone 1-1 at 50 %: a four-way tie, so the lottery decides even though p beat q.
    players = ["p", "q", "r", "s"]
    matches = [M(1, "p", "q", "a"), M(1, "r", "s", "a"), M(2, "q", "r", "a"), M(2, "s", "p", "a")]
    orders = {
        tuple(s.id for s in compute_standings(players, matches, seed=seed)) for seed in range(30)
    }
    assert any(order.index("q") < order.index("p") for order in orders)


def test_exact_ties_are_broken_by_the_seed():
    players = [f"p{k}" for k in range(8)]
    orders = {tuple(s.id for s in compute_standings(players, [], seed=seed)) for seed in range(10)}
    assert len(orders) > 1
    assert compute_standings(players, [], seed="x") == compute_standings(players, [], seed="x")
    assert compute_standings(players, [], seed="x") == compute_standings(
        list(reversed(players)), [], seed="x"
    )


def test_through_round_replays_the_past():
    players = ["a", "b", "c", "d"]
    matches = [M(1, "a", "b", "a"), M(1, "c", "d", "a"), M(2, "a", "c", "a"), M(2, "b", "d", "a")]
    early = by_id(compute_standings(players, matches, through_round=1, dropped={"d": 2}))
    assert early["a"].record == "1-0-0" and not early["d"].dropped
    assert by_id(compute_standings(players, matches, dropped={"d": 2}))["d"].dropped


@pytest.mark.parametrize(
    ("players", "matches", "kwargs", "code"),
    [
        (["a", "a"], [], {}, "duplicate-player"),
        (["a", ""], [], {}, "bad-player-id"),
        (["a"], [M(1, "a", "zz", "a")], {}, "unknown-player"),
        (["a", "b"], [M(1, "a", "b", "win")], {}, "bad-result"),
        (["a", "b"], [M(1, "a", None, "tie")], {}, "bad-result"),
        (["a", "b"], [M(1, "a", "b", "a"), M(1, "a", None, "a")], {}, "duplicate-match"),
        (["a", "b"], [M(2, "a", "b", "a")], {"dropped": {"a": 1}}, "match-after-drop"),
        (["a", "b"], [M(0, "a", "b", "a")], {}, "bad-input"),
        (["a", "b"], [M(1, "a", "a", "a")], {}, "bad-input"),
        (["a", "b"], [], {"dropped": {"zz": 1}}, "unknown-player"),
        (["a", "b"], ["not a match"], {}, "bad-input"),
    ],
)
def test_bad_input_raises_rules_error(players, matches, kwargs, code):
    with pytest.raises(RulesError) as info:
        compute_standings(players, matches, **kwargs)
    assert info.value.code == code


# -- property tests against the reference -----------------------------------------------------


@st.composite
def tournaments(draw):
    n = draw(st.integers(min_value=2, max_value=9))
    players = [f"p{k}" for k in range(n)]
    rounds = draw(st.integers(min_value=1, max_value=5))
    rng = random.Random(draw(st.integers(min_value=0, max_value=10**6)))
    late = {p: 1 for p in players if rng.random() < 0.1}
    dropped: dict[str, int] = {}
    matches = []
    for rnd in range(1, rounds + 1):
        present = [p for p in players if p not in dropped and not (p in late and rnd <= late[p])]
        rng.shuffle(present)
        if len(present) % 2:
            bye = present.pop()
            matches.append(M(rnd, bye, None, "a", earned=rnd == 1 and rng.random() < 0.3))
        for a, b in zip(present[::2], present[1::2], strict=True):
            matches.append(M(rnd, a, b, rng.choice(["a", "b", "a", "b", "tie", "double_loss"])))
        for p in present:
            if rnd < rounds and rng.random() < 0.15:
                dropped[p] = rnd
    rules = draw(
        st.sampled_from(
            [
                PLAY_POKEMON,
                RuleSet(tiebreak_decimals=2),
                RuleSet(tiebreak_decimals=2, tiebreak_rounding="floor"),
                RuleSet(earned_bye_is_win=False),
                RuleSet(tie_counts_as=0.0, tiebreak_decimals=None),
                RuleSet(tie_counts_as=0.3, owp_floor=0.2, dropped_cap=0.8, tiebreak_decimals=4),
                RuleSet(
                    late_loss_counts_as_played=False,
                    tiebreak_decimals=2,
                    tiebreak_rounding="half_up",
                ),
            ]
        )
    )
    return players, matches, dropped, late, rules


@settings(max_examples=120, deadline=None)
@given(tournaments(), st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=2))
def test_matches_the_reference_implementation(tournament, seed, more_rounds):
    players, matches, dropped, late, rules = tournament
    last = max([m.round for m in matches] + list(dropped.values()) + list(late.values()) + [0])
    swiss = last + more_rounds  # the event may have Swiss rounds still to play
    standings = compute_standings(
        players, matches, dropped=dropped, late=late, rules=rules, seed=seed, swiss_rounds=swiss
    )
    ref = reference(players, matches, dropped, late, rules, swiss=swiss)
    assert_matches_reference(standings, ref, rules)
    assert {s.id for s in standings if s.dropped} == set(dropped)


@settings(max_examples=40, deadline=None)
@given(tournaments(), st.integers(min_value=1, max_value=5))
def test_through_round_matches_the_reference(tournament, through):
    players, matches, dropped, late, rules = tournament
    standings = compute_standings(
        players, matches, dropped=dropped, late=late, rules=rules, through_round=through
    )
    ref = reference(players, matches, dropped, late, rules, through=through)
    assert_matches_reference(standings, ref, rules)


@settings(max_examples=30, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_input_order_does_not_matter(tournament, rng):
    players, matches, dropped, late, _ = tournament
    shuffled_players, shuffled_matches = list(players), list(matches)
    rng.shuffle(shuffled_players)
    rng.shuffle(shuffled_matches)
    assert compute_standings(players, matches, dropped=dropped, late=late) == compute_standings(
        shuffled_players, shuffled_matches, dropped=dropped, late=late
    )


# -- speed ------------------------------------------------------------------------------------


def big_event(n=4096, rounds=9, seed=1):
    rng = random.Random(seed)
    ids = [f"p{k:05d}" for k in range(n)]
    points = dict.fromkeys(ids, 0)
    dropped: dict[str, int] = {}
    matches = []
    for rnd in range(1, rounds + 1):
        active = sorted(
            (p for p in ids if p not in dropped), key=lambda p: (-points[p], rng.random())
        )
        if len(active) % 2:
            bye = active.pop()
            matches.append(M(rnd, bye, None, "a"))
            points[bye] += 3
        for a, b in zip(active[::2], active[1::2], strict=True):
            x = rng.random()
            result = "tie" if x < 0.04 else "a" if x < 0.52 else "b"
            matches.append(M(rnd, a, b, result))
            if result == "tie":
                points[a] += 1
                points[b] += 1
            else:
                points[a if result == "a" else b] += 3
        for p in active:
            if rnd < rounds and rng.random() < 0.01:
                dropped[p] = rnd
    return ids, matches, dropped


def test_4096_players_after_9_rounds_are_ordered_by_points():
    # Speed is measured in benchmarks/bench_swiss.py, not here.
    ids, matches, dropped = big_event()
    standings = compute_standings(ids, matches, dropped=dropped)
    assert len(standings) == 4096
    assert [s.points for s in standings] == sorted((s.points for s in standings), reverse=True)
    assert [s.rank for s in standings] == list(range(1, 4097))


# -- command line -----------------------------------------------------------------------------


def run_cli(payload: str):
    return subprocess.run(
        [sys.executable, "-m", "rules.standings"],
        input=payload,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_prints_standings():
    request = {
        "players": ["a", "b", "c", "d"],
        "matches": [
            {"round": 1, "a": "a", "b": "b", "result": "a"},
            {"round": 1, "a": "c", "b": "d", "result": "tie"},
            {"round": 2, "a": "a", "b": "c", "result": "a"},
            {"round": 2, "a": "b", "b": None, "result": "a", "earned": False},
        ],
        "dropped": ["d"],
        "drop_round": {"d": 1},
        "late": {},
    }
    out = run_cli(json.dumps(request))
    assert out.returncode == 0, out.stderr
    standings = json.loads(out.stdout)["standings"]
    first = standings[0]
    assert set(first) >= {"id", "rank", "points", "record", "owp", "oowp"}
    assert (first["rank"], first["points"], first["record"]) == (1, 6, "2-0-0")
    expected = compute_standings(
        ["a", "b", "c", "d"],
        [MatchRecord(**m) for m in request["matches"]],
        dropped={"d": 1},
    )
    assert [row["id"] for row in standings] == [s.id for s in expected]


@pytest.mark.parametrize(
    "payload",
    [
        "{not json",
        json.dumps({"players": "abc"}),
        json.dumps(
            {"players": ["a"], "matches": [{"round": 1, "a": "zz", "b": None, "result": "a"}]}
        ),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(payload):
    out = run_cli(payload)
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1
    assert out.stderr.startswith("error: ")
