"""The edges of a real event (issue 13), through the services and the organiser's pages:
top-cut double losses, divisions with their own structure, a division too small to play
alone, top-cut corrections after the next round is paired, double losses in Swiss, and the
Prize count of a game that settles a level top-cut match."""

import datetime as dt

import pytest

from league import services as league_services
from league.models import Event, EventPlacement, Registration
from matches import selectors, services
from matches.models import Game, Match, ResultChange, Round
from rules.errors import DomainError
from tests.factories import (
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    play_round,
    play_swiss,
)

pytestmark = pytest.mark.django_db

BORN = {"junior": 2016, "senior": 2012, "masters": 1990}
A_WINS = {"games": [{"outcome": "a"}]}


def event_with(staff, mode=Event.DivisionMode.SEPARATE, **fields):
    """An event and a function that registers `n` checked-in players of a division."""
    season = SeasonFactory(
        league=LeagueFactory(organisers=[staff]), junior_from_year=2015, senior_from_year=2011
    )
    event = EventFactory(season=season, division_mode=mode, **fields)

    def add(division: str, n: int) -> list[Registration]:
        regs = []
        for _ in range(n):
            reg = league_services.register(
                event=event,
                player=PlayerFactory(birth_date=dt.date(BORN[division], 3, 1)),
                by_user=staff,
            )
            regs.append(league_services.check_in(registration=reg) or reg)
        return regs

    return event, add


# -- 1. a top cut needs a winner ------------------------------------------------------------


def test_a_top_cut_double_loss_asks_for_a_tiebreaker_game(
    staff, client, django_capture_on_commit_callbacks
):
    event, add = event_with(staff, Event.DivisionMode.COMBINED, swiss_rounds=2, top_cut=4)
    add("masters", 6)
    with django_capture_on_commit_callbacks(execute=True):
        play_swiss(event, staff)
        semis = services.pair_next_round(event=event, by_user=staff)
    first, second = semis.matches.order_by("table")
    double_loss = {"games": [{"outcome": "double_loss", "reason": "penalty"}]}
    with pytest.raises(DomainError) as refused:
        services.set_result(match=first, by_user=staff, payload=double_loss)
    assert refused.value.code == "result-incomplete"
    assert "tiebreaker game" in refused.value.message
    first.refresh_from_db()
    assert first.status != Match.Status.FINAL
    # The organiser's form says the same, and the next round cannot be paired meanwhile.
    client.force_login(staff)
    page = client.post(
        f"/matches/{first.pk}/result/",
        {"game_1": "double_loss", "reason_1": "penalty"},
        follow=True,
    )
    assert b"tiebreaker game" in page.content
    with pytest.raises(DomainError) as refused:
        services.pair_next_round(event=event, by_user=staff)
    assert refused.value.code == "round-open"
    # After the tiebreaker game, player B advances because B won it.
    with django_capture_on_commit_callbacks(execute=True):
        tiebreak = {"games": [{"outcome": "double_loss"}, {"outcome": "b"}]}
        services.set_result(match=first, by_user=staff, payload=tiebreak)
        services.set_result(match=second, by_user=staff, payload=A_WINS)
        services.close_round(round_=semis, by_user=staff)
        final = services.pair_next_round(event=event, by_user=staff)
    first.refresh_from_db()
    assert first.result == Match.Result.B
    finalists = final.matches.get()
    assert {finalists.player_a_id, finalists.player_b_id} == {
        first.player_b_id,
        second.player_a_id,
    }


def test_a_top_cut_match_without_a_winner_stops_the_bracket(staff):
    """A result stored without a winner (an older entry, a mirrored file) is never advanced
    as player B: the next round is refused and names the table."""
    event, add = event_with(staff, Event.DivisionMode.COMBINED, swiss_rounds=1, top_cut=4)
    add("masters", 4)
    play_swiss(event, staff)
    semis = services.pair_next_round(event=event, by_user=staff)
    Match.objects.filter(round=semis).update(
        status=Match.Status.FINAL, result=Match.Result.DOUBLE_LOSS
    )
    Round.objects.filter(pk=semis.pk).update(status=Round.Status.CLOSED)
    with pytest.raises(DomainError) as refused:
        services.pair_next_round(event=event, by_user=staff)
    assert refused.value.code == "top-cut-undecided" and "Table 1" in refused.value.message


# -- 2. and 3. divisions with their own structure; a division too small to play alone ----


def test_separate_divisions_get_their_own_rounds_and_top_cut(
    staff, django_capture_on_commit_callbacks
):
    event, add = event_with(staff)
    juniors, masters = add("junior", 5), add("masters", 13)
    pods = {p.key: p for p in services.event_pods(event)}
    assert (pods["junior"].rounds, pods["junior"].cut) == (3, 0)  # 4-8 players
    assert (pods["masters"].rounds, pods["masters"].cut) == (5, 4)  # 13-20 players
    with django_capture_on_commit_callbacks(execute=True):
        swiss = play_swiss(event, staff)
        assert len(swiss) == 5
        juniors_ids = {r.pk for r in juniors}
        for round_ in swiss:
            playing = {m.player_a_id for m in round_.matches.all()} | {
                m.player_b_id for m in round_.matches.all()
            }
            # The Juniors finish their Swiss after three rounds; the Masters play on.
            assert bool(playing & juniors_ids) == (round_.number <= 3)
        semis = play_round(event, staff)
        assert semis.stage == Round.Stage.TOP_CUT
        assert set(semis.matches.values_list("division", flat=True)) == {"masters"}
        assert semis.matches.count() == 2
        play_round(event, staff)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    firsts = EventPlacement.objects.filter(event=event, place=1)
    assert sorted(firsts.values_list("division", flat=True)) == ["junior", "masters"]
    assert len(masters) == EventPlacement.objects.filter(event=event, division="masters").count()


