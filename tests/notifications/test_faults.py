"""Faults injected around a real worker, a real (private) Redis broker and a real SMTP server.

Each test starts its own redis-server, aiosmtpd server and `celery worker -B` (see
`faults.py`, which also says how time is compressed). Marked `fault`: about 3 minutes in all.
"""

from __future__ import annotations

import os
import time
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse

from notifications import outbox, services
from notifications.models import EmailStatus, Notification, OutboxTask

from . import faults
from .helpers import item

pytestmark = [pytest.mark.fault, pytest.mark.django_db(transaction=True)]
pytest.importorskip("aiosmtpd")


class Rig:
    """A private broker, an SMTP server and (once `start_worker` is called) a worker."""

    def __init__(self, handler: faults.RecordingHandler):
        self.queue = f"fault-{uuid.uuid4().hex[:8]}"
        self.broker = faults.RedisBroker()
        self.broker.start()
        self.handler = handler
        self.smtp = faults.start_smtp(handler)
        self.worker = None
        base = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
        self.database_url = f"{base}/{connection.settings_dict['NAME']}"
        self.extra: dict = {}
        self.restarts = 0

    def start_worker(self, **extra):
        self.extra = {**self.extra, **extra}
        env = faults.worker_env(
            database_url=self.database_url,
            broker_url=self.broker.url,
            queue=self.queue,
            smtp_port=self.smtp.port,
            **self.extra,
        )
        self.worker = faults.start_worker(env, self.queue)

    def delivered(self, expected: set) -> bool:
        self.supervise()
        return self.handler.tally(expected)["delivered_once"] == len(expected)

    def supervise(self) -> None:
        """Restart the worker if it exited, as systemd or a container runtime would (kombu's
        Redis transport can exit the worker when the broker vanishes under an unacked
        task: "Unrecoverable error: AttributeError ... 'hostname'")."""
        if self.worker is not None and self.worker.poll() is not None:
            self.restarts += 1
            self.start_worker()

    def close(self):
        if self.worker:
            faults.stop_worker(self.worker)
        self.smtp.stop()
        self.broker.stop()


@pytest.fixture
def rig(request):
    from config.celery import app

    saved = (app.conf.broker_write_url, app.conf.task_default_queue, app.conf.task_always_eager)
    rigs = []

    def make(handler=None, *, page_broker_url=None):
        made = Rig(handler or faults.RecordingHandler())
        rigs.append(made)
        point_app(page_broker_url or made.broker.url, made.queue)
        return made

    def point_app(url, queue):
        app.conf.broker_write_url = url  # what publishing uses (`connection_for_write`)
        app.conf.task_default_queue = queue
        app.conf.task_always_eager = False
        app._pool = None
        app.amqp._producer_pool = None
        outbox._broker_down_until = 0.0

    make.point_app = point_app
    yield make
    for made in rigs:
        made.close()
    app.conf.broker_write_url, app.conf.task_default_queue, app.conf.task_always_eager = saved
    app._pool = None
    app.amqp._producer_pool = None
    outbox._broker_down_until = 0.0


def app_publishes_to(url: str) -> bool:
    from config.celery import app

    with app.connection_for_write() as connection:
        return connection.port == int(url.rsplit(":", 1)[1].split("/")[0])


def warm_up_publisher() -> None:
    from config.celery import app

    app.send_task("league.ping", ignore_result=True)


def users(count: int, tag: str):
    model = get_user_model()
    model.objects.bulk_create(
        model(username=f"{tag}{i}", email=f"{tag}{i}@example.org", first_name=f"P{i}")
        for i in range(count)
    )
    return list(model.objects.filter(username__startswith=tag).order_by("pk"))


def expected_for(rows) -> set[tuple[str, str]]:
    return {
        (n.recipient.email, n.subject)
        for n in rows.select_related("recipient").filter(email_status__in=["pending", "sent"])
    }


def figures(name, handler, expected, recovery=None):
    tally = handler.tally(expected)
    print(f"\n[{name}] {tally} time to recovery: {recovery}")
    return tally


# --- the broker ------------------------------------------------------------------------


def _pair_event(make_event, staff):
    from matches import services as match_services

    event, _regs = make_event(players=8)
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    return event, round_


