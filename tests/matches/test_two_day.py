"""A two-day event of 700 Masters simulated through the services (the rule edition of
2026-02-13: 65 or more players play one extra Swiss round, day 2 from 19 match points, the
top cut capped at 16), exported as JSON and checked from the export alone: structure,
presence, no rematches inside each Swiss phase, the day-2 cut and the standings. Slow
(a few minutes: ~4,000 results through the services)."""

import datetime as dt
import json
import random
from collections import Counter

import pytest

from league.models import Player, RuleEdition
from matches.export import export_event
from matches.simulation import create_players, simulate_event

pytestmark = pytest.mark.django_db

PLAYERS = 700


def two_day_rule() -> dict:
    return RuleEdition.objects.get(key="2026-02").rules["two_day"]


def test_a_two_day_event_of_700_masters(django_capture_on_commit_callbacks):
    rule = two_day_rule()
    assert "divisions of 65 or more players play one extra Swiss round" in rule["source"]
    assert 'the asymmetric Top 8 is capped at 16 players "regardless of ties"' in rule["source"]
    assert (
        "day 2 for players at or above a match-point threshold (19 points" in (rule["day2_source"])
    )
    people = create_players(PLAYERS, prefix="twoday", rng=random.Random(7), with_users=False)
    Player.objects.filter(pk__in=[p.pk for p in people]).update(birth_date=dt.date(1990, 5, 1))
    with django_capture_on_commit_callbacks(execute=True):
        report = simulate_event(
            players=list(Player.objects.filter(pk__in=[p.pk for p in people])),
            seed=31,
            best_of=1,
            drop_rate=0.01,
            days=2,
        )
    export = json.loads(json.dumps(export_event(report.event)))  # read from outside
    check_structure(export)
    day_two = check_the_cut_to_day_two(export)
    check_presence_and_no_rematches(export, day_two)
    check_the_top_cut(export, day_two)
    check_standings(export, day_two)


def swiss(export):
    return [r for r in export["rounds"] if r["stage"] == "swiss"]


def points_after(export, last_round: int) -> Counter:
    points = Counter()
    for r in swiss(export):
        if r["number"] > last_round:
            continue
        for m in r["matches"]:
            if m["b"] is None or m["result"] == "a":
                points[m["a"]] += 3
            elif m["result"] == "b":
                points[m["b"]] += 3
            elif m["result"] == "tie":
                points[m["a"]] += 1
                points[m["b"]] += 1
    return points


def check_structure(export):
    assert export["event"]["days"] == 2 and export["event"]["rule_edition"] == "2026-02"
    assert export["event"]["status"] == "finished"
    # The table: 410 or more players → 10 rounds and a top 64; two days: 11 rounds, top 16.
    assert len(swiss(export)) == 11
    cut = [r for r in export["rounds"] if r["stage"] == "top_cut"]
    assert [len(r["matches"]) for r in cut] == [8, 4, 2, 1]


DAY_ONE = 8  # two thirds of 11 rounds, rounded up


def check_the_cut_to_day_two(export):
    points = points_after(export, DAY_ONE)
    players = {p["registration"]: p for p in export["players"]}
    day_two = {
        reg
        for reg, p in players.items()
        if points[reg] >= 19 and not (p["dropped_after_round"] or 99) <= DAY_ONE
    }
    below = {
        reg
        for reg, p in players.items()
        if points[reg] < 19 and not (p["dropped_after_round"] or 99) <= DAY_ONE
    }
    # 19 points after 8 rounds is 6-1-1 or better (6-2 is 18): a few percent of the field,
    # and at least the 16 the top cut needs.
    assert 16 <= len(day_two) < PLAYERS // 10
    assert all(players[r]["finished_on_day_one"] for r in below)
    assert not any(players[r]["finished_on_day_one"] for r in day_two)
    return day_two


def check_presence_and_no_rematches(export, day_two):
    players = {p["registration"]: p for p in export["players"]}
    for phase in (range(1, DAY_ONE + 1), range(DAY_ONE + 1, 12)):
        pairs = Counter()
        for r in swiss(export):
            if r["number"] not in phase:
                continue
            seen = Counter()
            for m in r["matches"]:
                seen.update([m["a"]] + ([m["b"]] if m["b"] else []))
                if m["b"]:
                    pairs[frozenset((m["a"], m["b"]))] += 1
            assert max(seen.values()) == 1  # nobody twice in a round
            if r["number"] > DAY_ONE:
                assert set(seen) <= day_two  # day 2 is for those who made it
                here = {
                    reg
                    for reg in day_two
                    if not (players[reg]["dropped_after_round"] or 99) < r["number"]
                }
                assert here <= set(seen)  # and every one of them still in plays
        assert max(pairs.values()) == 1  # no rematch inside the phase


def check_the_top_cut(export, day_two):
    first = next(r for r in export["rounds"] if r["stage"] == "top_cut")
    seeded = {p for m in first["matches"] for p in (m["a"], m["b"])}
    assert len(seeded) == 16 and seeded <= day_two
    final = max((s for s in export["standings"] if s["round"] == 11), key=lambda s: s["version"])
    top = [row["registration"] for row in final["rows"] if row["registration"] in day_two]
    players = {p["registration"]: p for p in export["players"]}
    active_top = [r for r in top if not players[r]["dropped_after_round"]][:16]
    assert seeded == set(active_top)


def check_standings(export, day_two):
    final = max((s for s in export["standings"] if s["round"] == 11), key=lambda s: s["version"])
    points = points_after(export, 11)
    rows = final["rows"]
    assert all(row["points"] == points[row["registration"]] for row in rows)
    ranks = {row["registration"]: row["rank"] for row in rows}
    worst_day_two = max(ranks[r] for r in day_two)
    finished = [row for row in rows if row.get("day_one_only")]
    assert finished and all(row["rank"] > worst_day_two for row in finished)
