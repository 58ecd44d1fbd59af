"""Concurrent requests on PostgreSQL: real transactions in separate threads."""

import threading

import pytest
from django.db import connection

from matches import services
from matches.models import Match, Round
from rules.errors import DomainError
from tests.factories import user_of

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(*calls):
    """Start the calls at the same moment, each in its own thread and connection."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def worker(i, call):
        try:
            barrier.wait()
            outcomes[i] = ("ok", call())
        except Exception as exc:
            outcomes[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


def test_two_clicks_on_pair_next_round_make_one_round(make_event, staff):
    event, _ = make_event(players=8)
    outcomes = run_together(
        lambda: services.pair_next_round(event=event, by_user=staff),
        lambda: services.pair_next_round(event=event, by_user=staff),
    )
    assert Round.objects.filter(event=event).count() == 1
    kinds = sorted(kind for kind, _ in outcomes)
    assert kinds == ["error", "ok"]
    error = next(value for kind, value in outcomes if kind == "error")
    assert isinstance(error, DomainError) and error.code == "round-open"


def test_two_reports_at_the_same_moment_lose_nothing(make_event, staff):
    event, _ = make_event(players=2)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    match = round_.matches.get()
    payload = {"games": [{"outcome": "both_won"}, {"outcome": "a"}]}
    outcomes = run_together(
        lambda: services.report_result(
            match=match, by_user=user_of(match.player_a), payload=payload
        ),
        lambda: services.report_result(
            match=match, by_user=user_of(match.player_b), payload=payload
        ),
    )
    assert [kind for kind, _ in outcomes] == ["ok", "ok"]
    match.refresh_from_db()
    assert match.reports.count() == 2
    assert match.status == Match.Status.FINAL and match.result == "a"
    assert match.games.count() == 2


def test_concurrent_disagreeing_reports_end_disputed(make_event, staff):
    event, _ = make_event(players=2)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    match = round_.matches.get()
    run_together(
        lambda: services.report_result(
            match=match, by_user=user_of(match.player_a), payload={"games": [{"outcome": "a"}]}
        ),
        lambda: services.report_result(
            match=match, by_user=user_of(match.player_b), payload={"games": [{"outcome": "b"}]}
        ),
    )
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED and match.reports.count() == 2
