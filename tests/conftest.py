"""Shared fixtures.

Database tests run on PostgreSQL (`DATABASE_URL`, set by `make test`). Tasks run eagerly in
the test process by default; a test marked `worker` gets a real Celery worker process on the
real broker (`CELERY_BROKER_URL`), reading the same test database, so it must commit its data
(`transactional_db`).
"""

import itertools
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("worker"):
            item.fixturenames.append("celery_worker_process")


@pytest.fixture(autouse=True)
def _eager_tasks_unless_worker(request):
    """Run tasks in-process, except in tests marked `worker`. Pure tests (`-p no:django`)
    skip this entirely.

    Celery's eager `apply_async` saves, sets and restores one process-wide flag ("a result
    may not be waited for here", `celery._state`) around each call. Two threads of a
    concurrency test that commit at once can restore it in the wrong order and leave it
    set for good, and every later `.get()` in this process (the worker fixture's ping
    included) then fails with "Never call result.get() within a task!". The test process
    is never a worker: the flag is cleared after each test."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from celery._state import _set_task_join_will_block

    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = request.node.get_closest_marker("worker") is None
    yield
    app.conf.task_always_eager = previous
    _set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def _worker_idle_before_the_flush(request):
    """A test marked `worker` ends only once its worker holds no lease: a task still
    running after the test's assertions (the "standings are up" e-mails after a round's
    standings, say) and the flush's TRUNCATE of every table can deadlock, and PostgreSQL
    then fails the flush (seen in a CI run). The flush is `transactional_db`'s teardown,
    so that fixture is set up here first and torn down after this wait."""
    if request.node.get_closest_marker("worker") is None:
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    _wait_until_no_lease_is_held()


def _wait_until_no_lease_is_held(timeout: float = 15.0) -> None:
    """Until no row of any kind of leased work (`notifications.leases`) is leased, twice in
    a row a moment apart, or `timeout` seconds."""
    from django.db.models import Q
    from django.utils import timezone

    from notifications import leases

    deadline, quiet = time.monotonic() + timeout, 0
    while time.monotonic() < deadline and quiet < 2:
        now = timezone.now()
        held = any(
            kind.model.objects.filter(
                kind.pending_q() & Q(**{f"{kind.lease_field}__gt": now})
            ).exists()
            for kind in leases.kinds()
        )
        quiet = 0 if held else quiet + 1
        time.sleep(0.2)


@pytest.fixture(autouse=True)
def _broker_backoff_is_per_test(request):
    """After a failed publish a process leaves the broker alone for a few seconds
    (`notifications.outbox`): one test's unreachable broker must not make the next test's
    dispatch wait for the relay."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from notifications import outbox

    outbox._broker_down_until = 0.0
    yield
    outbox._broker_down_until = 0.0


