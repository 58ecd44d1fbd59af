"""Two web processes (gunicorn, as `make serve` runs them) on one database and one Redis
cache: a result reported through one is on the other's pairings at once, though that page
was served from the cache a moment before. No stale page, no stale ETag."""

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from matches import services
from tests.factories import user_of

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[1]
CSRF = "c" * 32


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int) -> None:
    for _ in range(150):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answers on {port}")


def call(port, method, path, *, session=None, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    head = {"Host": "127.0.0.1", **(headers or {})}
    if session:
        head |= {"Cookie": f"sessionid={session}; csrftoken={CSRF}", "X-CSRFToken": CSRF}
    if body is not None:
        head["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body, headers=head)
    resp = conn.getresponse()
    data = resp.read().decode()
    conn.close()
    return resp.status, dict(resp.getheaders()), data


def session_for(user) -> str:
    store = SessionStore()
    store["_auth_user_id"] = str(user.pk)
    store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    store["_auth_user_hash"] = user.get_session_auth_hash()
    store.create()
    return store.session_key


@pytest.fixture
def two_web_processes(tmp_path):
    redis_port = free_port()
    procs = [subprocess.Popen(["redis-server", "--port", str(redis_port), "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL)]  # fmt: skip
    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:"
           f"{db['PORT'] or 5432}/{db['NAME']}", "CACHE_URL": f"redis://127.0.0.1:{redis_port}/0",
           "CELERY_BROKER_URL": "", "VAR_DIR": str(tmp_path), "DATABASE_CONN_MAX_AGE": "0"}  # fmt: skip
    ports = [free_port(), free_port()]
    for port in ports:
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}",
             "--log-level", "warning"], cwd=ROOT, env=env))  # fmt: skip
    try:
        for port in (redis_port, *ports):
            wait_for(port)
        yield ports
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)


def test_a_result_reported_through_one_process_is_on_the_other_at_once(
    make_event, staff, two_web_processes
):
    first, second = two_web_processes
    event, _ = make_event(players=2)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    match = round_.matches.get()
    page = f"/events/{event.pk}/rounds/1/"

    status, headers, before = call(first, "GET", page)
    assert status == 200 and "won" not in before
    assert call(first, "GET", page, headers={"If-None-Match": headers["ETag"]})[0] == 304
    games = "&".join(f"game_{i}=me&reason_{i}=played" for i in range(1, event.best_of // 2 + 2))
    for reg in (match.player_a, match.player_b):
        mine = "me" if reg == match.player_a else "opponent"
        body = games.replace("=me", f"={mine}")
        status, _, _ = call(second, "POST", f"/matches/{match.pk}/report/",
                            session=session_for(user_of(reg)), body=body)  # fmt: skip
        assert status == 302

    status, _, after = call(first, "GET", page, headers={"If-None-Match": headers["ETag"]})
    assert status == 200
    assert f"{match.player_a.player.name} won" in after
