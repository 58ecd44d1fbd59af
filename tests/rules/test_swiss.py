"""Swiss pairings: exhaustive comparisons on small fields, properties, scale and the CLI."""

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import matching
from rules.errors import RulesError
from rules.swiss import (
    PairingPlayer,
    PairingResult,
    minimum_point_difference,
    pair_round,
    pair_round_with_report,
)

ROOT = Path(__file__).resolve().parents[2]


# -- exhaustive reference ---------------------------------------------------------------------


def perfect_matchings(nodes):
    if not nodes:
        yield []
        return
    first = nodes[0]
    for k in range(1, len(nodes)):
        rest = nodes[1:k] + nodes[k + 1 :]
        for m in perfect_matchings(rest):
            yield [(first, nodes[k]), *m]


def bye_candidates(players):
    active = [p for p in players if not p.dropped]
    if len(active) % 2 == 0:
        return [None]
    fresh = [p for p in active if not p.had_bye]
    pool = fresh or active
    lowest = min(p.points for p in pool)
    return [p.id for p in pool if p.points == lowest]


def exhaustive_optimum(players):
    """min over every legal bye and every perfect matching of (rematches, point difference)."""
    active = {p.id: p for p in players if not p.dropped}
    met = set()
    for p in active.values():
        for o in p.opponents:
            if o in active and o != p.id:
                met.add(frozenset((p.id, o)))
    best = None
    for bye in bye_candidates(players):
        rest = sorted(i for i in active if i != bye)
        for m in perfect_matchings(rest):
            key = (
                sum(frozenset(pair) in met for pair in m),
                sum(abs(active[a].points - active[b].points) for a, b in m),
            )
            if best is None or key < best:
                best = key
    return best


def check_legal(players, result: PairingResult):
    active = {p.id for p in players if not p.dropped}
    seen = [pid for pair in result.pairings for pid in pair]
    if result.bye is not None:
        seen.append(result.bye)
    assert sorted(seen) == sorted(active), "every active player exactly once"
    assert result.bye in bye_candidates(players)
    points = {p.id: p.points for p in players}
    for a, b in result.pairings:
        assert a != b
        assert points[a] >= points[b]
    met = {frozenset((p.id, o)) for p in players for o in p.opponents}
    assert result.rematches == sum(frozenset(pair) in met for pair in result.pairings)
    assert result.point_difference == sum(points[a] - points[b] for a, b in result.pairings)
    assert result.pair_downs == sum(points[a] != points[b] for a, b in result.pairings)


@st.composite
def small_fields(draw, max_players=10):
    n = draw(st.integers(min_value=0, max_value=max_players))
    ids = [f"p{k}" for k in range(n)]
    point_values = draw(
        st.sampled_from([[0], [0, 3], [0, 1, 3, 4, 6], [0, 3, 6, 9, 12], [0, 2, 3, 7, 9]])
    )
    density = draw(st.sampled_from([0.0, 0.15, 0.4, 0.7, 1.0]))
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    opponents = {pid: set() for pid in ids}
    for a, b in itertools.combinations(ids, 2):
        if rng.random() < density:
            # sometimes only one side lists the match
            opponents[a].add(b)
            if rng.random() < 0.9:
                opponents[b].add(a)
    players = [
        PairingPlayer(
            id=pid,
            points=rng.choice(point_values),
            opponents=tuple(sorted(opponents[pid])) + (("ghost",) if rng.random() < 0.1 else ()),
            had_bye=rng.random() < 0.3,
            dropped=rng.random() < 0.1,
            late=rng.random() < 0.15,
        )
        for pid in ids
    ]
    rng.shuffle(players)
    return players


@settings(max_examples=200, deadline=None)
@given(small_fields(), st.integers(min_value=1, max_value=9), st.integers(0, 10**6))
def test_optimal_against_exhaustive_search(players, round_number, seed):
    result, report = pair_round_with_report(round_number, players, seed)
    check_legal(players, result)
    assert (result.rematches, result.point_difference) == exhaustive_optimum(players)
    assert report.certified
    assert report.lower_bound <= result.point_difference


