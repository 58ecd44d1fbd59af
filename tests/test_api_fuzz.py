"""Schemathesis against our own OpenAPI schema: no request it generates gets a 500.

Requests go straight into the WSGI application (no server), as an anonymous user and as the
organiser of a small event with a paired round, with a personal API token.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from config.wsgi import application
from league.services import tokens
from matches import services
from tests.factories import (
    EventFactory,
    LeagueFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
    sample_cards,
)

PASSWORD = "fuzz-password"


@pytest.fixture(autouse=True)
def event_with_a_round(db, keep_the_test_connection):
    sample_cards()
    staff = UserFactory(username="fuzz-staff")
    staff.set_password(PASSWORD)
    staff.save()
    event = EventFactory(season=SeasonFactory(league=LeagueFactory(organisers=[staff])))
    for _ in range(4):
        RegistrationFactory(event=event)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    _, TOKENS["fuzz-staff"] = tokens.create_api_token(user=staff, name="fuzz")


TOKENS: dict[str, str] = {}


# Building the schema needs no database, so it can be read when the module is collected.
schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


def _token(username: str) -> dict:
    return {"Authorization": f"Token {TOKENS[username]}"}


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_anonymous_requests_never_get_a_server_error(case):
    case.call_and_validate(checks=[not_a_server_error])


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_organiser_requests_never_get_a_server_error(case):
    case.call_and_validate(headers=_token("fuzz-staff"), checks=[not_a_server_error])
