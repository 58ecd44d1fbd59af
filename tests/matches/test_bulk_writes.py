"""A queryset's bulk writes of the rows the public round pages show bump the event's page
version, as `save()` does (`league.bulk_writes`, `matches.signals`): an `update()` can no
longer leave the pairings stale without a word."""

import pytest

from league.models import Event, Player, Registration
from matches import page_cache
from matches.models import Match, Round, StandingsSnapshot
from tests.factories import seat_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(make_event, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        event, (a, b, c, d) = make_event(players=4)
        other, _ = make_event(players=2)
        round_ = seat_round(event, [(a, b), (c, d)])
    return event, other, round_


def bumped(event, write, capture) -> bool:
    before = page_cache.version(event.pk)
    with capture(execute=True):
        write()
    return page_cache.version(event.pk) != before


@pytest.mark.parametrize(
    "write",
    [
        lambda e, r: Match.objects.filter(round=r, table=1).update(table=9),
        lambda e, r: Round.objects.filter(pk=r.pk).update(ends_at=None),
        lambda e, r: Registration.objects.filter(event=e).update(in_top_cut=True),
        lambda e, r: Event.objects.filter(pk=e.pk).update(name="Renamed Cup"),
        lambda e, r: Player.objects.filter(registrations__event=e).update(name="Anonymous"),
        lambda e, r: StandingsSnapshot.objects.bulk_create(
            [StandingsSnapshot(event=e, round_number=1, rows=[], published=True)]
        ),
        lambda e, r: Match.objects.bulk_update(
            [m for m in r.matches.all() if not setattr(m, "table", m.table + 10)], ["table"]
        ),
    ],
    ids=[
        "match-update",
        "round-update",
        "registration-update",
        "event-update",
        "player-update",
        "snapshot-bulk-create",
        "match-bulk-update",
    ],
)
def test_a_bulk_write_bumps_the_events_page_version(
    seated, write, django_capture_on_commit_callbacks
):
    event, other, round_ = seated
    other_version = page_cache.version(other.pk)
    assert bumped(event, lambda: write(event, round_), django_capture_on_commit_callbacks)
    assert page_cache.version(other.pk) == other_version  # only the events written


def test_an_update_that_matches_nothing_bumps_nothing(seated, django_capture_on_commit_callbacks):
    event, _, round_ = seated
    assert not bumped(
        event,
        lambda: Match.objects.filter(round=round_, table=99).update(table=98),
        django_capture_on_commit_callbacks,
    )


def test_a_transaction_bumps_each_event_once(seated, django_capture_on_commit_callbacks):
    """A report saves its report, match, games and history: one bump after the commit says
    it. A bump asked in a savepoint that rolls back is asked again by the next write."""
    from django.db import transaction

    event, other, _ = seated
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        page_cache.bump_on_commit(event.pk)
        page_cache.bump_on_commit(event.pk)
        page_cache.bump_on_commit(other.pk)
    assert len(callbacks) == 2
    with django_capture_on_commit_callbacks() as callbacks:  # those done: asked again
        with pytest.raises(RuntimeError), transaction.atomic():
            page_cache.bump_on_commit(event.pk)
            raise RuntimeError("rolled back")
        page_cache.bump_on_commit(event.pk)
    assert len(callbacks) == 1
    before = page_cache.version(event.pk)
    callbacks[0]()
    assert page_cache.version(event.pk) != before