@settings(max_examples=60, deadline=None)
@given(small_fields(max_players=12), st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_same_seed_same_pairings_whatever_the_input_order(players, seed, rng):
    first = pair_round(3, players, seed)
    shuffled = list(players)
    rng.shuffle(shuffled)
    assert pair_round(3, shuffled, seed) == first
    assert pair_round(3, tuple(players), str(seed)) == pair_round(3, players, str(seed))


@settings(max_examples=60, deadline=None)
@given(small_fields(max_players=12), st.integers(0, 10**6))
def test_dropped_players_are_never_paired(players, seed):
    result = pair_round(2, players, seed)
    dropped = {p.id for p in players if p.dropped}
    paired = {pid for pair in result.pairings for pid in pair} | {result.bye}
    assert not dropped & paired


# -- specific rules ---------------------------------------------------------------------------


def field(n, points=0):
    return [PairingPlayer(f"p{k:02d}", points) for k in range(n)]


def test_round_one_is_random_and_seeded():
    players = field(16)
    a = pair_round(1, players, 42)
    assert a == pair_round(1, players, 42)
    assert a.rematches == a.point_difference == a.pair_downs == 0 and a.bye is None
    assert len({pair_round(1, players, seed).pairings for seed in range(10)}) == 10
    # the round number is part of the seed
    assert pair_round(2, players, 42).pairings != a.pairings


def test_empty_and_single_player():
    assert pair_round(1, [], 0) == PairingResult((), None, 0, 0, 0)
    assert pair_round(1, [PairingPlayer("solo", 0)], 0).bye == "solo"
    assert pair_round(1, [PairingPlayer("gone", 0, dropped=True)], 0).bye is None


def test_players_meet_equal_points_when_they_can():
    players = field(4, 6) + [PairingPlayer(f"q{k}", 3) for k in range(4)]
    for seed in range(10):
        result = pair_round(3, players, seed)
        assert result.pair_downs == 0
        for a, b in result.pairings:
            assert a[0] == b[0]


def test_odd_group_pairs_one_player_down():
    players = field(3, 6) + [PairingPlayer(f"q{k}", 3) for k in range(3)]
    result = pair_round(3, players, 1)
    assert result.pair_downs == 1 and result.point_difference == 3 and result.rematches == 0


def test_top_two_who_already_met_both_float_down():
    top = [PairingPlayer("a", 9, ("b",)), PairingPlayer("b", 9, ("a",))]
    rest = [PairingPlayer(f"m{k}", 6) for k in range(4)]
    for seed in range(5):
        result, report = pair_round_with_report(4, top + rest, seed)
        assert result.rematches == 0
        assert result.point_difference == 6  # two pairs 9 v 6
        assert report.certified and report.method == "fast" and report.lower_bound == 0


def test_no_rematch_even_if_greedy_would_make_one():
    # a has met everyone on its own points except d; a greedy pairing of (b, c) first could
    # strand a with nobody.  The pairing is global.
    players = [
        PairingPlayer("a", 3, ("b", "c")),
        PairingPlayer("b", 3, ("a",)),
        PairingPlayer("c", 3, ("a",)),
        PairingPlayer("d", 3),
    ]
    for seed in range(20):
        result = pair_round(2, players, seed)
        assert result.rematches == 0
        assert ("a", "d") in result.pairings or ("d", "a") in result.pairings


def test_rematch_only_when_unavoidable():
    ids = ["a", "b", "c", "d"]
    players = [PairingPlayer(x, 0, tuple(y for y in ids if y != x)) for x in ids]
    result = pair_round(4, players, 0)
    assert result.rematches == 2
    check_legal(players, result)


def test_bye_goes_to_the_lowest_group_without_a_bye():
    players = [
        PairingPlayer("top", 6),
        PairingPlayer("mid1", 3),
        PairingPlayer("mid2", 3),
        PairingPlayer("low", 0, had_bye=True),
        PairingPlayer("low2", 0, had_bye=True),
    ]
    for seed in range(10):
        assert pair_round(3, players, seed).bye in {"mid1", "mid2"}
    everyone = [PairingPlayer(p.id, p.points, had_bye=True) for p in players]
    for seed in range(10):
        assert pair_round(3, everyone, seed).bye in {"low", "low2"}


def test_late_entrants_are_the_preferred_bye_and_pair_down():
    players = [*field(4), PairingPlayer("late", 0, late=True)]
    assert {pair_round(2, players, seed).bye for seed in range(20)} == {"late"}
    players = [
        PairingPlayer("a", 3),
        PairingPlayer("b", 3),
        PairingPlayer("late", 3, late=True),
        PairingPlayer("x", 0),
        PairingPlayer("y", 0),
        PairingPlayer("z", 0),
    ]
    for seed in range(20):
        result = pair_round(2, players, seed)
        down = [pair for pair in result.pairings if pair[0] in "ab late" and pair[1] in "xyz"]
        assert len(down) == 1 and down[0][0] == "late"


def test_opponent_lists_are_read_both_ways_and_unknown_ids_ignored():
    players = [
        PairingPlayer("a", 0, ("b", "nobody")),
        PairingPlayer("b", 0),
        PairingPlayer("c", 0),
        PairingPlayer("d", 0),
    ]
    for seed in range(20):
        result = pair_round(2, players, seed)
        assert result.rematches == 0
        assert ("a", "b") not in result.pairings


@pytest.mark.parametrize(
    ("players", "round_number", "seed", "code"),
    [
        ([PairingPlayer("a", 0), PairingPlayer("a", 3)], 1, 0, "duplicate-player"),
        ([PairingPlayer("", 0)], 1, 0, "bad-player-id"),
        ([PairingPlayer("a", 1.5)], 1, 0, "bad-input"),
        ([PairingPlayer("a", 0, opponents="b")], 1, 0, "bad-input"),
        ([PairingPlayer("a", 0, had_bye=1)], 1, 0, "bad-input"),
        ([{"id": "a", "points": 0}], 1, 0, "bad-input"),
        ([PairingPlayer("a", 0)], 0, 0, "bad-input"),
        ([PairingPlayer("a", 0)], 1, 1.5, "bad-input"),
        ("ab", 1, 0, "bad-input"),
    ],
)
def test_bad_input(players, round_number, seed, code):
    with pytest.raises(RulesError) as info:
        pair_round(round_number, players, seed)
    assert info.value.code == code


# -- the matching algorithms on their own -----------------------------------------------------


def brute_matching(n, edges, cardinality_first):
    weights = {frozenset((a, b)): w for a, b, w in edges}
    best = None

    def walk(remaining, size, weight):
        nonlocal best
        key = (size, weight) if cardinality_first else (weight,)
        best = key if best is None or key > best else best
        if not remaining:
            return
        v, rest = remaining[0], remaining[1:]
        walk(rest, size, weight)
        for u in rest:
            w = weights.get(frozenset((u, v)))
            if w is not None:
                walk([x for x in rest if x != u], size + 1, weight + w)

    walk(list(range(n)), 0, 0)
    return best


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 9), st.floats(0, 1), st.integers(0, 10**6), st.booleans())
def test_weighted_blossom_against_brute_force(n, density, seed, cardinality_first):
    rng = random.Random(seed)
    edges = [
        (a, b, rng.randint(-5, 30))
        for a, b in itertools.combinations(range(n), 2)
        if rng.random() < density
    ]
    mate = matching.max_weight_matching(n, edges, cardinality_first)
    weights = {frozenset((a, b)): w for a, b, w in edges}
    size = weight = 0
    for v, u in enumerate(mate):
        if u >= 0:
            assert mate[u] == v
            if v < u:
                size += 1
                weight += weights[frozenset((u, v))]
    got = (size, weight) if cardinality_first else (weight,)
    assert got == brute_matching(n, edges, cardinality_first)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 14), st.floats(0, 1), st.integers(0, 10**6))
