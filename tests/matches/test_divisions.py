"""Age divisions: separate Swiss per division (age-separated) or one field (age-modified)."""

import datetime as dt

import pytest

from league import services as league_services
from league.models import Event, Registration
from matches import services
from matches.models import StandingsSnapshot
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def event_with_divisions(staff, mode, *, juniors=4, masters=6, **fields):
    season = SeasonFactory(
        league=LeagueFactory(organisers=[staff]), junior_from_year=2015, senior_from_year=2011
    )
    event = EventFactory(season=season, division_mode=mode, **fields)
    for born, count in ((2016, juniors), (1990, masters)):
        for _ in range(count):
            reg = league_services.register(
                event=event, player=PlayerFactory(birth_date=dt.date(born, 3, 1)), by_user=staff
            )
            league_services.check_in(registration=reg)
    return event


def test_divisions_come_from_the_seasons_cut_off_years(staff):
    event = event_with_divisions(staff, Event.DivisionMode.COMBINED, juniors=2, masters=2)
    assert sorted(Registration.objects.filter(event=event).values_list("division", flat=True)) == [
        "junior", "junior", "masters", "masters",
    ]  # fmt: skip


def test_age_separated_swiss_pairs_each_division_on_its_own(
    staff, django_capture_on_commit_callbacks
):
    event = event_with_divisions(staff, Event.DivisionMode.SEPARATE, swiss_rounds=2, top_cut=2)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            round_ = services.pair_next_round(event=event, by_user=staff)
            for m in round_.matches.select_related("player_a", "player_b"):
                if m.player_b_id:
                    assert m.player_a.division == m.player_b.division == m.division
                    services.set_result(
                        match=m, by_user=staff, payload={"games": [{"outcome": "a"}]}
                    )
            assert sorted(set(round_.matches.values_list("division", flat=True))) == [
                "junior",
                "masters",
            ]
            services.close_round(round_=round_, by_user=staff)
    rows = StandingsSnapshot.objects.get(event=event, round_number=2).rows
    for division, size in (("junior", 4), ("masters", 6)):
        ranks = [r["rank"] for r in rows if r["division"] == division]
        assert ranks == list(range(1, size + 1))  # each division ranked on its own
    with django_capture_on_commit_callbacks(execute=True):
        final = services.pair_next_round(event=event, by_user=staff)
        assert sorted(final.matches.values_list("division", flat=True)) == ["junior", "masters"]
        for m in final.matches.all():
            services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "b"}]})
        services.close_round(round_=final, by_user=staff)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    firsts = event.placements.filter(place=1)
    assert sorted(firsts.values_list("division", flat=True)) == ["junior", "masters"]


def test_combined_swiss_ranks_everyone_together(staff, django_capture_on_commit_callbacks):
    event = event_with_divisions(staff, Event.DivisionMode.COMBINED, swiss_rounds=1, top_cut=0)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = services.pair_next_round(event=event, by_user=staff)
        assert set(round_.matches.values_list("division", flat=True)) == {""}
        for m in round_.matches.all():
            services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
        services.close_round(round_=round_, by_user=staff)
    rows = StandingsSnapshot.objects.get(event=event, round_number=1).rows
    assert [r["rank"] for r in rows] == list(range(1, 11))


def test_only_checked_in_players_are_paired_when_the_event_asks_for_it(make_event, staff):
    event, regs = make_event(players=4, require_check_in=True)
    Registration.objects.filter(pk=regs[0].pk).update(status=Registration.Status.REGISTERED)
    round_ = services.pair_next_round(event=event, by_user=staff)
    paired = set(round_.matches.values_list("player_a_id", flat=True)) | set(
        round_.matches.exclude(player_b=None).values_list("player_b_id", flat=True)
    )
    assert regs[0].pk not in paired and len(paired) == 3