def _finish_matches(round_, staff):
    from matches import services as match_services

    games = [{"outcome": "a"}] * (round_.event.best_of // 2 + 1)
    for m in round_.matches.filter(player_b__isnull=False):
        match_services.set_result(match=m, by_user=staff, payload={"games": games})


def _post_action(client, event, round_, action):
    start = time.monotonic()
    response = client.post(
        reverse("round-action", args=[event.pk, round_.number]), {"action": action}
    )
    return response, time.monotonic() - start


def test_broker_down_at_publish_and_close_pages_answer_and_all_is_delivered_later(
    rig, client, make_event, staff
):
    handler = faults.RecordingHandler()
    rigged = rig(handler)
    rigged.start_worker()
    event, round_ = _pair_event(make_event, staff)
    client.force_login(staff)

    assert app_publishes_to(rigged.broker.url)
    warm_up_publisher()  # a web process that has published before: no first-import cost
    rigged.broker.stop()
    published, publish_seconds = _post_action(client, event, round_, "publish")
    _finish_matches(round_, staff)
    closed, close_seconds = _post_action(client, event, round_, "close")

    print(f"\n[broker down] publish {publish_seconds:.2f} s, close {close_seconds:.2f} s")
    assert (published.status_code, closed.status_code) == (302, 302)
    assert publish_seconds < 3 and close_seconds < 3
    assert OutboxTask.objects.filter(done_at__isnull=True).exists()  # the standings request
    rigged.broker.start()  # the same port, empty
    back = time.monotonic()
    # 8 pairings and, once the standings task has run, 8 standings e-mails.
    faults.wait_for(
        lambda: Notification.objects.filter(kind="standings_published").count() == 8, 60
    )
    expected = expected_for(Notification.objects.all())
    assert len(expected) == 16
    faults.wait_for(lambda: rigged.delivered(expected), 90)
    tally = figures("broker down", handler, expected, round(time.monotonic() - back, 1))
    assert tally["lost"] == 0 and tally["copies"] == 0
    assert not OutboxTask.objects.filter(done_at__isnull=True).exists()


def test_a_hung_broker_keeps_pages_answering_within_3_seconds(rig, client, make_event, staff):
    hung = faults.HungServer()
    handler = faults.RecordingHandler()
    rigged = rig(handler)
    rigged.start_worker()  # on the real broker: its relay delivers what the pages recorded
    warm_up_publisher()
    rig.point_app(hung.url, rigged.queue)  # the pages' broker hangs
    assert app_publishes_to(hung.url)
    event, round_ = _pair_event(make_event, staff)
    client.force_login(staff)
    try:
        published, publish_seconds = _post_action(client, event, round_, "publish")
        _finish_matches(round_, staff)
        closed, close_seconds = _post_action(client, event, round_, "close")
        dashboard = client.get(reverse("event-dashboard", args=[event.pk]))
    finally:
        hung.close()

    print(f"\n[hung broker] publish {publish_seconds:.2f} s, close {close_seconds:.2f} s")
    assert "as soon as it is back" in dashboard.content.decode()
    assert (published.status_code, closed.status_code, dashboard.status_code) == (302, 302, 200)
    assert publish_seconds < 3 and close_seconds < 3
    faults.wait_for(
        lambda: Notification.objects.filter(kind="standings_published").count() == 8, 60
    )
    expected = expected_for(Notification.objects.all())
    faults.wait_for(lambda: rigged.delivered(expected), 60)
    assert handler.tally(expected)["copies"] == 0


# --- the worker ------------------------------------------------------------------------


def test_worker_killed_mid_batch_every_email_arrives_copies_keep_their_message_id(rig):
    handler = faults.RecordingHandler()
    rigged = rig(handler)
    # Two messages a second, so the kill lands in the middle of the batch.
    rigged.start_worker(NOTIFICATION_SEND_RATE_PER_MINUTE=120)
    players = users(64, "kill")
    services.notify(kind="pairings_published", items=[item(p, f"kill:{p.pk}") for p in players])
    expected = expected_for(Notification.objects.all())

    faults.wait_for(lambda: len(handler.received) >= 10, 60)
    faults.stop_worker(rigged.worker, kill=True)
    killed = time.monotonic()
    rigged.start_worker()  # a supervisor restarts it
    faults.wait_for(lambda: rigged.delivered(expected) or _all_sent(), 120)
    recovery = round(time.monotonic() - killed, 1)
    faults.wait_for(lambda: rigged.delivered(expected), 10)
    tally = figures("worker SIGKILL", handler, expected, recovery)
    assert tally["lost"] == 0
    assert tally["copies_with_other_message_id"] == 0
    assert recovery < 120


def _all_sent() -> bool:
    return not Notification.objects.filter(email_status=EmailStatus.PENDING).exists()


def test_broker_restarted_empty_during_a_retry_wait(rig):
    # The server refuses for 6 s: every row waits for a retry when the broker loses its data.
    handler = faults.RecordingHandler()
    rigged = rig(handler)
    rigged.start_worker()
    players = users(20, "empty")
    handler.refuse_until = time.monotonic() + 8
    services.notify(kind="pairings_published", items=[item(p, f"empty:{p.pk}") for p in players])
    expected = expected_for(Notification.objects.all())
    faults.wait_for(lambda: handler.refused >= 1, 60)

    rigged.broker.stop()
    rigged.broker.start()
    back = time.monotonic()
    faults.wait_for(lambda: rigged.delivered(expected), 90)
    tally = figures("broker restarted empty", handler, expected, round(time.monotonic() - back, 1))
    print(f"[broker restarted empty] worker restarts: {rigged.restarts}")
    assert tally["lost"] == 0 and tally["copies"] == 0
    assert not Notification.objects.exclude(email_status=EmailStatus.SENT).exists()


# --- the mail server -------------------------------------------------------------------


def test_a_server_limiting_to_30_a_minute_gets_all_256_emails_none_failed(rig):
    # A "minute" of 2 s: at most 30 messages per 2 s, and the sender set to the same rate
    # (30 per 2 s = 900 a minute). Refusals when the windows drift apart are retried.
    handler = faults.RecordingHandler(limit=30, window=2.0)
    rigged = rig(handler)
    rigged.start_worker(NOTIFICATION_SEND_RATE_PER_MINUTE=900)
    players = users(256, "rate")
    start = time.monotonic()
    services.notify(kind="pairings_published", items=[item(p, f"rate:{p.pk}") for p in players])
    expected = expected_for(Notification.objects.all())
    faults.wait_for(lambda: rigged.delivered(expected), 120)
    tally = figures("30 a minute", handler, expected, round(time.monotonic() - start, 1))
    assert tally["lost"] == 0 and tally["copies"] == 0
    assert not Notification.objects.filter(email_status=EmailStatus.FAILED).exists()


def test_a_server_refusing_for_15_minutes_then_accepting_gets_everything(rig):
    # Time at 1/60: the refusal lasts 15 s ("15 minutes"); the backoff starts at 0.5 s
    # (30 s) and is capped at 15 s (15 minutes); the budget stays 24 hours.
    handler = faults.RecordingHandler()
    rigged = rig(handler)
    rigged.start_worker(NOTIFICATION_RETRY_BASE_SECONDS=0.5, NOTIFICATION_RETRY_MAX_SECONDS=15)
    players = users(64, "refuse")
    handler.refuse_until = time.monotonic() + 15
    services.notify(kind="pairings_published", items=[item(p, f"refuse:{p.pk}") for p in players])
    expected = expected_for(Notification.objects.all())
    faults.wait_for(lambda: rigged.delivered(expected), 90)
    accepted_after = round(time.monotonic() - handler.refuse_until, 1)
    tally = figures("refusing 15 minutes", handler, expected, accepted_after)
    assert handler.refused > 0
    assert tally["lost"] == 0 and tally["copies"] == 0
    assert not Notification.objects.filter(email_status=EmailStatus.FAILED).exists()


# --- batched after-work ------------------------------------------------------------------


def test_worker_killed_mid_batch_of_reports_after_work_each_done_exactly_once(
    rig, make_event, staff
):
    """A report's notice, webhook and standings request are one batched row; the worker is
    SIGKILLed while its batch transaction waits on a lock, after writing the notices: the
    batch commits nothing, and once a new worker runs every notice exists once and the
    standings are requested once."""
    import psycopg

    from matches import services as match_services
    from matches.models import Match, StandingsState
    from notifications import batches
    from tests.factories import user_of

    rigged = rig(faults.RecordingHandler())
    rigged.start_worker()
    event, round_ = _pair_event(make_event, staff)
    match_services.publish_round(round_=round_, by_user=staff)
    StandingsState.objects.get_or_create(event=event)
    matches = list(round_.matches.filter(player_b__isnull=False).order_by("table"))
    waiting, agreed = matches[:2], matches[2:]
    games = {"games": [{"outcome": "a"}] * (event.best_of // 2 + 1)}
    rows = OutboxTask.objects.filter(task__startswith=batches.PREFIX)

    # Another transaction holds the event's standings row: the batch will wait on it.
    dsn = rigged.database_url.replace("postgres://", "postgresql://", 1)
    with psycopg.connect(dsn) as holder:
        holder.execute(
            "SELECT 1 FROM matches_standingsstate WHERE event_id = %s FOR UPDATE", [event.pk]
        )
        for m in matches:
            match_services.report_result(match=m, by_user=user_of(m.player_a), payload=games)
        for m in agreed:
            match_services.report_result(match=m, by_user=user_of(m.player_b), payload=games)

        def batch_waits() -> bool:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND query LIKE '%%matches_standingsstate%%'"
                )
                return cursor.fetchone()[0] > 0

        faults.wait_for(batch_waits, 60)
        faults.stop_worker(rigged.worker, kill=True)
        holder.rollback()  # the lock goes; the killed worker's transaction can only roll back
    faults.wait_for(lambda: not batch_waits(), 30)
    assert Notification.objects.filter(kind="result_reported").count() == 0
    assert StandingsState.objects.get(event=event).requested == 0
    assert rows.filter(done_at__isnull=True).count() >= 1

    rigged.start_worker()  # a supervisor restarts it; the relay finds the leased rows
    faults.wait_for(lambda: not rows.filter(done_at__isnull=True).exists(), 90)
    keys = list(Notification.objects.filter(kind="result_reported").values_list("key", flat=True))
    assert sorted(keys) == sorted(
        f"reported:match:{m.pk}:report:{m.reports.get().pk}" for m in waiting
    )
    assert StandingsState.objects.get(event=event).requested == 1
    assert Match.objects.filter(pk__in=[m.pk for m in agreed], status="final").count() == 2
