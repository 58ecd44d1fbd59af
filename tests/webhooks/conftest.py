import pytest

from tests.factories import EventFactory, LeagueFactory, SeasonFactory

from .receiver import Receiver


@pytest.fixture
def receiver():
    with Receiver() as r:
        yield r


@pytest.fixture
def league(db, staff):
    return LeagueFactory(organisers=[staff])


@pytest.fixture
def allow_local(settings):
    """The tests' own receiver is on 127.0.0.1: allowed only through the setting."""
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    return settings


@pytest.fixture
def league_event(league):
    return EventFactory(season=SeasonFactory(league=league))
