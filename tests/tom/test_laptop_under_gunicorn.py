"""A long TOM save through the laptop endpoint as production runs it: gunicorn (sync
workers, its 30 s timeout, `DJANGO_ENV=production` behind the TLS proxy header), a Celery
worker on the broker, the cache on a Redis of its own. A save of 64 players and 46 Swiss
rounds (1,472 matches) is answered at once (202, stored), applied by the worker through
the outbox, and the laptop script reads the outcome at the status address: no 500 and no
web worker held until gunicorn's timeout (issue 27, item 7). The endpoint takes a body
over `REQUEST_BODY_MAX_BYTES` (the 5 MB save limit), another endpoint does not."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from league.models import Event
from matches.models import Match, Round
from tests.factories import EventFactory, LeagueFactory, SeasonFactory, UserFactory
from tests.security.conftest import production_env
from tests.test_two_web_processes import wait_for
from tom import services
from tom.models import TomSave

from . import saves

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
WEB_PORT, REDIS_PORT = 18100, 18101
HOST = "league.example.test"


@pytest.fixture
def production_web(tmp_path, worker_queue):
    from config.celery import app

    db = connection.settings_dict
    redis = subprocess.Popen(
        ["redis-server", "--port", str(REDIS_PORT), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    env = production_env(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}",
        CACHE_URL=f"redis://127.0.0.1:{REDIS_PORT}/0",
        CELERY_BROKER_URL=app.conf.broker_url,
        CELERY_TASK_DEFAULT_QUEUE=worker_queue,
        VAR_DIR=str(tmp_path),
        WEB_BIND=f"127.0.0.1:{WEB_PORT}",
        WEB_CONCURRENCY="2",
        DATABASE_CONN_MAX_AGE="0",
    )
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "config/gunicorn.py",
            "config.wsgi",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        wait_for(REDIS_PORT)
        wait_for(WEB_PORT)
        yield WEB_PORT
    finally:
        for proc in (web, redis):
            proc.terminate()
        for proc in (web, redis):
            proc.wait(timeout=30)


def call(method: str, path: str, *, token: str, body: bytes | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", WEB_PORT, timeout=60)
    headers = {"Host": HOST, "X-Forwarded-Proto": "https", "Authorization": f"Bearer {token}"}
    if body is not None:
        headers |= {"Content-Type": "application/xml", "X-Filename": "big.tdf"}
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, json.loads(data or b"{}") if data[:1] in (b"{", b"") else data


def test_a_long_save_is_answered_at_once_and_applied_by_the_worker(production_web):
    organiser = UserFactory(username="big-to")
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(league=league)
    event = EventFactory(season=season, status=Event.Status.REGISTRATION)
    token = services.new_upload_token(event=event, by_user=organiser)
    raw = saves.build_bytes(players=64, rounds=46)
    assert len(raw) > 256 * 1024  # over REQUEST_BODY_MAX_BYTES, under the 5 MB save limit
    status, body = call("POST", f"/api/tom/events/{event.pk}/saves/", token=token, body=raw)
    assert status == 202, body
    assert body["status"] == "pending"
    status_path = "/" + body["status_url"].split("/", 3)[3]
    # The laptop script's wait: read the status until the worker has applied the save.
    deadline = time.monotonic() + 900
    answers = []
    while time.monotonic() < deadline:
        status, body = call("GET", status_path, token=token)
        answers.append(status)
        if body.get("status") != "pending":
            break
        time.sleep(2)
    assert set(answers) == {200}
    assert body["status"] == "applied", body
    assert body["summary"]["matches_paired"] == 64 // 2 * 46
    assert Round.objects.filter(event=event).count() == 46
    assert Match.objects.filter(round__event=event).count() == 32 * 46
    stored = TomSave.objects.get(pk=body["id"])
    assert stored.data == b""  # applied: the file is not kept
    took = (stored.finished_at - stored.received_at).total_seconds()
    print(f"64 players x 46 rounds: {len(raw):,} bytes, applied by the worker in {took:.1f} s")
    # The same file again: answered at once from what is stored, nothing queued.
    status, again = call("POST", f"/api/tom/events/{event.pk}/saves/", token=token, body=raw)
    assert status == 200 and again["duplicate"] is True
    # Other endpoints keep the site's body limit.
    status, refused = call("POST", "/api/decks/check/", token=token, body=raw)
    assert status == 400 and refused["code"] == "request-too-large"
