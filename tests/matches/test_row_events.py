"""The event of a round or a match, kept in the process (`matches.row_events`): a match's
with every match of its round in one query, then none."""

import pytest

from matches import row_events, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def rounds(make_event, staff):
    event, _ = make_event(players=8)
    first = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=first, by_user=staff)
    other, _ = make_event(players=4)
    second = services.pair_next_round(event=other, by_user=staff)
    return first, second


def test_a_matchs_event_comes_with_its_rounds_matches_in_one_query(
    rounds, django_assert_num_queries
):
    first, second = rounds
    mine = list(first.matches.values_list("pk", flat=True))
    assert len(mine) == 4
    with django_assert_num_queries(1):
        assert row_events.match_event(mine[0]) == first.event_id
    with django_assert_num_queries(0):
        assert [row_events.match_event(str(pk)) for pk in mine] == [first.event_id] * 4
    theirs = second.matches.values_list("pk", flat=True).first()
    with django_assert_num_queries(1):  # another round: its own query
        assert row_events.match_event(theirs) == second.event_id


def test_an_unknown_or_malformed_id_has_no_event_and_nothing_is_kept(
    rounds, django_assert_num_queries
):
    first, _ = rounds
    with django_assert_num_queries(0):
        assert row_events.match_event("12a") is None and row_events.round_event("") is None
    with django_assert_num_queries(1):
        assert row_events.match_event(999_999) is None
    with django_assert_num_queries(1):
        assert row_events.round_event(999_999) is None
    with django_assert_num_queries(1):
        assert row_events.round_event(first.pk) == first.event_id
    with django_assert_num_queries(0):
        assert row_events.round_event(first.pk) == first.event_id
