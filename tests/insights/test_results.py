"""A finished event's final results (issue 32): places after the top cut, Swiss records and
points, and each player's archetype with a link to the list once the event's decklist
phase opens it (`league.permissions.public_decklists`), the same on the page, in the API
and (places) in the event's JSON export; an imported TOM event shows TOM's places."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import services as league_services
from league.models import Event
from matches import services
from matches.export import export_event
from tests.factories import (
    LeagueFactory,
    SeasonFactory,
    UserFactory,
    sample_cards,
    sample_deck_text,
    user_of,
)
from tests.insights.setup import DECKS
from tom import services as tom_services
from tom import tdf

TDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
pytestmark = pytest.mark.django_db


def play_round(event, staff):
    round_ = services.pair_next_round(event=event, by_user=staff)
    for m in round_.matches.filter(player_b__isnull=False):
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    services.close_round(round_=round_, by_user=staff)
    return round_


def finished(make_event, staff, phase):
    """Four players with their lists, one Swiss round and a final, played to the end."""
    sample_cards()
    event, regs = make_event(players=4, swiss_rounds=1, top_cut=2, decklists_open=phase)
    for reg, deck in zip(regs, DECKS, strict=True):
        league_services.submit_deck(
            registration=reg, text=sample_deck_text(deck), by_user=user_of(reg)
        )
    play_round(event, staff)
    final = play_round(event, staff)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event, final.matches.get()


def test_the_final_results_show_the_decks_the_phase_has_opened(client, make_event, staff):
    event, final = finished(make_event, staff, Event.DecklistsOpen.TOP_CUT)
    rows = APIClient().get(f"/api/events/{event.pk}/results/").json()
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["registration"] == final.player_a_id and rows[0]["reached"] == "Winner"
    assert rows[1]["registration"] == final.player_b_id and rows[1]["reached"] == "Final"
    cut = {final.player_a_id, final.player_b_id}
    for row in rows:
        public = row["registration"] in cut
        assert bool(row["archetype"]) is public and (row["deck"] is not None) is public
    page = client.get(reverse("event-results", args=[event.pk])).content.decode()
    for row in rows:
        link = reverse("event-deck-detail", args=[event.pk, row["registration"]])
        assert (link in page) is (row["registration"] in cut)
        assert row["player"] in page
    # The event's JSON export (staff) gives the same places.
    exported = export_event(event)["final_results"]
    assert [(r["registration"], r["place"]) for r in exported] == [
        (r["registration"], r["place"]) for r in rows
    ]


def test_private_lists_give_no_archetype_to_anyone(client, make_event, staff):
    event, _ = finished(make_event, staff, Event.DecklistsOpen.NEVER)
    for who in (None, UserFactory(username="stranger")):
        api = APIClient()
        if who is not None:
            api.force_authenticate(who)
        rows = api.get(f"/api/events/{event.pk}/results/").json()
        assert len(rows) == 4
        assert all(r["archetype"] == "" and r["deck"] is None for r in rows)
    page = client.get(reverse("event-results", args=[event.pk])).content.decode()
    assert "Decks appear here when the event's decklists are public." in page


def test_no_results_before_the_event_is_finished(client, make_event):
    event, _ = make_event(players=4)
    assert client.get(reverse("event-results", args=[event.pk])).status_code == 404
    answer = APIClient().get(f"/api/events/{event.pk}/results/")
    assert answer.status_code == 404 and answer.json()["code"] == "not-found"


def test_an_imported_tom_event_shows_toms_final_places():
    organiser = UserFactory(username="to")
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )
    raw = (TDF_DIR / "ciphermaniac-harness__cup-solo.tdf").read_bytes()  # a top 8
    t = tdf.parse(raw)
    event = tom_services.import_save(data=raw, by_user=organiser, season=season).event
    rows = APIClient().get(f"/api/events/{event.pk}/results/").json()
    block = next(b for b in t.standings if b.type == "finished" and b.players)
    names = {p.userid: p.name for p in t.players}
    tom_order = [names[p.id] for p in sorted(block.players, key=lambda p: p.place)]
    assert [r["player"] for r in rows] == tom_order
    assert rows[0]["reached"] == "Winner"
