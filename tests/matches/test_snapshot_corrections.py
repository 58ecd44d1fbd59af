"""Per-round standings after a correction: a simulated 512-player event has a round-3 result
corrected after round 5 was played; every round's latest snapshot must still be the
standings of that round's results alone, computed independently from the event's export
(only what was known after that round: its matches, the drops up to it, nobody who entered
later)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from matches import services
from matches.export import standings_input
from matches.models import Match, Round, StandingsSnapshot
from matches.simulation import organiser, simulate_event
from rules.standings import MatchRecord, compute_standings
from tests.factories import sample_cards

pytestmark = pytest.mark.django_db


def standings_through(export: dict, request: dict, through: int, swiss_rounds: int):
    entered = {
        str(p["registration"]): p["late_entry_round"] or 1
        for p in export["players"]
        if p["status"] not in ("withdrawn", "waitlisted")
    }
    players = [pid for pid in request["players"] if entered[pid] - 1 <= through]
    return compute_standings(
        players,
        [MatchRecord(m["round"], m["a"], m["b"], m["result"]) for m in request["matches"]],
        dropped={pid: d for pid, d in request["drop_round"].items() if pid in players},
        late={pid: r for pid, r in request["late"].items() if pid in players},
        seed=request["seed"],
        through_round=through,
        swiss_rounds=swiss_rounds,
    )


def test_snapshots_recomputed_after_a_correction_agree_round_by_round(
    django_capture_on_commit_callbacks,
):
    sample_cards()
    with django_capture_on_commit_callbacks(execute=True):
        report = simulate_event(players=512, seed=23, best_of=1, drop_rate=0.03)
    event = report.event
    swiss = list(Round.objects.filter(event=event, stage=Round.Stage.SWISS).order_by("number"))
    assert len(swiss) >= 5
    # A round-3 result turned round: the winner becomes the loser.
    match = (
        Match.objects.filter(round=swiss[2], result=Match.Result.A, player_b__isnull=False)
        .order_by("table")
        .first()
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.set_result(
            match=match, by_user=organiser(), payload={"games": [{"outcome": "b"}]}, note="slip"
        )
    dump = StringIO()
    call_command("export_event", event.pk, stdout=dump)
    export = json.loads(dump.getvalue())
    request = standings_input(export)
    assert any(
        m["round"] == 3 and m["a"] == str(match.player_a_id) and m["result"] == "b"
        for m in request["matches"]
    )

    versions = 0
    for round_ in swiss:
        snapshot = (
            StandingsSnapshot.objects.filter(event=event, round_number=round_.number)
            .order_by("-version")
            .first()
        )
        versions += snapshot.version > 1
        expected = standings_through(export, request, round_.number, len(swiss))
        assert [int(s.id) for s in expected] == [row["registration"] for row in snapshot.rows], (
            round_.number
        )
        assert [s.points for s in expected] == [row["points"] for row in snapshot.rows]
        assert [s.dropped for s in expected] == [row["dropped"] for row in snapshot.rows]
    # Rounds 3 and later were published before the correction: each has a second version.
    assert versions == len(swiss) - 2
