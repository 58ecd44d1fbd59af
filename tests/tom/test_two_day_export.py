"""A two-day event's TOM save carries the cut to day 2 the one way TOM's saves can say it
(none of the 23 saves in ../shared/data/tom-exports/tdf has a day or a phase): a day-1
finisher is written as TOM's drop after their pod's day-1 rounds, with no day-2 match, and
the save's standings are the site's places (day-1 finishers below every day-2 player)."""

from __future__ import annotations

import pytest

from league.edition_seeds import SITE_RULES
from league.models import Event, Registration, RuleEdition
from matches import services
from tests.factories import EventFactory, LeagueFactory, RegistrationFactory, SeasonFactory
from tom import services as tom_services
from tom import tdf

pytestmark = pytest.mark.django_db


def play(event, staff):
    round_ = services.pair_next_round(event=event, by_user=staff)
    for m in round_.matches.filter(player_b__isnull=False):
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    services.close_round(round_=round_, by_user=staff)
    return round_


def test_day_one_finishers_are_toms_drops_after_day_one(staff, django_capture_on_commit_callbacks):
    rules = SITE_RULES.to_dict()
    rules["two_day"] = {**rules["two_day"], "day2_points": 6}  # two wins of three on day 1
    edition = RuleEdition.objects.create(
        key="two-day-test", name="Two days, 6 points", in_force_from="2020-01-01", rules=rules
    )
    event = EventFactory(
        season=SeasonFactory(league=LeagueFactory(organisers=[staff])),
        rule_edition=edition,
        days=2,
        day1_rounds=3,
        swiss_rounds=5,
        top_cut=2,
    )
    for _ in range(8):
        RegistrationFactory(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        while event.status != Event.Status.FINISHED:
            play(event, staff)
            event.refresh_from_db()
    finishers = set(
        Registration.objects.filter(event=event, finished_on_day_one=True).values_list(
            "player__player_id", flat=True
        )
    )
    assert len(finishers) == 4  # 8 players, winner "a" at every table: 4 below two wins

    save = tdf.parse(tom_services.export_text(event=event).encode())
    players = {p.userid: p for p in save.players}
    for userid, player in players.items():
        if userid in finishers:
            assert player.dropped is not None and player.dropped.round == 3, userid
        else:
            assert player.dropped is None, userid
    (pod,) = save.pods
    swiss = [r for r in pod.rounds if not r.is_top_cut]
    assert len(swiss) == 5
    for round_ in swiss[3:]:  # day 2: nobody below the cut plays
        seated = {u for m in round_.matches for u in (m.player1, m.player2) if u}
        assert seated and not seated & finishers
    places = {
        p.id: p.place for block in save.standings if block.type == "finished" for p in block.players
    }
    assert max(places[u] for u in set(players) - finishers) < min(places[u] for u in finishers)
