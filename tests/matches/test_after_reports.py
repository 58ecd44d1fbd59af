"""A report's after-work (the opponent's notice, the dispute notice, the webhook and the
standings request) is one batched outbox row (`notifications.batches`), done by the worker
in batches: nothing lost, nothing twice, even when a batch fails, its lease is taken over,
or its kick is lost."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league.editions import all_editions
from matches import services
from matches.models import Match, StandingsState
from matches.services import after_work
from notifications import batches, leases, outbox
from notifications.models import Notification, OutboxTask
from tests.factories import user_of

pytestmark = pytest.mark.django_db

TWO_NIL = {"games": [{"outcome": "a"}, {"outcome": "a"}]}


def published_round(make_event, staff, players=8):
    event, _ = make_event(players=players, best_of=3)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    return event, list(round_.matches.filter(player_b__isnull=False).order_by("table"))


def batched():
    return OutboxTask.objects.filter(task__startswith=batches.PREFIX)


def report_all(matches, side="a", payload=TWO_NIL):
    for m in matches:
        reg = m.player_a if side == "a" else m.player_b
        services.report_result(match=m, by_user=user_of(reg), payload=payload)


def notices(kind="result_reported"):
    return list(Notification.objects.filter(kind=kind).values_list("key", flat=True))


def test_reports_leave_one_row_each_and_a_drain_does_them_once(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, matches = published_round(make_event, staff)
    with django_capture_on_commit_callbacks(execute=False) as kicks:
        report_all(matches, "a")
    # One kick a report, no publish of its own.
    assert sum(1 for callback in kicks if callback is batches.kick) == len(matches)
    assert batched().filter(done_at__isnull=True).count() == len(matches)
    assert notices() == []  # nothing in the request

    assert batches.drain() == len(matches)
    assert sorted(notices()) == sorted(
        f"reported:match:{m.pk}:report:{m.reports.get().pk}" for m in matches
    )
    assert batches.drain() == 0  # done rows are never done again
    assert len(notices()) == len(matches)

    with django_capture_on_commit_callbacks(execute=False):
        report_all(matches, "b")  # the opponents agree: results stand
    assert StandingsState.objects.filter(event=event).count() == 0  # not in the request
    assert batches.drain() == len(matches)
    state = StandingsState.objects.get(event=event)
    assert state.requested == 1 and state.queued and state.dirty_from_round == 1  # one a batch
    assert list(OutboxTask.objects.filter(done_at__isnull=True).values_list("task", flat=True)) == [
        "matches.recompute_standings"
    ]
    assert not batched().filter(done_at__isnull=True).exists()


def test_a_failing_batch_commits_nothing_and_is_done_once_later(
    make_event, staff, monkeypatch, django_capture_on_commit_callbacks
):
    event, matches = published_round(make_event, staff)
    waiting, agreed = matches[:2], matches[2:]
    with django_capture_on_commit_callbacks(execute=False):
        report_all(matches, "a")
        report_all(agreed, "b")
    batched().filter(args__0="reported", args__1__in=[m.pk for m in agreed]).delete()
    real = after_work.request_standings

    def broken(**kwargs):
        real(**kwargs)  # written, then the worker fails: the batch must roll back whole
        raise RuntimeError("worker failed mid-batch")

    monkeypatch.setattr(after_work, "request_standings", broken)
    with django_capture_on_commit_callbacks(execute=False):
        # The batch of all six fails; tried alone, the two notices go, the results wait.
        assert batches.drain() == len(waiting)
    assert len(notices()) == len(waiting)
    assert not StandingsState.objects.filter(event=event).exists()
    pending = batched().filter(done_at__isnull=True)
    assert pending.count() == len(agreed)
    assert all(r.last_error.startswith("RuntimeError") for r in pending)

    monkeypatch.setattr(after_work, "request_standings", real)
    pending.update(due_at=timezone.now())  # the backoff has passed
    assert batches.drain() == len(agreed)
    assert len(notices()) == len(waiting) and len(set(notices())) == len(waiting)
    assert StandingsState.objects.get(event=event).requested == 1


def test_a_batch_whose_lease_was_taken_over_records_nothing(
    make_event, staff, django_capture_on_commit_callbacks
):
    _event, matches = published_round(make_event, staff)
    with django_capture_on_commit_callbacks(execute=False):
        report_all(matches, "a")
    slow = leases.claim_many(batches.BATCHES, limit=100)
    # The slow worker's lease runs out; another claims the rows and does them.
    batched().update(leased_until=timezone.now() - timedelta(seconds=1))
    assert batches.drain() == len(matches)
    assert not batches._run(slow)  # the slow worker's late batch: rolled back
    assert len(notices()) == len(matches) and len(set(notices())) == len(matches)


def test_a_lost_kick_is_found_by_the_relay(
    make_event, staff, settings, monkeypatch, django_capture_on_commit_callbacks
):
    _event, matches = published_round(make_event, staff)
    with django_capture_on_commit_callbacks(execute=False):  # the kick never runs
        report_all(matches[:2], "a")
    assert notices() == []
    assert outbox.relay([batches.BATCHES]) == {"batches": 0}  # within the grace period
    batched().update(
        due_at=timezone.now() - timedelta(seconds=settings.NOTIFICATION_RELAY_GRACE_SECONDS + 1)
    )
    assert outbox.relay([batches.BATCHES]) == {"batches": 2}  # eager: done at once
    assert len(notices()) == 2
    assert outbox.relay() == {k.name: 0 for k in leases.kinds()}
    # Ordinary outbox tasks never take a batched row.
    assert not outbox.due_outbox_tasks().filter(task__startswith=batches.PREFIX).exists()


def test_a_dispute_tells_the_staff_from_the_worker(
    make_event, staff, django_capture_on_commit_callbacks
):
    _event, matches = published_round(make_event, staff, players=2)
    (match,) = matches
    with django_capture_on_commit_callbacks(execute=True):  # eager: the kick drains
        services.report_result(match=match, by_user=user_of(match.player_a), payload=TWO_NIL)
        services.report_result(
            match=match,
            by_user=user_of(match.player_b),
            payload={"games": [{"outcome": "b"}, {"outcome": "b"}]},
        )
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    keys = list(Notification.objects.filter(recipient=staff).values_list("key", flat=True))
    prefix = f"disputed:match:{match.pk}:report:{match.reports.get(side='b').pk}"
    assert [k for k in keys if k.startswith("disputed:")] == [f"{prefix}:staff:{staff.pk}"]
    assert not batched().filter(done_at__isnull=True).exists()


def test_the_report_path_s_queries_are_pinned(
    make_event, staff, client, settings, django_capture_on_commit_callbacks
):
    """The page form and the API each run a fixed, small set of queries (no notice, no
    webhook, no standings in the request), the match read and locked alone: its round,
    event and players are kept in the process (`matches.report_frame`) since the round's
    first report."""
    from league.services.tokens import create_api_token

    with django_capture_on_commit_callbacks(execute=True):  # committed, as in production
        _event, matches = published_round(make_event, staff, players=6)
    first, second, third = matches
    services.report_result(match=third, by_user=user_of(third.player_a), payload=TWO_NIL)
    form = {"game_1": "me", "reason_1": "played", "game_2": "me", "reason_2": "played"}
    client.force_login(user_of(first.player_a))
    client.get("/")  # the session exists
    all_editions()  # the shared cache holds the rule editions, as in production
    with CaptureQueriesContext(connection) as page:
        response = client.post(f"/matches/{first.pk}/report/", form)
    assert response.status_code == 302
    sql = [q["sql"] for q in page.captured_queries]
    # The session (production: from the cache); the transaction: the match read with
    # its lock (the user is cached), reports, report, status, outbox row.
    assert len(sql) == 1 + 2 + 5, "\n".join(sql)
    assert "FOR UPDATE" in sql[2] and sql.count(sql[2]) == 1, "\n".join(sql)
    assert "JOIN" not in sql[2], sql[2]
    assert not any("auth_user" in q for q in sql)
    assert not any(
        "webhooks_" in q or "standingsstate" in q or "notifications_n" in q for q in sql
    ), "\n".join(sql)

    services.report_result(match=second, by_user=user_of(second.player_a), payload=TWO_NIL)
    key = create_api_token(user=user_of(second.player_b), name="t")[1]
    client.logout()
    client.get(f"/api/matches/{second.pk}/", HTTP_AUTHORIZATION=f"Token {key}")  # used once
    with CaptureQueriesContext(connection) as api:
        response = client.post(
            f"/api/matches/{second.pk}/report/",
            TWO_NIL,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {key}",
        )
    assert response.status_code == 200, response.content
    sql = [q["sql"] for q in api.captured_queries]
    # The transaction (the token and its user are cached since the GET): the match read
    # with its lock, reports, report, games, match, history, outbox row; the answer shows
    # the games just written, not read again.
    assert len(sql) == 2 + 7, "\n".join(sql)
    assert "FOR UPDATE" in sql[1] and "JOIN" not in sql[1], "\n".join(sql)
    assert not any("league_apitoken" in q or "auth_user" in q for q in sql), "\n".join(sql)
    assert not any(
        "webhooks_" in q or "standingsstate" in q or "notifications_n" in q for q in sql
    ), "\n".join(sql)
    assert client.post(
        "/api/matches/999999/report/", TWO_NIL, content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    ).status_code == 404  # fmt: skip


def test_reports_in_the_same_moment_publish_one_drain_that_waits_to_gather_them(
    make_event, staff, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """With a broker (not eager), the first commit publishes one drain, told to wait
    `OUTBOX_BATCH_GATHER_SECONDS`; the commits before it runs publish nothing more; once
    it has run, the next commit publishes again."""
    from celery import current_app

    _event, matches = published_round(make_event, staff)
    settings.OUTBOX_BATCH_GATHER_SECONDS = 0.75
    current_app.conf.task_always_eager = False  # the root conftest restores it
    published = []
    task = outbox.task_named(batches.DRAIN_TASK)
    monkeypatch.setattr(task, "apply_async", lambda **kw: published.append(kw))
    with django_capture_on_commit_callbacks(execute=True):
        report_all(matches[:3], "a")
    assert published == [{"countdown": 0.75}]
    assert batches.drain() == 3  # the drain that was published, run by the worker
    with django_capture_on_commit_callbacks(execute=True):
        report_all(matches[3:], "a")
    assert published == [{"countdown": 0.75}] * 2
    settings.OUTBOX_BATCH_GATHER_SECONDS = 3600  # never past the kick flag's life
    assert batches.gather_seconds() == batches.KICK_SECONDS / 2
