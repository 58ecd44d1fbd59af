"""A whole seeded event played through the services, exported, and checked: no rematches,
valid byes, and standings that agree with `python -m rules.standings` on the export."""

import json
import subprocess
import sys
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command

from matches.export import standings_input
from tests.conftest import ROOT
from tests.factories import sample_cards

pytestmark = pytest.mark.django_db


def test_a_simulated_event_exports_a_sound_tournament(django_capture_on_commit_callbacks):
    """One event is simulated (a few seconds) and every check below runs on its export."""
    sample_cards()
    out, err = StringIO(), StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("simulate_event", players=41, seed=5, stdout=out, stderr=err)
    event_id = int(out.getvalue().strip().splitlines()[-1])
    dump = StringIO()
    call_command("export_event", event_id, stdout=dump)
    exported = json.loads(dump.getvalue()), err.getvalue()
    check_the_event_finishes_with_a_top_cut(exported)
    check_no_rematch_and_nobody_paired_twice_in_a_round(exported)
    check_byes_go_to_players_without_one(exported)
    check_sudden_death_games_are_chained(exported)
    check_stored_standings_agree_with_the_standings_command(exported)


def swiss_rounds(export):
    return [r for r in export["rounds"] if r["stage"] == "swiss"]


def check_the_event_finishes_with_a_top_cut(exported):
    export, log = exported
    assert export["event"]["status"] == "finished"
    stages = [r["stage"] for r in export["rounds"]]
    assert (
        stages.count("swiss") == 6 and stages.count("top_cut") == 3
    )  # 41 players: 6 rounds, top 8
    assert all(m["status"] == "final" for r in export["rounds"] for m in r["matches"])
    assert "rematches 0" in log


def check_no_rematch_and_nobody_paired_twice_in_a_round(exported):
    export, _ = exported
    seen = set()
    for rnd in swiss_rounds(export):
        players = Counter()
        for m in rnd["matches"]:
            players[m["a"]] += 1
            if m["b"]:
                players[m["b"]] += 1
                pair = frozenset((m["a"], m["b"]))
                assert pair not in seen, f"rematch in round {rnd['number']}"
                seen.add(pair)
        assert max(players.values()) == 1


def check_byes_go_to_players_without_one(exported):
    export, _ = exported
    byes = [m["a"] for r in swiss_rounds(export) for m in r["matches"] if m["b"] is None]
    assert len(byes) == len(set(byes))


def check_sudden_death_games_are_chained(exported):
    export, _ = exported
    games = [g for r in export["rounds"] for m in r["matches"] for g in m["games"]]
    replays = [g for g in games if g["sequence"] > 0]
    assert replays, "the simulation plays some sudden-death games"
    by_id = {g["id"]: g for g in games}
    for g in replays:
        head = by_id[g["replay_of"]]
        assert head["outcome"] == "both_won" and head["number"] == g["number"]
        assert (
            head["sequence"] == g["sequence"] - 1
            and g["prizes"] == export["event"]["sudden_death_prizes"]
        )


def check_stored_standings_agree_with_the_standings_command(exported):
    export, _ = exported
    last = max(r["number"] for r in swiss_rounds(export))
    snapshot = max(
        (s for s in export["standings"] if s["round"] == last), key=lambda s: s["version"]
    )
    request = standings_input(export)
    answer = subprocess.run(
        [sys.executable, "-m", "rules.standings"], input=json.dumps(request), capture_output=True,
        text=True, cwd=ROOT, check=True,
    )  # fmt: skip
    expected = json.loads(answer.stdout)["standings"]
    assert snapshot["published"] and len(snapshot["rows"]) == len(expected) == 41
    assert [int(row["id"]) for row in expected] == [row["registration"] for row in snapshot["rows"]]
    assert [row["points"] for row in expected] == [row["points"] for row in snapshot["rows"]]
    assert [round(row["owp"], 4) for row in expected] == [row["owp"] for row in snapshot["rows"]]
