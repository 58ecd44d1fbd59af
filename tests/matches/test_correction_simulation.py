"""A simulated 256-player event corrected along the way, as a scorekeeper would: round 3 is
undone and paired again, two pairings of round 4 are swapped by hand, a late arrival is
seated in round 4, a drop is undone before round 5, and one player keeps a fixed table from
round 1. The event's JSON export is then checked from the outside (nobody seated twice, the
standings of the untouched rounds as before, the fixed seat kept in every round, the
standings agreeing with `python -m rules.standings`), the log holds one row per change, and
the TOM export of the edited event reads back as a valid TOM file."""

import json
import random
import subprocess
import sys
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Q

from league import services as league_services
from league.event_log import EventLogEntry
from league.models import Registration
from matches import services
from matches.export import standings_input
from matches.models import Match, Round, StandingsSnapshot
from matches.simulation import _report_round, create_players, organiser, simulate_event
from tests.conftest import ROOT
from tests.factories import sample_cards
from tom import services as tom_services
from tom import tdf

pytestmark = pytest.mark.django_db

FIXED_TABLE = 17
WHY = "scorekeeper's correction"


def match_of(round_, reg_id) -> Match:
    return round_.matches.get(Q(player_a_id=reg_id) | Q(player_b_id=reg_id))


def test_a_corrected_256_player_event_passes_the_outside_checks(
    django_capture_on_commit_callbacks,
):
    sample_cards()
    staff = organiser()
    rng = random.Random(29)
    chosen = {}

    def prepare(event):
        reg = Registration.objects.filter(event=event).order_by("pk")[100]
        league_services.set_seating(
            registration=reg, by_user=staff, fixed_table=FIXED_TABLE, reason="wheelchair access"
        )
        chosen["fixed"] = reg.pk

    with django_capture_on_commit_callbacks(execute=True):
        report = simulate_event(
            players=256, seed=29, drop_rate=0, staff=staff, stop_after_round=2, prepare=prepare
        )
    event = report.event
    before = {
        s.round_number: s.rows
        for s in StandingsSnapshot.objects.filter(event=event, round_number__in=(1, 2))
    }
    assert sorted(before) == [1, 2]
    changes = Counter({EventLogEntry.Kind.SEATING: 1})

    # Round 3 was paired and published, no result in: undo it and pair it again.
    round3 = Round.objects.get(event=event, number=3)
    first_pairs = {(m.player_a_id, m.player_b_id) for m in round3.matches.all()}
    left = [round3.matches.get(table=t).player_b for t in (5, 60)]
    with django_capture_on_commit_callbacks(execute=True):
        services.undo_round(round_=round3, by_user=staff, reason="paired before two drops")
        changes[EventLogEntry.Kind.ROUND_UNDONE] += 1
        for reg in left:
            league_services.drop(registration=reg, by_user=staff)
            changes[EventLogEntry.Kind.DROP] += 1
        round3 = services.pair_next_round(event=event, by_user=staff)
        services.start_clock(round_=round3, by_user=staff)
        _report_round(round3, rng, staff)
        services.close_round(round_=round3, by_user=staff)
    assert round3.number == 3 and round3.matches.count() == 127
    assert {(m.player_a_id, m.player_b_id) for m in round3.matches.all()} != first_pairs
    assert not round3.matches.filter(Q(player_a__in=left) | Q(player_b__in=left)).exists()

    # Round 4: two pairings swapped by hand, a late arrival seated with a bye.
    (late_player,) = create_players(1, prefix="late29", rng=rng)
    with django_capture_on_commit_callbacks(execute=True):
        round4 = services.pair_next_round(event=event, by_user=staff)
        services.start_clock(round_=round4, by_user=staff)
        late = league_services.register(event=event, player=late_player, by_user=staff)
        for top, other in ((30, 31), (40, 41)):
            a = round4.matches.get(table=top).player_a
            b = round4.matches.get(table=other).player_a
            services.swap_players(
                round_=round4,
                a=a,
                b=b,
                by_user=staff,
                reason=WHY,
                confirm=["rematch", "score-groups"],
            )
            changes[EventLogEntry.Kind.PAIRING_EDITED] += 1
        services.seat_player(
            round_=round4,
            registration=late,
            mode="bye",
            by_user=staff,
            reason="arrived during round 4",
        )
        changes[EventLogEntry.Kind.PLAYER_SEATED] += 1
        _report_round(round4, rng, staff)
        # A drop entered for the wrong player, undone before round 5.
        wrong = match_of(round4, round4.matches.get(table=3).player_a_id).player_a
        league_services.drop(registration=wrong, by_user=staff)
        league_services.undo_drop(registration=wrong, by_user=staff, reason="wrong player")
        changes[EventLogEntry.Kind.DROP] += 1
        changes[EventLogEntry.Kind.DROP_UNDONE] += 1
        services.close_round(round_=round4, by_user=staff)
        round5 = services.pair_next_round(event=event, by_user=staff)
        services.start_clock(round_=round5, by_user=staff)
        _report_round(round5, rng, staff)
        services.close_round(round_=round5, by_user=staff)
    assert match_of(round5, wrong.pk) and match_of(round5, late.pk)

    dump = StringIO()
    call_command("export_event", event.pk, stdout=dump)
    export = json.loads(dump.getvalue())
    check_nobody_is_seated_twice(export)
    check_the_fixed_seat_is_kept(export, chosen["fixed"])
    check_untouched_rounds_keep_their_standings(export, before)
    check_standings_agree_with_the_standings_command(export)
    assert Counter(row["kind"] for row in export["log"]) == changes
    assert all(row["reason"] for row in export["log"] if row["kind"] != "drop")
    check_the_tom_export_reads_back(event, export, chosen["fixed"])


