"""The floor API: judge calls, penalties and time extensions, with the same permission rule
as the pages."""

import pytest
from rest_framework.test import APIClient

from floor.models import JudgeCall, Penalty
from tests.factories import UserFactory, user_of

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def table(running):
    event, round_ = running()
    return event, round_.matches.filter(player_b__isnull=False).order_by("table").first()


def test_judge_calls_through_the_api(table, staff):
    event, match = table
    player = client_for(user_of(match.player_a))
    made = player.post(f"/api/matches/{match.pk}/judge-calls/", {"reason": "ruling"}, format="json")
    assert made.status_code == 201 and made.json()["table"] == match.table
    call_id = made.json()["id"]
    assert player.get(f"/api/events/{event.pk}/judge-calls/").status_code == 403
    assert player.post(f"/api/judge-calls/{call_id}/take/").json()["code"] == "not-allowed"
    judge = client_for(staff)
    listed = judge.get(f"/api/events/{event.pk}/judge-calls/").json()
    assert [c["id"] for c in listed] == [call_id] and listed[0]["status"] == "open"
    assert judge.post(f"/api/judge-calls/{call_id}/take/").json()["taken_by"] == "organiser"
    other = UserFactory(username="judge-two")
    event.season.league.organisers.add(other)
    taken = client_for(other).post(f"/api/judge-calls/{call_id}/take/")
    assert (taken.status_code, taken.json()["code"]) == (409, "call-taken")
    closed = judge.post(f"/api/judge-calls/{call_id}/close/", {"note": "done"}, format="json")
    assert closed.json()["status"] == "closed"
    assert judge.get(f"/api/events/{event.pk}/judge-calls/").json() == []
    assert [
        c["id"] for c in judge.get(f"/api/events/{event.pk}/judge-calls/?status=closed").json()
    ] == [call_id]
    stranger = UserFactory(username="stranger")
    answer = client_for(stranger).post(
        f"/api/matches/{match.pk}/judge-calls/", {"reason": "x"}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (403, "not-your-match")
    assert JudgeCall.objects.count() == 1


def test_penalties_and_extensions_through_the_api(table, staff):
    event, match = table
    judge = client_for(staff)
    extended = judge.post(
        f"/api/matches/{match.pk}/time-extensions/", {"minutes": 5}, format="json"
    )
    assert extended.status_code == 200 and extended.json()["extra_minutes"] == 5
    prize = judge.post(f"/api/matches/{match.pk}/penalties/",
                       {"side": "a", "infraction": "procedural-minor", "penalty": "prize", "prizes": 1},
                       format="json")  # fmt: skip
    assert prize.status_code == 201 and not prize.json()["result_changed"]
    loss = judge.post(f"/api/matches/{match.pk}/penalties/",
                      {"side": "a", "infraction": "procedural-major", "penalty": "game-loss"},
                      format="json")  # fmt: skip
    assert loss.json()["result_changed"]
    match.refresh_from_db()
    assert match.result == "b"
    bad = judge.post(f"/api/matches/{match.pk}/penalties/",
                     {"side": "a", "infraction": "tardiness", "penalty": "prize"}, format="json")  # fmt: skip
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid-penalty")
    assert len(judge.get(f"/api/events/{event.pk}/penalties/").json()) == 2
    player = client_for(user_of(match.player_a))
    mine = player.get("/api/me/penalties/").json()
    assert [p["penalty"] for p in mine] == ["game-loss", "prize"]
    assert client_for(user_of(match.player_b)).get("/api/me/penalties/").json() == []
    refused = player.post(f"/api/matches/{match.pk}/penalties/",
                          {"side": "b", "infraction": "tardiness", "penalty": "warning"}, format="json")  # fmt: skip
    assert refused.status_code == 403
    assert player.get(f"/api/events/{event.pk}/penalties/").status_code == 403
    assert Penalty.objects.count() == 2


def test_a_draft_events_match_is_not_found(running, staff):
    event, round_ = running()
    event.status = "draft"
    event.save(update_fields=["status"])
    match = round_.matches.first()
    answer = client_for(UserFactory(username="nosy")).post(
        f"/api/matches/{match.pk}/judge-calls/", {"reason": "x"}, format="json"
    )
    assert answer.status_code == 404
