import pytest

from matches import services


@pytest.fixture
def running(make_event, staff):
    """`running(players=4, **event_fields)` → (event, round 1 with its clock running)."""

    def make(players: int = 4, **fields):
        event, _ = make_event(players=players, **fields)
        round_ = services.pair_next_round(event=event, by_user=staff)
        services.start_clock(round_=round_, by_user=staff)
        round_.refresh_from_db()
        return event, round_

    return make