def check_nobody_is_seated_twice(export):
    for rnd in export["rounds"]:
        seats = Counter(p for m in rnd["matches"] for p in (m["a"], m["b"]) if p)
        assert max(seats.values()) == 1, f"round {rnd['number']}"
        tables = Counter((m["division"], m["table"]) for m in rnd["matches"])
        assert max(tables.values()) == 1
    assert [r["number"] for r in export["rounds"]] == [1, 2, 3, 4, 5]


def check_the_fixed_seat_is_kept(export, registration):
    for rnd in export["rounds"]:
        (m,) = [m for m in rnd["matches"] if registration in (m["a"], m["b"])]
        assert m["table"] == FIXED_TABLE, f"round {rnd['number']}"


def check_untouched_rounds_keep_their_standings(export, before):
    for number, rows in before.items():
        latest = max(
            (s for s in export["standings"] if s["round"] == number), key=lambda s: s["version"]
        )
        assert latest["rows"] == rows


def check_standings_agree_with_the_standings_command(export):
    snapshot = max((s for s in export["standings"] if s["round"] == 5), key=lambda s: s["version"])
    answer = subprocess.run(
        [sys.executable, "-m", "rules.standings"],
        input=json.dumps(standings_input(export)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    expected = json.loads(answer.stdout)["standings"]
    assert len(snapshot["rows"]) == len(expected) == 257  # two dropped stay listed
    assert [int(row["id"]) for row in expected] == [row["registration"] for row in snapshot["rows"]]
    assert [row["points"] for row in expected] == [row["points"] for row in snapshot["rows"]]


def check_the_tom_export_reads_back(event, export, fixed):
    text = tom_services.export_text(event=event)
    save = tdf.parse(text.encode())
    tdf.check(save)
    rounds = [r for pod in save.pods for r in pod.rounds]
    assert len(rounds) == 5
    # TOM lists the late arrival's missed rounds (1 to 3) as matches of their own.
    ours = {r["number"]: len(r["matches"]) + (r["number"] < 4) for r in export["rounds"]}
    assert {r.number: len(r.matches) for r in rounds} == ours
    ids = {p["registration"]: p["player_id"] for p in export["players"]}
    for r in rounds:
        seats = Counter(p for m in r.matches for p in m.players)
        assert max(seats.values()) == 1
        (table,) = [m.tablenumber for m in r.matches if ids[fixed] in m.players]
        assert table == FIXED_TABLE
