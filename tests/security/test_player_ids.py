"""Issue 27, first pass: Play! Pokémon IDs (minors' among them) are shown only where the
site shows them, to the event's staff and on the player's own row: not to anonymous
visitors, other players or another league's organiser, in the standings API or CSV."""

from __future__ import annotations

import csv
import io

import pytest

from matches import services as match_services

from .conftest import https_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def standings(world):
    round_ = world.event.rounds.get(number=1)
    for match in round_.matches.filter(player_b__isnull=False):
        payload = {"games": [{"outcome": "a"}] * (world.event.best_of // 2 + 1)}
        match_services.set_result(match=match, by_user=world.org_a, payload=payload)
    match_services.close_round(round_=round_, by_user=world.org_a)
    match_services.recompute_standings(event_id=world.event.pk, publish_round=1)
    ids = dict(world.event.registrations.values_list("pk", "player__player_id"))
    assert all(ids.values())
    return ids


def _api_ids(client, event) -> dict[int, str]:
    response = client.get(f"/api/events/{event.pk}/standings/")
    assert response.status_code == 200
    return {row["registration"]: row["player_id"] for row in response.json()["rows"]}


def _csv_ids(client, event) -> dict[str, str]:
    response = client.get(f"/events/{event.pk}/standings.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows
    return {row["player"]: row["player id"] for row in rows}


def test_anonymous_visitors_and_other_leagues_see_no_player_ids(
    production_settings, world, standings
):
    for user in (None, world.org_b):
        client = https_client(user)
        assert set(_api_ids(client, world.event).values()) == {""}
        assert set(_csv_ids(client, world.event).values()) == {""}


def test_a_player_sees_their_own_id_only_and_staff_see_all(production_settings, world, standings):
    ash_reg = world.ash_registration.pk
    seen = _api_ids(https_client(world.ash), world.event)
    assert seen[ash_reg] == standings[ash_reg]
    assert {v for k, v in seen.items() if k != ash_reg} == {""}
    csv_seen = _csv_ids(https_client(world.ash), world.event)
    assert csv_seen[world.ash_registration.player.name] == standings[ash_reg]
    assert sorted(csv_seen.values()).count("") == len(standings) - 1
    assert _api_ids(https_client(world.org_a), world.event) == standings
