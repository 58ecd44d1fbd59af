"""The TOM comparison reads the places the site publishes: `tom.services.comparison` calls
`matches.services.final_placements` (the Swiss standings the pages publish, then the top cut
by how far each player got, `rules.placements.final_order`), never a copy of its own. Every
shared TOM save is imported and its comparison checked against that one recipe; where the
exports' README says the rules give TOM's order, ours is TOM's."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from league.models import Registration
from matches import services as match_services
from matches.models import StandingsSnapshot
from rules.standings import MatchRecord, compute_standings
from tests.factories import LeagueFactory, SeasonFactory, UserFactory
from tom import services, tdf
from tom.services import comparison

from . import saves

TDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
FILES = sorted(TDF_DIR.glob("*.tdf")) if TDF_DIR.is_dir() else []
pytestmark = pytest.mark.django_db

#: The division lists whose order the README says cannot be derived from results: four
#: no-shows tied on everything, ordered by TOM's lottery.
LOTTERY = {("opentourney__round-rock-summer-2026-06-20", "junior")}


@pytest.fixture
def organiser():
    return UserFactory(username="to")


@pytest.fixture
def season(organiser):
    league = LeagueFactory(organisers=[organiser], slug="tom-league")
    return SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )


def publish_standings(event) -> None:
    """What the worker does after each round closes (the outbox task is not run here)."""
    match_services.recompute_standings(event_id=event.pk, publish_round=1)


def published_order(event) -> dict[str, list[str]]:
    """Each division's final order from the one published recipe, as Play! Pokémon ids."""
    ids = dict(Registration.objects.filter(event=event).values_list("pk", "player__player_id"))
    out: dict[str, list[str]] = {}
    for reg, division, _place in sorted(
        match_services.final_placements(event), key=lambda r: (r[1], r[2])
    ):
        out.setdefault(division, []).append(ids[reg])
    return out


def test_every_shared_save_is_compared_on_the_published_places(organiser, season):
    assert len(FILES) == 23
    agree = total = 0
    for path in FILES:
        t = tdf.parse(path.read_bytes())
        event = services.import_save(data=path.read_bytes(), by_user=organiser, season=season).event
        tom = event.tom
        if t.standings is None:
            assert tom.standings_compared == {}
            continue
        ours = published_order(event)
        publish_standings(event)
        assert comparison.site_order(event) == ours
        # The Swiss part of our places is the standings the site published after the last
        # Swiss round (a pod without a top cut: exactly that order, in each division).
        last = StandingsSnapshot.objects.filter(event=event, published=True).order_by(
            "-round_number", "-version"
        )[:1]
        rows = last[0].rows if last else []
        for block in t.standings:
            if block.type != "finished" or not block.players or block.category > 2:
                continue
            division = services.common.DIVISION_OF_CATEGORY[block.category]
            theirs = [p.id for p in sorted(block.players, key=lambda p: p.place)]
            compared = tom.standings_compared[division]
            assert compared["players"] == len(theirs)
            mine = ours[division]
            place_of = {u: i for i, u in enumerate(mine, start=1)}
            differing = {
                d["player_id"]: d for d in tom.standings_differences if d["division"] == division
            }
            for place, userid in enumerate(theirs, start=1):
                if place_of.get(userid) == place:
                    assert userid not in differing
                else:
                    assert differing[userid]["site_place"] == place_of.get(userid)
            if not match_services.cut_rounds(event, _pod_key(event, division)):
                swiss = [r["player_id"] for r in rows if r["division"] == division]
                assert mine == swiss, path.stem
            total += 1
            if (path.stem, division) in LOTTERY:
                assert not compared["agree"]
                continue
            # "These rules give TOM's order" (README): our published places are TOM's.
            assert compared["agree"], (path.stem, division, tom.standings_differences)
            assert mine == theirs
            agree += 1
    assert (agree, total) == (total - len(LOTTERY), total)


def _pod_key(event, division: str) -> str:
    from matches.services.structure import event_pods, pod_of

    pod = pod_of(event_pods(event), division)
    return pod.key if pod else ""


def test_an_earned_bye_counts_the_same_on_the_standings_and_in_the_comparison(organiser, season):
    """Five players, one with an earned bye: "an earned bye counts as a won round in the
    holder's own win rate and, in the holder's OWP, as an opponent at 100%" (the TOM
    exports' README). The published standings and the comparison read it the same way."""
    ids = saves.player_ids(5)
    holder = ids[2]
    t = saves.build(players=5, rounds=3, earned=(holder,))
    # TOM's rule, computed by the rules alone from the save's results.
    records = []
    for r in t.pods[0].rounds:
        for m in r.matches:
            if m.player is not None:
                records.append(
                    MatchRecord(r.number, m.player, None, "a", earned=m.outcome == tdf.EARNED_BYE)
                )
            else:
                result = {1: "a", 2: "b", 3: "tie"}[m.outcome]
                records.append(MatchRecord(r.number, m.player1, m.player2, result))
    expected = compute_standings(ids, records)
    owp = {s.id: round(s.owp, 4) for s in expected}
    plain = compute_standings(ids, [MatchRecord(x.round, x.a, x.b, x.result) for x in records])
    assert owp[holder] != round(next(s.owp for s in plain if s.id == holder), 4)
    t.standings = saves.build(
        players=5, rounds=3, earned=(holder,), order=[s.id for s in expected]
    ).standings
    t.stage = 5
    event = services.import_save(data=tdf.write(t).encode(), by_user=organiser, season=season).event
    publish_standings(event)
    snapshot = StandingsSnapshot.objects.filter(event=event, round_number=3, published=True).latest(
        "version"
    )
    published = {r["player_id"]: r["owp"] for r in snapshot.rows}
    assert published[holder] == owp[holder]
    assert published == owp
    # The comparison's places are those standings: the same order as TOM's rule.
    assert comparison.site_order(event)["masters"] == [s.id for s in expected]
    assert event.tom.standings_compared == {"masters": {"players": 5, "agree": True}}
