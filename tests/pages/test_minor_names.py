"""A minor's full name is never shown publicly (issue 32): every public surface of an event
(pairings by table and by name, "find my table", the projector, the round and standings
JSON, the standings page and CSV, "why am I 9th?", the match page, the overlay and its feed,
the metagame, a player's rounds, the bracket, the final standings and results, the league's
leaderboard, webhooks' payloads, the other player's "your match" answer) shows
`league.public_record.public_name` ("Brock H."); the staff's pages and exports (the
dashboard, the event JSON, the TOM save, the staff's standings CSV) keep the full name."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse
from rest_framework.test import APIClient

from insights.models import FeatureMatch
from league import services as league_services
from league.models import Event, SeasonStanding
from matches import services
from matches.export import export_event
from matches.models import Match
from tests.factories import sample_cards, sample_deck_text, user_of
from tests.insights.setup import DECKS

pytestmark = pytest.mark.django_db

SURNAME = "Harrison"


def _play(staff, round_, commits):
    with commits(execute=True):
        for m in round_.matches.filter(player_b__isnull=False):
            services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "b"}]})
        services.close_round(round_=round_, by_user=staff)


@pytest.fixture
def brock_event(make_event, make_player, organiser):
    """Three adults and Brock Harrison (born 2012), lists public at once, two Swiss rounds
    and a final; round 1 paired and published, the feature match at Brock's table."""
    sample_cards()
    event, regs = make_event(
        players=3, swiss_rounds=2, top_cut=2, decklists_open=Event.DecklistsOpen.NOW
    )
    brock = league_services.register(
        event=event, player=make_player("Brock Harrison", birth_year=2012)
    )
    brock = league_services.check_in(registration=brock)
    regs.append(brock)
    for reg, deck in zip(regs, DECKS, strict=True):
        league_services.submit_deck(
            registration=reg, text=sample_deck_text(deck), by_user=user_of(reg)
        )
    round_ = services.pair_next_round(event=event, by_user=organiser)
    services.publish_round(round_=round_, by_user=organiser)
    match = Match.objects.get(Q(player_a=brock) | Q(player_b=brock), round=round_)
    FeatureMatch.objects.create(event=event, table=match.table)
    return event, brock, round_, match


def _public(client, url: str, **kwargs) -> str:
    response = client.get(url, **kwargs)
    assert response.status_code == 200, (url, response.status_code)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return body.decode("utf-8-sig")


def test_a_minors_full_name_appears_nowhere_public(
    client, brock_event, organiser, django_capture_on_commit_callbacks
):
    commits = django_capture_on_commit_callbacks
    event, brock, round_, match = brock_event
    n = round_.number
    opponent = match.player_b if match.player_a_id == brock.pk else match.player_a
    running = {
        "pairings": reverse("round-pairings", args=[event.pk, n]),
        "by name": reverse("round-pairings", args=[event.pk, n]) + "?by=name",
        "projector": reverse("round-projector", args=[event.pk, n]),
        "match": reverse("match-detail", args=[match.pk]),
        "overlay": reverse("event-overlay", args=[event.pk]),
        "overlay feed": f"/api/events/{event.pk}/overlay/",
        "round JSON": f"/api/rounds/{round_.pk}/",
        "rounds JSON": f"/api/rounds/?event={event.pk}",
        "match JSON": f"/api/matches/{match.pk}/",
        "metagame": reverse("event-metagame", args=[event.pk]),
        "player rounds": reverse("player-rounds", args=[event.pk, opponent.pk]),
    }
    for what, url in running.items():
        body = _public(client, url)
        assert SURNAME not in body, what
    assert "Brock H." in _public(client, running["pairings"])
    assert "Brock H." in _public(client, running["overlay feed"])
    # "Find my table" by the surname finds nothing; by the public name it finds Brock.
    found = _public(client, running["pairings"] + "?find=Harrison")
    assert "Brock H." not in found and "No player in this round matches" in found
    assert "Brock H." in _public(client, running["pairings"] + "?find=Brock")
    # The opponent's own answers: their "your match" and their pairings page.
    client.force_login(user_of(opponent))
    assert SURNAME not in _public(client, reverse("event-me", args=[event.pk]))
    assert SURNAME not in _public(client, running["pairings"] + "?find=" + opponent.player.name)
    assert SURNAME not in _public(client, reverse("event-detail", args=[event.pk]))
    client.logout()

    _play(organiser, round_, commits)
    standings = {
        "standings": reverse("event-standings", args=[event.pk]),
        "standings CSV": reverse("event-standings-csv", args=[event.pk]),
        "standings JSON": f"/api/events/{event.pk}/standings/",
        "why": reverse("standing-why", args=[event.pk, opponent.pk]),
        "why (Brock)": reverse("standing-why", args=[event.pk, brock.pk]),
    }
    for what, url in standings.items():
        body = _public(client, url)
        assert SURNAME not in body and "Brock H." in body, what
    # Signed in as another player: the per-request answers too.
    client.force_login(user_of(opponent))
    for what in ("standings CSV", "standings JSON"):
        body = _public(client, standings[what])
        assert SURNAME not in body and "Brock H." in body, what
    client.logout()

    # Round 2 and the final, played to the end.
    while event.status != Event.Status.FINISHED:
        next_round = services.pair_next_round(event=event, by_user=organiser)
        _play(organiser, next_round, commits)
        event.refresh_from_db()
    finished = {
        "bracket": reverse("event-bracket", args=[event.pk]),
        "final standings": reverse("event-standings", args=[event.pk]),
        "results": reverse("event-results", args=[event.pk]),
        "results JSON": f"/api/events/{event.pk}/results/",
        "league": reverse("league-detail", args=[event.season.league.slug]),
        "leaderboard JSON": f"/api/seasons/{event.season.pk}/leaderboard/",
        "player page": reverse("player-page", args=[brock.player.pk]),
        "round 1 standings": reverse("event-standings", args=[event.pk]) + "?round=1",
    }
    for what, url in finished.items():
        body = _public(client, url)
        assert SURNAME not in body, what
    assert "Brock H." in _public(client, finished["final standings"])
    assert "Brock H." in _public(client, finished["results JSON"])
    if SeasonStanding.objects.filter(season=event.season, player=brock.player).exists():
        assert "Brock H." in _public(client, finished["leaderboard JSON"])

    # The staff's own: full names.
    client.force_login(organiser)
    assert SURNAME in _public(client, standings["standings CSV"])
    assert SURNAME in _public(client, reverse("event-dashboard", args=[event.pk]))
    staff_api = APIClient()
    staff_api.force_authenticate(organiser)
    assert SURNAME in staff_api.get(f"/api/rounds/{round_.pk}/").content.decode()
    exported = export_event(event)
    assert any(p["name"] == "Brock Harrison" for p in exported["players"])
