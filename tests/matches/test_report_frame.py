"""A report reads and locks the match row alone; its round, event and players come from
the copy kept in the process (`matches.report_frame`), which any committed write to
those rows replaces, and which a report never does."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from matches import report_frame, services
from matches.models import Match
from rules.errors import DomainError
from tests.factories import UserFactory, user_of

pytestmark = pytest.mark.django_db

TWO_NIL = {"games": [{"outcome": "a"}, {"outcome": "a"}]}


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a block's after-commit work (its version bumps), as a commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def matches(make_event, staff, committed):
    with committed():
        event, _ = make_event(players=6, best_of=3)
        round_ = services.pair_next_round(event=event, by_user=staff)
        services.publish_round(round_=round_, by_user=staff)
    return list(round_.matches.filter(player_b__isnull=False).order_by("table"))


def queries(ctx) -> list[str]:
    """The queries run, without the test transaction's savepoints."""
    return [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]


def locked(match_id):
    with transaction.atomic():
        return report_frame.locked_match(match_id)


def test_the_frame_is_read_once_a_round_then_kept(matches):
    first, second, _ = matches
    with CaptureQueriesContext(connection) as once:
        match = locked(first.pk)
    # The match locked; the round's event; the round with its event; every registration.
    assert len(queries(once)) == 4, queries(once)
    assert "FOR UPDATE" in queries(once)[0] and "JOIN" not in queries(once)[0]
    with CaptureQueriesContext(connection) as kept:
        match = locked(second.pk)
    assert len(queries(kept)) == 1, queries(kept)
    assert match.round.event.season.league.pk and match.round.number == 1
    assert match.side_of_user(user_of(second.player_b)) == "b"
    for kept, row in (
        (match.player_b, second.player_b),
        (match.player_b.player, second.player_b.player),
    ):
        fields = [f.attname for f in type(row)._meta.concrete_fields]
        row.refresh_from_db()
        assert [getattr(kept, f) for f in fields] == [getattr(row, f) for f in fields]
        assert not kept._state.adding and kept._state.db == "default"
    # Reports move the event's page version, never the frame's.
    services.report_result(match=second, by_user=user_of(second.player_a), payload=TWO_NIL)
    with CaptureQueriesContext(connection) as after:
        locked(first.pk)
    assert len(queries(after)) == 1, queries(after)


def test_each_report_gets_its_own_objects(matches):
    first, _, _ = matches
    locked(first.pk).round.event.best_of = 7
    assert locked(first.pk).round.event.best_of == 3


def test_a_committed_write_is_seen_by_the_next_report(matches, committed):
    first, _, _ = matches
    locked(first.pk)  # kept
    player = first.player_a.player
    newcomer = UserFactory()
    with committed():
        player.user = newcomer
        player.save()
        event = first.round.event
        event.sudden_death_prizes = 1
        event.save()
    match = locked(first.pk)
    assert match.side_of_user(newcomer) == "a"
    assert match.round.event.sudden_death_prizes == 1
    services.report_result(match=first, by_user=newcomer, payload=TWO_NIL)
    assert Match.objects.get(pk=first.pk).status == Match.Status.REPORTED


def test_a_player_no_longer_in_the_match_is_refused_at_once(matches, committed):
    first, _, _ = matches
    before = user_of(first.player_a)
    locked(first.pk)
    with committed():
        player = first.player_a.player
        player.user = UserFactory()
        player.save()
    with pytest.raises(DomainError) as refused:
        services.report_result(match=first, by_user=before, payload=TWO_NIL)
    assert refused.value.code == "not-your-match"


def test_a_transaction_sees_its_own_writes_and_a_rollback_leaves_nothing(matches):
    first, _, _ = matches
    locked(first.pk)
    event = first.round.event

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        event.best_of = 1
        event.save()
        assert report_frame.locked_match(first.pk).round.event.best_of == 1
        raise Undo
    assert locked(first.pk).round.event.best_of == 3