def test_a_lone_division_plays_with_the_next_older_one_and_keeps_its_own_places(
    staff, client, django_capture_on_commit_callbacks
):
    event, add = event_with(staff, swiss_rounds=3, top_cut=0)
    (junior,) = add("junior", 1)
    seniors = add("senior", 5)
    add("masters", 6)
    pods = services.event_pods(event)
    assert [p.key for p in pods] == ["jr+sr", "masters"]
    assert "Juniors: 1 player" in pods[0].reason
    client.force_login(staff)
    for url in (f"/events/{event.pk}/", f"/events/{event.pk}/manage/"):
        page = client.get(url).content.decode()
        assert "Juniors and Seniors together" in page and "Juniors: 1 player" in page
    with django_capture_on_commit_callbacks(execute=True):
        rounds = play_swiss(event, staff)
    for round_ in rounds:
        mine = round_.matches.filter(player_a_id=junior.pk) | round_.matches.filter(
            player_b_id=junior.pk
        )
        assert mine.count() == 1  # paired (or given the bye) every round
        assert mine.get().division == "jr+sr"
    rows = services.standings_rows(event)
    assert [r["rank"] for r in rows if r["division"] == "junior"] == [1]
    assert sorted(r["rank"] for r in rows if r["division"] == "senior") == [1, 2, 3, 4, 5]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    place = EventPlacement.objects.get(event=event, registration=junior)
    assert (place.division, place.place) == ("junior", 1)
    assert EventPlacement.objects.filter(event=event, division="senior").count() == len(seniors)


# -- 4. a top-cut correction after the next round is paired ----------------------------------


def test_a_top_cut_correction_re_pairs_the_unplayed_final_and_refuses_a_played_one(
    staff, client, django_capture_on_commit_callbacks
):
    event, add = event_with(staff, Event.DivisionMode.COMBINED, swiss_rounds=2, top_cut=4)
    add("masters", 6)
    with django_capture_on_commit_callbacks(execute=True):
        play_swiss(event, staff)
        semis = play_round(event, staff)
        final_round = services.pair_next_round(event=event, by_user=staff)
    semi = semis.matches.get(table=1)
    final = final_round.matches.get()
    assert semi.player_a_id in (final.player_a_id, final.player_b_id)
    with django_capture_on_commit_callbacks(execute=True):
        services.set_result(
            match=semi, by_user=staff, payload={"games": [{"outcome": "b"}]}, note="slip misread"
        )
    final.refresh_from_db()
    assert semi.player_b_id in (final.player_a_id, final.player_b_id)
    assert semi.player_a_id not in (final.player_a_id, final.player_b_id)
    assert ResultChange.objects.filter(match=final, note__contains="re-paired").exists()
    # Once the final is played, changing who reached it is refused and changes nothing.
    with django_capture_on_commit_callbacks(execute=True):
        services.set_result(match=final, by_user=staff, payload=A_WINS)
    with pytest.raises(DomainError) as refused:
        services.set_result(match=semi, by_user=staff, payload=A_WINS, note="slip misread")
    assert refused.value.code == "bracket-played"
    assert f"round {final_round.number} table 1" in refused.value.message
    semi.refresh_from_db()
    assert semi.result == Match.Result.B
    client.force_login(staff)
    page = client.post(
        f"/matches/{semi.pk}/result/",
        {"game_1": "a", "reason_1": "played", "note": "slip misread"},
        follow=True,
    )
    assert b"already played by the old winner" in page.content
    semi.refresh_from_db()
    assert semi.result == Match.Result.B


# -- 5. a double loss in Swiss ------------------------------------------------------------


def test_a_swiss_double_loss_is_a_loss_for_both_who_are_each_others_opponent(staff):
    event, add = event_with(staff, Event.DivisionMode.COMBINED, swiss_rounds=3)
    add("masters", 4)
    round_ = services.pair_next_round(event=event, by_user=staff)
    first, second = round_.matches.order_by("table")
    services.set_result(match=first, by_user=staff, payload={"games": [{"outcome": "double_loss"}]})
    services.set_result(match=second, by_user=staff, payload=A_WINS)
    records = [r for r in selectors.match_records(event) if r.a == str(first.player_a_id)]
    assert [(r.b, r.result) for r in records] == [(str(first.player_b_id), "double_loss")]
    rows = {r["registration"]: r for r in services.standings_rows(event)}
    assert rows[first.player_a_id]["record"] == rows[first.player_b_id]["record"] == "0-1-0"
    # Each one's OWP is the other's win rate (0 wins -> the 25 % floor), not 0.
    assert rows[first.player_a_id]["owp"] == rows[first.player_b_id]["owp"] == 0.25


# -- 7. the Prize count of a game that settles a level top-cut match ------------------------


def test_a_top_cut_game_after_time_is_stored_with_the_events_sudden_death_prizes(staff):
    event, add = event_with(
        staff, Event.DivisionMode.COMBINED, swiss_rounds=1, top_cut=2, best_of=3
    )
    event.sudden_death_prizes = 1
    event.save(update_fields=["sudden_death_prizes"])
    add("masters", 2)
    play_round(event, staff, payload={"games": [{"outcome": "a"}, {"outcome": "a"}]})
    final = services.pair_next_round(event=event, by_user=staff).matches.get()
    payload = {
        "games": [{"outcome": "a"}, {"outcome": "b"}, {"outcome": "tie"}, {"outcome": "a"}],
        "at_time": True,
    }
    services.set_result(match=final, by_user=staff, payload=payload)
    prizes = list(
        Game.objects.filter(match=final).order_by("number").values_list("prizes", flat=True)
    )
    assert prizes == [6, 6, 6, 1]
