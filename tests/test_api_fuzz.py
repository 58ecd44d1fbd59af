"""Schemathesis against our own OpenAPI schema: no request it generates gets a 500, and
every answer is what the schema says (status code, content type, headers, body).

Requests go straight into the WSGI application (no server), as an anonymous user and as the
organiser of a small event with a published round, with a personal API token. The round
has what broke the schema before (issue 27): a bye (`player_b_name` null) and results with
games (`replay_of` null on a game that replays none).
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

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
    for _ in range(5):  # an odd number: a bye
        RegistrationFactory(event=event)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    played = round_.matches.filter(player_b__isnull=False).first()
    wins = {"games": [{"outcome": "a"}] * (event.best_of // 2 + 1)}
    services.set_result(match=played, by_user=staff, payload=wins)
    _, TOKENS["fuzz-staff"] = tokens.create_api_token(user=staff, name="fuzz")
    bye = round_.matches.get(player_b__isnull=True)
    IDS.update(event=event.pk, round=round_.pk, match=played.pk, bye=bye.pk)


TOKENS: dict[str, str] = {}
IDS: dict[str, int] = {}


# Building the schema needs no database, so it can be read when the module is collected.
schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


def _token(username: str) -> dict:
    return {"Authorization": f"Token {TOKENS[username]}"}


# The site gzips what a client accepts; schemathesis' WSGI transport does not decode it.
PLAIN = {"Accept-Encoding": "identity"}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_anonymous_requests_never_get_a_server_error_and_conform(case):
    case.call_and_validate(headers=PLAIN, checks=CHECKS)


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_organiser_requests_never_get_a_server_error_and_conform(case):
    case.call_and_validate(headers={**PLAIN, **_token("fuzz-staff")}, checks=CHECKS)


@pytest.mark.parametrize(
    ("path", "ids"),
    [
        ("/api/rounds/{id}/", {"id": "round"}),
        ("/api/matches/{id}/", {"id": "match"}),
        ("/api/matches/{id}/", {"id": "bye"}),
    ],
)
def test_a_bye_and_games_answer_as_the_schema_says(path, ids):
    """Generated ids rarely name the event's round: these cases do, anonymous and as staff."""
    operation = schema[path]["GET"]
    for headers in (PLAIN, {**PLAIN, **_token("fuzz-staff")}):
        case = operation.Case(path_parameters={k: IDS[v] for k, v in ids.items()})
        response = case.call_and_validate(headers=headers, checks=CHECKS)
        assert response.status_code == 200


def test_the_event_s_rounds_answer_as_the_schema_says():
    case = schema["/api/rounds/"]["GET"].Case(query={"event": IDS["event"]})
    response = case.call_and_validate(headers=PLAIN, checks=CHECKS)
    assert any(m["player_b_name"] is None for r in response.json() for m in r["matches"])