@pytest.fixture(autouse=True)
def _page_versions_follow_each_write(request, monkeypatch):
    """A test's transaction never commits, so an event's page version (bumped after commit,
    `matches.page_cache.bump_on_commit`) would never move, and a public page read after a
    write would be the copy built before it. Here it is bumped at the write as well. Tests
    on a real database transaction (`transaction=True`: the live server, nginx) keep the
    product's order: bumped after the commit only."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    marker = request.node.get_closest_marker("django_db")
    names = request.fixturenames
    if (marker and marker.kwargs.get("transaction")) or {"transactional_db", "live_server"} & set(
        names
    ):
        yield
        return
    from matches import page_cache

    after_commit = page_cache.bump_on_commit

    def bump_now_and_on_commit(event_id):
        if event_id:
            page_cache.bump(event_id)
        after_commit(event_id)

    monkeypatch.setattr(page_cache, "bump_on_commit", bump_now_and_on_commit)
    yield


@pytest.fixture(autouse=True)
def _an_empty_cache_per_test(request):
    """Each test starts with an empty cache, as a new site does. A flushed test database
    (`transactional_db`) numbers its rows from 1 again, so an entry keyed by a row's id (a
    user's unread count, a viewer's kept page, an event's page version) would otherwise
    reach a later test's row with the same id (seen: a kept unread count of 3 for a new
    user 2). Only the in-process cache the tests use is cleared; a run against a shared
    Redis (`CACHE_URL`) keeps its entries."""
    if request.config.pluginmanager.hasplugin("django"):
        from django.core.cache import caches
        from django.core.cache.backends.locmem import LocMemCache

        if isinstance(caches["default"], LocMemCache):
            caches["default"].clear()
    yield


@pytest.fixture(autouse=True)
def _rows_kept_in_the_process_are_per_test(request):
    """The rows a report is checked against (`matches.report_frame`) and the event of each
    round and match (`matches.row_events`) are kept in the process; a flushed test
    database numbers its rows from 1 again, so each test starts without them."""
    if request.config.pluginmanager.hasplugin("django"):
        from matches import report_frame, row_events

        report_frame.clear()
        row_events.clear()
    yield


@pytest.fixture(autouse=True)
def _rule_editions_are_per_test(request):
    """The rule editions are kept in the shared cache and dropped when a row is saved; a
    test's rows are rolled back without a signal, so the next test starts without them."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from league.editions import forget_editions

    yield
    forget_editions()  # the shared cache's copy and each process's


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    """Tests that log in with a password need it hashed; MD5 keeps that instant."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield


@pytest.fixture(scope="session")
def worker_queue(worker_id):
    return f"test-{worker_id}-{uuid.uuid4().hex[:8]}"


def send_ping(broker_url: str, queue: str):
    """Send `league.ping` through `broker_url` (whatever the app's own broker is)."""
    from config.celery import app

    with app.connection_for_write(broker_url) as conn:
        return app.send_task("league.ping", queue=queue, connection=conn)


def start_worker(*, database_name: str, queue: str, broker_url: str, extra_env=None):
    """Start `celery worker` on `queue`, wait until it answers a ping task, return the process."""

    env = {
        **os.environ,
        "DATABASE_URL": os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + database_name,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        **(extra_env or {}),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"celery worker exited with {proc.returncode}")
        try:
            send_ping(broker_url, queue).get(timeout=5, disable_sync_subtasks=False)
            return proc
        except Exception:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("celery worker did not answer within 60 s")


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, worker_queue):
    """A real worker process on the real broker, reading this session's test database."""
    from django.db import connection

    from config.celery import app

    if not os.environ.get("CELERY_BROKER_URL"):
        pytest.fail("CELERY_BROKER_URL is not set: run the suite with `make test`.")
    with django_db_blocker.unblock():
        database_name = connection.settings_dict["NAME"]
    mail_dir = ROOT / "var" / "test-mail" / worker_queue
    mail_dir.mkdir(parents=True, exist_ok=True)
    proc = start_worker(
        database_name=database_name,
        queue=worker_queue,
        broker_url=app.conf.broker_url,
        extra_env={
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(mail_dir),
        },
    )
    proc.mail_dir = mail_dir
    app.conf.task_default_queue = worker_queue
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture
def make_user(db):
    """`make_user(username=None, **fields)`: an account with an unusable password (tests
    sign in with `force_login`) and an address `<username>@example.org` unless `email`
    is given (`email=""` for none)."""
    from tests.factories import UserFactory

    numbers = itertools.count(1)

    def make(username: str | None = None, *, email: str | None = None, **fields):
        username = username or f"player{next(numbers)}-{uuid.uuid4().hex[:6]}"
        return UserFactory(
            username=username,
            email=f"{username}@example.org" if email is None else email,
            **fields,
        )

    return make


@pytest.fixture
def cards(db):
    """The project's sample card set and the default formats (Standard, Expanded, ...)."""
    from decks.services import ensure_default_formats
    from tests.factories import sample_cards

    sample_cards()
    ensure_default_formats()


@pytest.fixture
def staff(db):
    """The organiser of `league`."""
    from tests.factories import UserFactory

    return UserFactory(username="organiser")


@pytest.fixture
def league(db, staff):
    from tests.factories import LeagueFactory

    return LeagueFactory(organisers=[staff])


@pytest.fixture
def season(league):
    from tests.factories import SeasonFactory

    return SeasonFactory(league=league)


@pytest.fixture
def make_event(season):
    """`make_event(players=0, **event_fields)` → (event, [registrations]): an event of
    `season` (a league organised by `staff`; the page tests' own league in `tests/pages`)
    with `players` checked-in players who have site accounts."""
    from tests.factories import EventFactory, checked_in_players

    def make(players: int = 0, **fields):
        event = EventFactory(**{"season": season, **fields})
        return event, checked_in_players(event, players)

    return make


@pytest.fixture
def keep_the_test_connection():
    """For tests that call straight into the WSGI application (schemathesis): its requests
    end with Django closing "old" connections, which would close the test's transaction;
    Django's own test client turns that off the same way."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
