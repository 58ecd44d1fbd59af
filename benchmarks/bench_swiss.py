"""Simulate whole Swiss tournaments and time the pairing engine and the standings.

    .venv/bin/python benchmarks/bench_swiss.py [--sizes 64 512 4096] [--seed 7]

Each field plays the number of rounds the attendance table gives.  Results are random with a
hidden skill per player (stronger players win more often), about 4 % ties, and some drops
(players on a losing record leave now and then); a few late entrants join in round 2 with a
forced loss for round 1.  For every round the script prints the pairing time (best of three),
rematches, pair-downs, the total point difference, the minimum the point groups allow (parity
bound, ignoring rematches), the lower bound the certificate proved (what is really achievable), and
whether the result is proved optimal.  At the end it times the standings for the
largest field after 9 rounds.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.scoring import structure_for
from rules.standings import MatchRecord, compute_standings
from rules.swiss import PairingPlayer, pair_round_with_report

TIE_RATE = 0.04
DROP_RATE = 0.04  # per round, for players with at least two losses
LATE_SHARE = 0.005
REPEATS = 3  # each pairing is timed this often; the best time is shown (the machine is shared)


def simulate(size: int, seed: int, verbose: bool = True) -> dict:
    rng = random.Random(f"bench:{seed}:{size}")
    late_count = max(1, int(size * LATE_SHARE))
    ids = [f"p{k:05d}" for k in range(size)]
    late_ids = set(ids[-late_count:])
    skill = {pid: rng.gauss(0, 1) for pid in ids}
    points = dict.fromkeys(ids, 0)
    losses = dict.fromkeys(ids, 0)
    opponents: dict[str, list[str]] = {pid: [] for pid in ids}
    had_bye = dict.fromkeys(ids, False)
    dropped: dict[str, int] = {}
    matches: list[MatchRecord] = []
    rounds, _cut = structure_for(size)
    rows = []
    for rnd in range(1, rounds + 1):
        present = [pid for pid in ids if not (pid in late_ids and rnd == 1)]
        if rnd == 2:
            for pid in late_ids:
                matches.append(MatchRecord(1, pid, None, "b"))
                losses[pid] += 1
        field = [
            PairingPlayer(
                id=pid,
                points=points[pid],
                opponents=tuple(opponents[pid]),
                had_bye=had_bye[pid],
                dropped=pid in dropped,
                late=pid in late_ids,
            )
            for pid in present
        ]
        timings = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            result, report = pair_round_with_report(rnd, field, seed)
            timings.append((time.perf_counter() - started) * 1000)
        elapsed = min(timings)
        rows.append((rnd, elapsed, result, report))
        if verbose:
            proven = "" if report.proven_bound is None else f", proven {report.proven_bound}"
            print(
                f"  round {rnd:2d}: {elapsed:7.1f} ms  rematches {result.rematches}"
                f"  pair-downs {result.pair_downs:3d}  point difference"
                f" {result.point_difference:3d} (parity minimum {report.lower_bound}{proven})"
                f"  {'optimal' if report.certified else 'NOT certified'} [{report.method}]"
            )
        if result.bye is not None:
            had_bye[result.bye] = True
            points[result.bye] += 3
            matches.append(MatchRecord(rnd, result.bye, None, "a"))
        for a, b in result.pairings:
            opponents[a].append(b)
            opponents[b].append(a)
            x = rng.random()
            if x < TIE_RATE:
                outcome = "tie"
                points[a] += 1
                points[b] += 1
            else:
                p_a = 1 / (1 + math.exp(-(skill[a] - skill[b])))
                outcome = "a" if rng.random() < p_a else "b"
                winner, loser = (a, b) if outcome == "a" else (b, a)
                points[winner] += 3
                losses[loser] += 1
            matches.append(MatchRecord(rnd, a, b, outcome))
        if rnd < rounds:
            for pid in present:
                if pid not in dropped and losses[pid] >= 2 and rng.random() < DROP_RATE:
                    dropped[pid] = rnd
    return {
        "rows": rows,
        "ids": ids,
        "matches": matches,
        "dropped": dropped,
        "late": dict.fromkeys(late_ids, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 512, 4096])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    largest = None
    for size in args.sizes:
        rounds, cut = structure_for(size)
        print(f"{size} players: {rounds} Swiss rounds, top {cut}")
        sim = simulate(size, args.seed)
        times = [row[1] for row in sim["rows"]]
        bad = sum(1 for row in sim["rows"] if not row[3].certified)
        print(
            f"  pairing: max {max(times):.1f} ms, median {statistics.median(times):.1f} ms,"
            f" {bad} round(s) not certified optimal, {len(sim['dropped'])} drops"
        )
        if largest is None or size > largest[0]:
            largest = (size, sim)
    if largest is not None:
        size, sim = largest
        through = min(9, max(row[0] for row in sim["rows"]))
        timings = []
        for _ in range(7):
            started = time.perf_counter()
            standings = compute_standings(
                sim["ids"],
                sim["matches"],
                dropped=sim["dropped"],
                late=sim["late"],
                through_round=through,
            )
            timings.append((time.perf_counter() - started) * 1000)
        top = standings[0]
        print(
            f"standings for {size} players after {through} rounds"
            f" ({sum(1 for d in sim['dropped'].values() if d <= through)} dropped):"
            f" min {min(timings):.1f} ms, median {statistics.median(timings):.1f} ms"
            f"  (leader {top.id} {top.record} OWP {top.owp:.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
