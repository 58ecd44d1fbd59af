"""Single-elimination top cut."""

import json
from pathlib import Path

import pytest

from rules.errors import RulesError
from rules.topcut import bracket, bracket_order, next_round, seeded_order

EXPORTS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports"


def seeds(n):
    return [f"s{k}" for k in range(1, n + 1)]


def seed_of(pid):
    return int(pid[1:])


def test_top_8_in_bracket_order():
    assert bracket(seeds(8)) == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]


def test_small_brackets():
    assert bracket(seeds(2)) == [("s1", "s2")]
    assert bracket(seeds(4)) == [("s1", "s4"), ("s2", "s3")]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_standard_seeding_properties(size):
    pairs = bracket(seeds(size))
    assert len(pairs) == size // 2
    assert sorted(p for pair in pairs for p in pair) == sorted(seeds(size))
    for a, b in pairs:
        assert seed_of(a) + seed_of(b) == size + 1
        assert seed_of(a) < seed_of(b)
    # When the better seed always wins, every round pairs seeds summing to (players left) + 1,
    # and the final is 1 v 2.
    winners = [a for a, _ in pairs]
    left = size // 2
    while left > 1:
        round_pairs = next_round(winners)
        for a, b in round_pairs:
            assert seed_of(a) + seed_of(b) == left + 1
        winners = [min(a, b, key=seed_of) for a, b in round_pairs]
        left //= 2
    assert winners == ["s1"]
    assert next_round(winners) == []


@pytest.mark.parametrize("size", [4, 8, 16, 32, 64])
def test_top_two_seeds_are_in_different_halves(size):
    order = bracket_order(size)
    half = size // 2
    assert 1 in order[:half] and 2 in order[half:]
    # and the top four in different quarters
    quarters = [set(order[k : k + size // 4]) for k in range(0, size, size // 4)]
    assert all(len(q & {1, 2, 3, 4}) == 1 for q in quarters)


def test_next_round_keeps_bracket_order():
    first = bracket(seeds(8))
    winners = ["s8", "s4", "s2", "s6"]  # upsets in pairs 1 and 4
    assert [w in pair for w, pair in zip(winners, first, strict=True)] == [True] * 4
    assert next_round(winners) == [("s8", "s4"), ("s2", "s6")]


@pytest.mark.parametrize("bad", [[], ["a"], ["a", "b", "c"], ["a"] * 6])
def test_bracket_rejects_bad_sizes(bad):
    with pytest.raises(RulesError):
        bracket(bad)


def test_bracket_rejects_duplicates_and_bad_ids():
    with pytest.raises(RulesError) as info:
        bracket(["a", "a"])
    assert info.value.code == "duplicate-player"
    with pytest.raises(RulesError):
        bracket(["a", ""])
    with pytest.raises(RulesError):
        bracket("ab")


def test_next_round_rejects_bad_counts():
    with pytest.raises(RulesError):
        next_round(["a", "b", "c"])
    with pytest.raises(RulesError):
        next_round([])


def test_tom_top_cuts_use_the_same_bracket():
    """TOM's first top-cut round pairs the Swiss seeds exactly like `bracket`, and its later
    rounds pair the winners like `next_round` (compared as sets: TOM lists 3v6 before 2v7)."""
    if not EXPORTS.is_dir():
        pytest.skip(f"{EXPORTS} is missing")
    checked = with_cut = 0
    for path in sorted(EXPORTS.glob("*.json")):
        data = json.loads(path.read_text())
        for pod in data["pods"]:
            cut = pod.get("top_cut") or {}
            if not cut.get("matches"):
                continue
            rounds = sorted({m["round"] for m in cut["matches"]})
            played = {
                r: {frozenset((m["a"], m["b"])): m for m in cut["matches"] if m["round"] == r}
                for r in rounds
            }
            for division in pod["divisions"].values():
                size = len(division["top_cut_players"])
                if not size:
                    continue
                with_cut += 1
                pairs = bracket(division["swiss_order"][:size])
                for r in rounds:
                    assert {frozenset(p) for p in pairs} <= set(played[r]), path.name
                    winners = []
                    for a, b in pairs:
                        m = played[r][frozenset((a, b))]
                        winners.append(m["a"] if m["result"] == "a" else m["b"])
                    pairs = next_round(winners)
                    if not pairs:
                        break
                checked += 1
    # Every division with a top cut in every export, however many the data holds (11 of
    # 38 divisions in 23 files when this was written).
    assert checked == with_cut >= 11


def test_seeded_order_skips_dropped_players():
    order = ["p15", "p20", "p4", "p7", "p3", "p9"]
    assert seeded_order(order, 4, {"p15"}) == ["p20", "p4", "p7", "p3", "p15", "p9"]
    assert seeded_order(order, 0, {"p15"}) == order
    assert seeded_order(order, 4, set()) == order
    with pytest.raises(RulesError):
        seeded_order(order, -1, set())
