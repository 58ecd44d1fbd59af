"""An event from first pairing to the last top-cut match, through the services."""

import pytest

from league import services as league_services
from league.models import Event, EventPlacement, Registration, SeasonStanding
from matches import services
from matches.models import Match, Round, StandingsSnapshot
from rules.errors import DomainError
from tests.factories import PlayerFactory, play_round

pytestmark = pytest.mark.django_db


def test_odd_field_gets_one_bye_that_counts_as_a_win(make_event, staff):
    event, _ = make_event(players=5)
    round_ = services.pair_next_round(event=event, by_user=staff)
    byes = list(round_.matches.filter(player_b__isnull=True))
    assert len(byes) == 1 and byes[0].status == Match.Status.FINAL and byes[0].result == "a"
    assert round_.matches.count() == 3
    assert round_.status == Round.Status.PAIRED


def test_a_round_cannot_be_paired_while_the_last_is_open(make_event, staff):
    event, _ = make_event(players=4)
    round_ = services.pair_next_round(event=event, by_user=staff)
    with pytest.raises(DomainError) as err:
        services.pair_next_round(event=event, by_user=staff)
    assert err.value.code == "round-open"
    with pytest.raises(DomainError) as err:
        services.close_round(round_=round_, by_user=staff)
    assert err.value.code == "results-missing"


def test_swiss_then_top_cut_then_finished_with_league_points(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, _regs = make_event(players=8, swiss_rounds=3, top_cut=4)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            play_round(event, staff)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    snapshots = StandingsSnapshot.objects.filter(event=event, published=True)
    assert sorted(s.round_number for s in snapshots) == [1, 2, 3]
    final_swiss = snapshots.get(round_number=3).rows
    seeds = [row["registration"] for row in final_swiss[:4]]
    with django_capture_on_commit_callbacks(execute=True):
        semis = services.pair_next_round(event=event, by_user=staff)
        assert semis.stage == Round.Stage.TOP_CUT
        pairs = [(m.player_a_id, m.player_b_id) for m in semis.matches.order_by("table")]
        assert pairs == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
        for m in semis.matches.all():
            services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
        services.close_round(round_=semis, by_user=staff)
        final = services.pair_next_round(event=event, by_user=staff)
        assert final.matches.count() == 1
        m = final.matches.get()
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "b"}]})
        services.close_round(round_=final, by_user=staff)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    places = {p.registration_id: p.place for p in EventPlacement.objects.filter(event=event)}
    assert places[seeds[1]] == 1 and places[seeds[0]] == 2
    assert sorted(places.values()) == list(range(1, 9))
    board = SeasonStanding.objects.filter(season=event.season).order_by("rank")
    assert board.count() == 8
    assert board.first().player_id == Registration.objects.get(pk=seeds[1]).player_id
    with pytest.raises(DomainError):
        services.pair_next_round(event=event, by_user=staff)


def test_top_cut_level_at_time_needs_a_sudden_death_game(make_event, staff):
    event, _ = make_event(players=4, swiss_rounds=1, top_cut=2, best_of=3)
    play_round(event, staff)
    final = services.pair_next_round(event=event, by_user=staff)
    match = final.matches.get()
    with pytest.raises(DomainError) as err:
        services.set_result(
            match=match,
            by_user=staff,
            payload={"games": [{"outcome": "a"}, {"outcome": "b"}], "at_time": True},
        )
    assert err.value.code == "result-incomplete"
    services.set_result(
        match=match,
        by_user=staff,
        payload={
            "games": [{"outcome": "a"}, {"outcome": "b"}, {"outcome": "b", "prizes": 1}],
            "at_time": True,
        },
    )
    match.refresh_from_db()
    assert match.result == "b"


def test_dropped_players_are_not_paired_but_stay_in_the_standings(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, regs = make_event(players=6, swiss_rounds=3, top_cut=0)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event, staff)
        league_services.drop(registration=regs[0], by_user=regs[0].player.user)
        round2 = play_round(event, staff)
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.DROPPED and regs[0].dropped_after_round == 1
    paired = {m.player_a_id for m in round2.matches.all()} | {
        m.player_b_id for m in round2.matches.all()
    }
    assert regs[0].pk not in paired
    rows = StandingsSnapshot.objects.filter(event=event, round_number=2).latest("version").rows
    dropped = next(r for r in rows if r["registration"] == regs[0].pk)
    assert dropped["dropped"] is True


def test_late_entrant_takes_a_loss_for_each_missed_round(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, _regs = make_event(players=4, swiss_rounds=3, top_cut=0)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event, staff)
        event.refresh_from_db()
        late = league_services.register(event=event, player=PlayerFactory(), by_user=staff)
        assert late.late_entry_round == 2
        play_round(event, staff)
    rows = StandingsSnapshot.objects.filter(event=event, round_number=2).latest("version").rows
    row = next(r for r in rows if r["registration"] == late.pk)
    assert row["record"].split("-")[1] in ("1", "2")  # the missed round is a loss


def test_registration_waiting_list_and_promotion(db, staff):
    from tests.factories import EventFactory

    event = EventFactory(capacity=2)
    players = [PlayerFactory() for _ in range(3)]
    regs = [league_services.register(event=event, player=p, by_user=staff) for p in players]
    assert [r.status for r in regs] == ["registered", "registered", "waitlisted"]
    league_services.drop(registration=regs[0], by_user=players[0].user)
    regs[2].refresh_from_db()
    assert regs[2].status == Registration.Status.REGISTERED
    with pytest.raises(DomainError) as err:
        league_services.register(event=event, player=players[1], by_user=staff)
    assert err.value.code == "already-registered"
