"""The venue laptop's push (`tom/venue.py`, `manage.py venue_push`) with two real sites:
the laptop is this test's database, the league's site is a second site process on its own
SQLite database (port 18711), started, stopped and started again by the test.

A round paired and published on the laptop appears on the league site; with the league
site down the saves wait in the laptop's queue, numbered; the pusher is killed (SIGKILL)
while they wait and started again; when the league site is back they arrive in the order
they were made, and the league site ends with exactly the laptop's event."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from matches import services
from matches.models import Match
from tom.venue import Spool

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
PORT = 18711
SEED = """
from league.models import StaffRole
from tests.factories import EventFactory, LeagueFactory, SeasonFactory, UserFactory
from tom import services
from django.db import transaction
organiser = UserFactory(username="league-organiser")
event = EventFactory(season=SeasonFactory(league=LeagueFactory(organisers=[organiser])), name="Mirror")
with transaction.atomic():
    token = services.new_upload_token(event=event, by_user=organiser)
print(json.dumps({"event": event.pk, "token": token}))
"""
STATE = """
from matches.models import Match
from tom.models import TomUpload
rows = [(m.round.number, m.table, m.player_a.player.player_id,
         m.player_b.player.player_id if m.player_b_id else None, m.status, m.result)
        for m in Match.objects.filter(round__event_id=EVENT).select_related(
            "round", "player_a__player", "player_b__player").order_by("round__number", "table")]
uploads = list(TomUpload.objects.filter(event_id=EVENT).order_by("pk").values_list("filename", flat=True))
print(json.dumps({"matches": rows, "uploads": uploads}))
"""


def league_env(tmp_path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "DJANGO_ENV")}
    # The league's site on its own database; its tasks in-process.
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'league.sqlite3'}",
        VAR_DIR=str(tmp_path / "league-var"),
    )
    return env


def manage(env, *args, timeout=120) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def shell(env, code: str) -> dict:
    return json.loads(manage(env, "shell", "-c", "import json\n" + code).strip().splitlines()[-1])


def start_league_site(env) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{PORT}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/favicon.ico", timeout=1)
            return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise AssertionError("the league site did not start")


def stop(proc: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        proc.wait(timeout=20)


def start_pusher(event_id, url, token, spool_dir) -> subprocess.Popen:
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        env["DATABASE_URL"].rsplit("/", 1)[0] + "/" + connection.settings_dict["NAME"]
    )
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "venue_push",
            str(event_id),
            "--url",
            url,
            "--token",
            token,
            "--spool",
            str(spool_dir),
            "--every",
            "0.3",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wait_for(check, what: str, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def laptop_state(event) -> list:
    return [
        [
            m.round.number,
            m.table,
            m.player_a.player.player_id,
            m.player_b.player.player_id if m.player_b_id else None,
            m.status,
            m.result,
        ]
        for m in Match.objects.filter(round__event=event)
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number", "table")
    ]


def test_the_laptop_pushes_in_order_through_an_outage_and_a_killed_pusher(
    tmp_path, make_event, staff
):
    env = league_env(tmp_path)
    manage(env, "migrate", "--noinput", "-v0", timeout=300)
    league = shell(env, SEED)
    site = start_league_site(env)
    url = f"http://127.0.0.1:{PORT}/api/tom/events/{league['event']}/saves/"
    spool_dir = tmp_path / "spool"
    pusher = None
    try:
        event, _ = make_event(players=8, name="Venue Day")
        round_1 = services.pair_next_round(event=event, by_user=staff)
        services.publish_round(round_=round_1, by_user=staff)
        pusher = start_pusher(event.pk, url, league["token"], spool_dir)

        # Round 1, posted on the laptop, appears on the league site.
        wait_for(
            lambda: (
                shell(env, STATE.replace("EVENT", str(league["event"])))["matches"]
                == laptop_state(event)
            ),
            "round 1 on the league site",
        )
        spool = Spool(spool_dir, event.pk)
        sent_before = spool.sent
        assert sent_before >= 1 and spool.pending() == []

        # The league site goes away: results and round 2 wait on the laptop, numbered.
        stop(site)
        made = []
        for m in round_1.matches.filter(player_b__isnull=False).order_by("table"):
            services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
            made.append(
                wait_for(
                    lambda: (
                        spool.numbers()[-1]
                        if spool.numbers()[-1] > (made or [sent_before])[-1]
                        else 0
                    ),
                    "a queued save",
                )
            )
        # The pusher dies (as a laptop whose lid is shut) with saves waiting...
        stop(pusher, signal.SIGKILL)
        services.close_round(round_=round_1, by_user=staff)
        round_2 = services.pair_next_round(event=event, by_user=staff)
        services.publish_round(round_=round_2, by_user=staff)
        waiting = spool.pending()
        assert waiting == list(range(sent_before + 1, sent_before + 1 + len(waiting)))
        assert len(waiting) >= len(made) >= 4

        # ...and starts again: it queues round 2 after them and sends nothing while the
        # league site is down.
        pusher = start_pusher(event.pk, url, league["token"], spool_dir)
        wait_for(lambda: spool.numbers()[-1] > waiting[-1], "round 2 queued after the rest")
        time.sleep(1)
        assert spool.sent == sent_before

        # The league site is back: everything arrives, in the order it was made.
        site = start_league_site(env)
        wait_for(lambda: spool.pending() == [], "the queue to empty")
        state = shell(env, STATE.replace("EVENT", str(league["event"])))
        assert state["matches"] == laptop_state(event)
        assert {row[0] for row in state["matches"]} == {1, 2}
        numbers = [int(name.split("-")[1].split(".")[0]) for name in state["uploads"]]
        assert numbers == sorted(numbers) and numbers[-1] == spool.numbers()[-1]
        assert set(range(sent_before + 1, numbers[-1] + 1)) <= set(numbers)  # none lost
        assert not (spool.dir / "refused.log").exists()
    finally:
        if pusher is not None:
            stop(pusher, signal.SIGKILL)
            print(pusher.stdout.read())
        stop(site)