def test_cardinality_matching_against_brute_force(n, density, seed):
    rng = random.Random(seed)
    adjacent = {v: [] for v in range(n)}
    edges = []
    for a, b in itertools.combinations(range(n), 2):
        if rng.random() < density:
            adjacent[a].append(b)
            adjacent[b].append(a)
            edges.append((a, b, 1))
    mate = [-1] * n
    for v in range(n):  # a random starting matching
        if mate[v] < 0 and rng.random() < 0.5:
            free = [u for u in adjacent[v] if mate[u] < 0]
            if free:
                u = rng.choice(free)
                mate[u], mate[v] = v, u
    start = [v for v in range(n) if mate[v] >= 0]
    matching.max_cardinality_matching(n, adjacent.__getitem__, mate)
    assert all(mate[v] >= 0 for v in start)
    assert all(mate[mate[v]] == v and mate[v] in adjacent[v] for v in range(n) if mate[v] >= 0)
    size = sum(u >= 0 for u in mate) // 2
    expected = sum(u >= 0 for u in matching.max_weight_matching(n, edges)) // 2
    assert size == expected


# -- whole tournaments ------------------------------------------------------------------------


def play_tournament(size, rounds, seed, drop_rate=0.03):
    """Pair `rounds` rounds with random results; yield (round, players, result, report)."""
    rng = random.Random(seed)
    ids = [f"p{k:05d}" for k in range(size)]
    points = dict.fromkeys(ids, 0)
    opponents = {pid: [] for pid in ids}
    had_bye = dict.fromkeys(ids, False)
    dropped: set[str] = set()
    for rnd in range(1, rounds + 1):
        players = [
            PairingPlayer(pid, points[pid], tuple(opponents[pid]), had_bye[pid], pid in dropped)
            for pid in ids
        ]
        result, report = pair_round_with_report(rnd, players, seed)
        yield rnd, players, result, report
        if result.bye:
            had_bye[result.bye] = True
            points[result.bye] += 3
        for a, b in result.pairings:
            opponents[a].append(b)
            opponents[b].append(a)
            x = rng.random()
            if x < 0.05:
                points[a] += 1
                points[b] += 1
            else:
                points[a if x < 0.525 else b] += 3
        dropped |= {pid for pid in ids if pid not in dropped and rng.random() < drop_rate}


