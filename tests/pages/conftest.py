"""Data for the page tests: the Pallet Town League organised by `oak` (overriding the
shared `league` and `season`, so `make_event` from `tests/conftest.py` makes its events
there, with the sample cards loaded), its players, and rounds with chosen pairings made
through the services (`make_round`)."""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

import pytest
from django.test.signals import template_rendered

from decks.models import PreconDeck
from league import services as league_services
from league.models import Event, Player, Registration, Season
from matches.models import Match, Round
from tests.factories import LeagueFactory, PlayerFactory

ROOT = Path(__file__).resolve().parents[2]
_numbers = itertools.count(1)


@pytest.fixture
def organiser(make_user):
    return make_user("oak")


@pytest.fixture
def league(db, organiser):
    return LeagueFactory(
        name="Pallet Town League", slug="pallet", description="Weekly play.", organisers=[organiser]
    )


@pytest.fixture
def season(league, cards):
    return Season.objects.create(
        league=league, name="2025 season", starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31)
    )


@pytest.fixture
def event(make_event):
    return make_event(name="Viridian League Cup")[0]


@pytest.fixture
def make_player(make_user):
    def make(name: str | None = None, *, with_user: bool = True, birth_year: int = 1990) -> Player:
        number = next(_numbers)
        user = make_user(f"trainer{number}") if with_user else None
        return PlayerFactory(
            user=user,
            name=name or f"Trainer {number:03d}",
            player_id=f"{100000 + number}",
            birth_date=date(birth_year, 5, 1),
        )

    return make


@pytest.fixture
def register(event):
    def do(player: Player, *, to: Event | None = None) -> Registration:
        return league_services.register(event=to or event, player=player)

    return do


@pytest.fixture
def ash(make_player, register):
    """A registered player with an account."""
    player = make_player("Ash Ketchum")
    register(player)
    return player


@pytest.fixture
def misty(make_player, register):
    player = make_player("Misty Waterflower")
    register(player)
    return player


@pytest.fixture
def deck_text(cards) -> str:
    """A legal 60-card list (a sample deck as `COUNT NAME SET NUMBER` lines)."""
    return PreconDeck.objects.get(pk="d-demo1-1").as_decklist_text()


def registration_of(player: Player, event: Event) -> Registration:
    return Registration.objects.get(player=player, event=event)


def make_round(event: Event, pairs, *, number: int = 1, status=Round.Status.PUBLISHED, division=""):
    """A round with `pairs` of registrations (`None` as B for a bye), straight in the ORM."""
    round_ = Round.objects.create(event=event, number=number, status=status, seed="pages")
    # What `matches.services.pair_next_round` records on the event for the league app.
    Event.objects.filter(pk=event.pk, swiss_rounds_paired__lt=number).update(
        swiss_rounds_paired=number
    )
    for table, (a, b) in enumerate(pairs, start=1):
        Match.objects.create(
            round=round_,
            table=table,
            division=division,
            player_a=a,
            player_b=b,
            **({"status": Match.Status.FINAL, "result": Match.Result.A} if b is None else {}),
        )
    return round_


def standings_row(
    registration, rank, points, record, owp, oowp, *, dropped=False, division="masters"
):
    """One row of a `StandingsSnapshot`, as `matches.services.standings_rows` writes them."""
    return {"registration": registration.pk, "player": registration.player.name,
            "player_id": registration.player.player_id, "division": division, "rank": rank,
            "points": points, "record": record, "owp": owp, "oowp": oowp, "dropped": dropped}  # fmt: skip


@pytest.fixture
def snapshots(event, ash, misty):
    """Round 1's standings published; round 2's computed but not yet published."""
    from matches.models import StandingsSnapshot

    a, b = registration_of(ash, event), registration_of(misty, event)
    StandingsSnapshot.objects.create(
        event=event, round_number=1, published=True,
        rows=[standings_row(a, 1, 3, "1-0-0", 0.25, 0.75), standings_row(b, 2, 0, "0-1-0", 1.0, 0.25)],
    )  # fmt: skip
    StandingsSnapshot.objects.create(
        event=event, round_number=2, published=False,
        rows=[standings_row(b, 1, 3, "1-1-0", 0.625, 0.5), standings_row(a, 2, 3, "1-1-0", 0.5, 0.625, dropped=True)],
    )  # fmt: skip


@pytest.fixture
def round_one(event, ash, misty, make_player, register):
    """Round 1 published (public): Ash v Misty at table 1, Brock v Gary at table 2."""
    a, b = registration_of(ash, event), registration_of(misty, event)
    c, d = register(make_player("Brock Harrison")), register(make_player("Gary Oak"))
    return make_round(event, [(a, b), (c, d)])


@pytest.fixture
def templates():
    """The names of the templates rendered while the test runs."""
    rendered = []

    def record(sender, template, **kwargs):
        rendered.append(template.name)

    template_rendered.connect(record)
    yield rendered
    template_rendered.disconnect(record)
