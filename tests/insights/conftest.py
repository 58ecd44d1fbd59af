import pytest

from tests.insights.setup import make_running_event


@pytest.fixture
def running_event(make_event, staff):
    return make_running_event(make_event, staff)
