import pytest

from tests.factories import EventFactory

from .receiver import Receiver


@pytest.fixture
def receiver():
    with Receiver() as r:
        yield r


@pytest.fixture
def allow_local(settings):
    """The tests' own receiver is on 127.0.0.1: allowed only through the setting."""
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    return settings


@pytest.fixture
def league_event(season):
    return EventFactory(season=season)
