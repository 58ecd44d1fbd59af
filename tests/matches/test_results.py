"""Results through the services, on PostgreSQL: sudden-death chains, best of 3, reports,
disputes and staff corrections with their history."""

import pytest

from matches import services
from matches.models import Game, Match, ResultChange, Round, StandingsSnapshot
from rules.errors import DomainError
from tests.factories import user_of

pytestmark = pytest.mark.django_db


def first_match(event, staff):
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    match = round_.matches.filter(player_b__isnull=False).order_by("table").first()
    return round_, match


def both_report(match, payload):
    services.report_result(match=match, by_user=user_of(match.player_a), payload=payload)
    return services.report_result(match=match, by_user=user_of(match.player_b), payload=payload)


@pytest.mark.parametrize("prizes", [1, 6])
def test_sudden_death_replays_are_kept_as_a_chain_with_the_events_prize_count(
    make_event, staff, prizes
):
    event, _ = make_event(players=2, best_of=1, sudden_death_prizes=prizes)
    _, match = first_match(event, staff)
    both_report(
        match, {"games": [{"outcome": "both_won"}, {"outcome": "both_won"}, {"outcome": "b"}]}
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == "b"
    games = list(Game.objects.filter(match=match).order_by("sequence"))
    assert [(g.number, g.sequence, g.outcome, g.prizes) for g in games] == [
        (1, 0, "both_won", 6),
        (1, 1, "both_won", prizes),
        (1, 2, "b", prizes),
    ]
    assert games[1].replay_of == games[0] and games[2].replay_of == games[1]
    assert games[0].replay == games[1]


def test_a_report_that_stops_at_a_double_win_asks_for_the_sudden_death_game(make_event, staff):
    event, _ = make_event(players=2, best_of=1)
    _, match = first_match(event, staff)
    with pytest.raises(DomainError) as err:
        services.report_result(
            match=match,
            by_user=user_of(match.player_a),
            payload={"games": [{"outcome": "both_won"}]},
        )
    assert err.value.code == "result-incomplete"
    assert "sudden death" in err.value.message
    assert not match.reports.exists()


@pytest.mark.parametrize(
    ("games", "at_time", "result", "score"),
    [
        (["a", "b", "a"], False, "a", (2, 1)),
        (["b", "b"], False, "b", (0, 2)),
        (["a", "b"], True, "tie", (1, 1)),
        (["a", "tie"], True, "a", (1, 0)),
    ],
)
def test_best_of_three(make_event, staff, games, at_time, result, score):
    event, _ = make_event(players=2, best_of=3)
    _, match = first_match(event, staff)
    both_report(match, {"games": [{"outcome": o} for o in games], "at_time": at_time})
    match.refresh_from_db()
    assert match.result == result
    assert (match.a_game_wins, match.b_game_wins) == score


def test_disagreeing_reports_are_disputed_until_staff_decide(make_event, staff):
    event, _ = make_event(players=2)
    _, match = first_match(event, staff)
    services.report_result(
        match=match, by_user=user_of(match.player_a), payload={"games": [{"outcome": "a"}]}
    )
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    services.report_result(
        match=match, by_user=user_of(match.player_b), payload={"games": [{"outcome": "b"}]}
    )
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED and match.result == ""
    assert match.reports.count() == 2
    services.set_result(
        match=match, by_user=staff, payload={"games": [{"outcome": "a"}]}, note="judge call"
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == "a"
    change = ResultChange.objects.get(match=match)
    assert change.changed_by == staff and change.source == "staff" and change.note == "judge call"
    assert change.before is None and change.after["result"] == "a"


def test_only_the_two_players_report_and_only_staff_correct(make_event, staff):
    event, regs = make_event(players=4)
    _, match = first_match(event, staff)
    outsider = next(r for r in regs if r.pk not in (match.player_a_id, match.player_b_id))
    with pytest.raises(DomainError) as err:
        services.report_result(
            match=match, by_user=user_of(outsider), payload={"games": [{"outcome": "a"}]}
        )
    assert err.value.code == "not-your-match"
    with pytest.raises(DomainError) as err:
        services.set_result(
            match=match, by_user=user_of(match.player_a), payload={"games": [{"outcome": "a"}]}
        )
    assert err.value.code == "not-allowed"


def test_staff_corrections_keep_history_and_revise_published_standings(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, _ = make_event(players=4)
    round_, match = first_match(event, staff)
    with django_capture_on_commit_callbacks(execute=True):
        for m in round_.matches.all():
            services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
        services.close_round(round_=round_, by_user=staff)
    published = StandingsSnapshot.objects.get(event=event, round_number=1)
    assert published.published and published.version == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.set_result(
            match=match, by_user=staff, payload={"games": [{"outcome": "b"}]}, note="slip error"
        )
    changes = list(ResultChange.objects.filter(match=match).order_by("id"))
    assert [c.after["result"] for c in changes] == ["a", "b"]
    assert changes[1].before["result"] == "a"
    versions = list(
        StandingsSnapshot.objects.filter(event=event, round_number=1).order_by("version")
    )
    assert [v.version for v in versions] == [1, 2]
    assert versions[0].rows == published.rows  # the published version is kept as it was
    winner_rows = {r["registration"]: r["points"] for r in versions[1].rows}
    assert winner_rows[match.player_b_id] == 3 and winner_rows[match.player_a_id] == 0


def test_players_cannot_report_after_the_result_stands(make_event, staff):
    event, _ = make_event(players=2)
    _, match = first_match(event, staff)
    both_report(match, {"games": [{"outcome": "a"}]})
    with pytest.raises(DomainError) as err:
        services.report_result(
            match=match, by_user=user_of(match.player_a), payload={"games": [{"outcome": "b"}]}
        )
    assert err.value.code == "result-final"


def test_no_report_before_pairings_are_published(make_event, staff):
    event, _ = make_event(players=2)
    round_ = services.pair_next_round(event=event, by_user=staff)
    match = round_.matches.get()
    with pytest.raises(DomainError) as err:
        services.report_result(
            match=match, by_user=user_of(match.player_a), payload={"games": [{"outcome": "a"}]}
        )
    assert err.value.code == "round-not-public"
    assert round_.status == Round.Status.PAIRED


def test_many_results_at_once_queue_one_standings_run(
    make_event, staff, monkeypatch, django_capture_on_commit_callbacks
):
    from matches.models import StandingsState
    from notifications import tasks as notification_tasks
    from notifications.models import OutboxTask

    event, _ = make_event(players=16)
    round_ = services.pair_next_round(event=event, by_user=staff)
    queued = []
    # Standings requests are recorded as outbox tasks and dispatched through the outbox.
    monkeypatch.setattr(
        notification_tasks.run_outbox_task, "apply_async", lambda *a, **kw: queued.append(kw)
    )
    with django_capture_on_commit_callbacks(execute=True):
        for m in round_.matches.all():
            services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    assert len(queued) == 1 and queued[0]["countdown"] > 0
    assert list(OutboxTask.objects.values_list("task", flat=True)) == [
        "matches.recompute_standings"
    ]
    state = StandingsState.objects.get(event=event)
    assert state.requested == 8 and state.queued and state.dirty_from_round == 1
    services.recompute_standings(event_id=event.pk)
    state.refresh_from_db()
    assert not state.queued and state.computed == 8 and state.dirty_from_round is None
    assert len(StandingsSnapshot.objects.get(event=event, round_number=1).rows) == 16
