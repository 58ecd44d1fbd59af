"""Schemathesis against our OpenAPI schema with every check it has (status codes, bodies,
content types, headers), not only "no 500": stateless and stateful, anonymous and as the
organiser of a small event with a published round (issue 17: 7 responses used to fall
outside the schema).

The organiser is logged in by a session cookie with a CSRF token, as a browser is: the
API's Basic authentication is going away. Requests go straight into the WSGI application.
Examples per operation are kept small so the module runs in a minute or two.

The checks are the conformance ones (what the API answers must be in the schema) and "no
500". Schemathesis' stricter `negative_data_rejection` (e.g. `?offset=null` must be a 400,
where DRF's pagination ignores it) is left out: tightening every query parameter is not
part of issue 17.
"""

import pytest
import schemathesis
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from matches import services
from tests.factories import (
    EventFactory,
    LeagueFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
    sample_cards,
)

# The site gzips what a client accepts (issue 16); schemathesis' WSGI transport does not
# decode it, so these clients ask for the body as it is.
PLAIN = {"Accept-Encoding": "identity"}
HEADERS: dict[str, dict] = {"anonymous": dict(PLAIN)}


@pytest.fixture(autouse=True)
def event_with_a_round(db, keep_the_test_connection):
    sample_cards()
    staff = UserFactory(username="schema-staff")
    event = EventFactory(season=SeasonFactory(league=LeagueFactory(organisers=[staff])))
    for _ in range(4):
        RegistrationFactory(event=event)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    browser = Client()
    browser.force_login(staff, backend="django.contrib.auth.backends.ModelBackend")
    csrf = _get_new_csrf_string()
    HEADERS["organiser"] = {
        **PLAIN,
        "Cookie": f"sessionid={browser.cookies['sessionid'].value}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
    }


schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
FAST = settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))


@schema.parametrize()
@FAST
def test_anonymous_requests_conform_to_the_schema(case):
    case.call_and_validate(headers=HEADERS["anonymous"], checks=CHECKS)


@schema.parametrize()
@FAST
def test_organiser_requests_conform_to_the_schema(case):
    case.call_and_validate(headers=HEADERS["organiser"], checks=CHECKS)


def _state_machine(actor: str):
    class Machine(schema.as_state_machine()):
        def get_call_kwargs(self, case):
            return {"headers": HEADERS[actor]}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(
                response, checks=CHECKS, transport_kwargs=kwargs or None, recorder=self.recorder
            )

    return Machine


STATEFUL = settings(
    max_examples=15, stateful_step_count=6, deadline=None, suppress_health_check=list(HealthCheck)
)


@pytest.mark.parametrize("actor", ["anonymous", "organiser"])
def test_stateful_sequences_conform_to_the_schema(actor):
    _state_machine(actor).run(settings=STATEFUL)