@pytest.mark.parametrize(("size", "rounds"), [(7, 6), (12, 9), (33, 8), (150, 8)])
def test_tournaments_stay_optimal(size, rounds):
    for _, players, result, report in play_tournament(size, rounds, seed=size):
        check_legal(players, result)
        assert report.certified, report
        if report.method == "fast":
            assert result.point_difference == report.proven_bound
        if len([p for p in players if not p.dropped]) <= 10:
            assert (result.rematches, result.point_difference) == exhaustive_optimum(players)


def test_4096_players_pair_without_rematches_and_with_the_least_point_difference():
    # Speed is measured in benchmarks/bench_swiss.py, not here.
    for rnd, players, result, report in play_tournament(4096, 4, seed=9, drop_rate=0.01):
        if rnd > 1:
            check_legal(players, result)
        assert result.rematches == 0 and report.certified
        assert result.point_difference == report.proven_bound


def test_minimum_point_difference():
    players = field(3, 6) + [PairingPlayer(f"q{k}", 3) for k in range(3)]
    assert minimum_point_difference(players) == 3
    assert minimum_point_difference(field(5, 3)) == 0  # the bye absorbs the odd player


# -- command line -----------------------------------------------------------------------------


def run_cli(payload: str):
    return subprocess.run(
        [sys.executable, "-m", "rules.swiss"],
        input=payload,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_pairs_a_round():
    request = {
        "round": 2,
        "seed": "event-17",
        "players": [
            {"id": "a", "points": 3, "opponents": ["b"], "had_bye": False, "dropped": False},
            {"id": "b", "points": 0, "opponents": ["a"], "had_bye": False, "dropped": False},
            {"id": "c", "points": 3, "opponents": ["d"], "had_bye": False, "dropped": False},
            {"id": "d", "points": 0, "opponents": ["c"], "had_bye": False, "dropped": False},
            {"id": "e", "points": 3, "opponents": [], "had_bye": True, "dropped": False},
            {"id": "f", "points": 0, "opponents": [], "had_bye": False, "dropped": True},
        ],
    }
    out = run_cli(json.dumps(request))
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    expected = pair_round(
        2,
        [
            PairingPlayer(p["id"], p["points"], tuple(p["opponents"]), p["had_bye"], p["dropped"])
            for p in request["players"]
        ],
        "event-17",
    )
    assert answer == {"pairings": [list(p) for p in expected.pairings], "bye": expected.bye}
    assert answer["bye"] in {"b", "d"}


@pytest.mark.parametrize(
    "payload",
    [
        "{not json",
        json.dumps({"round": 1, "seed": 0}),
        json.dumps({"round": 1, "seed": 0, "players": [{"id": "a", "points": 0}] * 2}),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(payload):
    out = run_cli(payload)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
