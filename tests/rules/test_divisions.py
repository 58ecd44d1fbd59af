"""Age divisions, and the pods of an event whose divisions play separately."""

import json
from pathlib import Path

import pytest

from rules.divisions import (
    JUNIOR,
    MASTERS,
    MIN_DIVISION_PLAYERS,
    SENIOR,
    combine_small_divisions,
    division_for,
)

EXPORTS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports"
CODES = {"0": JUNIOR, "1": SENIOR, "2": MASTERS}


def test_division_by_birth_year():
    assert division_for(2016, junior_from=2014, senior_from=2010) == JUNIOR
    assert division_for(2012, junior_from=2014, senior_from=2010) == SENIOR
    assert division_for(2000, junior_from=2014, senior_from=2010) == MASTERS


@pytest.mark.parametrize(
    ("counts", "pods"),
    [
        ({JUNIOR: 12, SENIOR: 10, MASTERS: 30}, [(JUNIOR,), (SENIOR,), (MASTERS,)]),
        ({JUNIOR: 1, SENIOR: 9, MASTERS: 30}, [(JUNIOR, SENIOR), (MASTERS,)]),
        ({JUNIOR: 1, SENIOR: 1, MASTERS: 8}, [(JUNIOR, SENIOR, MASTERS)]),
        ({SENIOR: 1, MASTERS: 9}, [(SENIOR, MASTERS)]),
        ({JUNIOR: 9, SENIOR: 12, MASTERS: 1}, [(JUNIOR,), (SENIOR, MASTERS)]),
        ({JUNIOR: 1}, [(JUNIOR,)]),
        ({JUNIOR: 0, MASTERS: 20}, [(MASTERS,)]),
        ({}, []),
    ],
)
def test_a_division_too_small_to_play_alone_joins_the_next_older(counts, pods):
    assert combine_small_divisions(counts, minimum=MIN_DIVISION_PLAYERS) == pods


def test_every_player_keeps_a_pod():
    counts = {JUNIOR: 3, SENIOR: 2, MASTERS: 4}
    pods = combine_small_divisions(counts, minimum=8)
    assert sorted(d for pod in pods for d in pod) == sorted(counts)
    with pytest.raises(ValueError):
        combine_small_divisions({"toddlers": 3}, minimum=8)


def test_toms_pods_are_combined_the_same_way():
    """Every TOM save with more than one age division: its pods are what
    `combine_small_divisions` makes of its division sizes, for a minimum of 5 to 10 players
    (the harness cup combines 4 Juniors with 7 Seniors, so 4 is too few)."""
    if not EXPORTS.is_dir():
        pytest.skip(f"{EXPORTS} is missing")
    fits = {minimum: 0 for minimum in range(2, 13)}
    files = 0
    for path in sorted(EXPORTS.glob("*.json")):
        data = json.loads(path.read_text())
        toms = [
            tuple(CODES[c] for c in sorted(pod["divisions"]) if c in CODES) for pod in data["pods"]
        ]
        if sum(map(len, toms)) < 2:
            continue
        files += 1
        counts = {
            CODES[c]: len(d["swiss_order"])
            for pod in data["pods"]
            for c, d in pod["divisions"].items()
        }
        for minimum in fits:
            fits[minimum] += combine_small_divisions(counts, minimum=minimum) == toms
    assert files >= 9
    fitting = {m for m, n in fits.items() if n == files}
    assert fitting == set(range(5, 11))
    assert MIN_DIVISION_PLAYERS in fitting
