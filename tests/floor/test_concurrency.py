"""Two judges take the same call at the same moment: real transactions in two threads."""

import pytest

from floor import services
from floor.models import JudgeCall
from matches import services as match_services
from rules.errors import DomainError
from tests.factories import UserFactory, user_of
from tests.matches.test_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_judges_taking_one_call_at_once_one_wins_the_other_is_told(make_event, staff):
    event, _ = make_event(players=2)
    second = UserFactory(username="second-judge")
    event.season.league.organisers.add(second)
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    match_services.start_clock(round_=round_, by_user=staff)
    match = round_.matches.get()
    call = services.call_judge(match=match, by_user=user_of(match.player_a), reason="ruling")
    for _ in range(5):  # a race that goes one way by luck is run a few times
        JudgeCall.objects.filter(pk=call.pk).update(status="open", taken_by=None, taken_at=None)
        outcomes = run_together(
            lambda: services.take_call(call=call, by_user=staff),
            lambda: services.take_call(call=call, by_user=second),
        )
        kinds = sorted(kind for kind, _ in outcomes)
        assert kinds == ["error", "ok"]
        winner = next(value for kind, value in outcomes if kind == "ok").taken_by
        error = next(value for kind, value in outcomes if kind == "error")
        assert isinstance(error, DomainError) and error.code == "call-taken"
        assert winner.username in error.message
        stored = JudgeCall.objects.get(pk=call.pk)
        assert (stored.status, stored.taken_by_id) == ("taken", winner.pk)
    assert JudgeCall.objects.count() == 1
