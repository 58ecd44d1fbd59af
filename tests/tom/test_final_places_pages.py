"""A finished event's pages show its final places, and every pod of an imported event gets
its bracket: a TOM save with two pods (Juniors and Seniors together, top 4; Masters, top 8)
imported, then its standings, bracket and event pages read as a visitor reads them."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.test import Client

from league.models import EventPlacement
from league.public_record import public_name
from matches import services as match_services
from matches.models import Match, Round
from tests.factories import LeagueFactory, SeasonFactory, UserFactory
from tom import services, tdf

TDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
PODS = TDF_DIR / "litian80__2026-cmwc-jan-cup.tdf"
pytestmark = pytest.mark.django_db


@pytest.fixture
def imported():
    organiser = UserFactory(username="to")
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )
    raw = PODS.read_bytes()
    event = services.import_save(data=raw, by_user=organiser, season=season).event
    # What the worker does after each round closes (the outbox task is not run here).
    match_services.recompute_standings(event_id=event.pk, publish_round=1)
    return event, tdf.parse(raw)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_finished_events_standings_are_its_final_places(imported):
    event, t = imported
    page = Client().get(f"/events/{event.pk}/standings/").content.decode()
    assert "<h1>Final standings</h1>" in page
    masters = next(b for b in t.standings if b.category == tdf.MASTERS and b.type == "finished")
    winner = next(p.id for p in masters.players if p.place == 1)
    names = {p.userid: p.name for p in t.players}
    # The Masters' table: the top-cut winner first, marked as the winner.
    section = page[page.index("<h2>Masters</h2>") :]
    body = section[section.index("<tbody>") :]
    first_row = body[: body.index("</tr>")]
    assert names[winner] in first_row and "Winner" in first_row
    assert ">1<" in first_row
    # The Swiss standings one tap away, and back.
    last_swiss = Round.objects.filter(event=event, stage=Round.Stage.SWISS).order_by("-number")[0]
    link = f'href="?round={last_swiss.number}"'
    assert link in page
    swiss = Client().get(f"/events/{event.pk}/standings/?round={last_swiss.number}")
    assert f"Swiss standings after round {last_swiss.number}" in swiss.content.decode()
    assert "Final standings" in swiss.content.decode()
    # The places shown are the published ones (what league points are given for).
    places = dict(
        EventPlacement.objects.filter(event=event, division="masters").values_list(
            "registration__player__player_id", "place"
        )
    )
    assert places[winner] == 1


def test_every_pod_of_an_imported_event_has_its_bracket(imported):
    event, _ = imported
    page = Client().get(f"/events/{event.pk}/bracket/").content.decode()
    assert "<h2>Juniors and Seniors</h2>" in page and "<h2>Masters</h2>" in page
    masters = page[page.index("<h2>Masters</h2>") :]
    # Every Masters top-cut match is drawn with both players (none is an empty box).
    cut = Match.objects.filter(
        round__event=event, round__stage=Round.Stage.TOP_CUT, division="masters"
    ).select_related("player_a__player", "player_b__player")
    assert cut.count() == 8 - 1  # a top 8: 4 + 2 + 1 matches
    for m in cut:  # by their public names (a Masters player may be 16 or 17: "Player 2.")
        assert public_name(m.player_a.player) in masters
        assert public_name(m.player_b.player) in masters
    assert 'class="box open"' not in masters
    assert "Masterss" not in text(Client().get(f"/events/{event.pk}/").content.decode())
