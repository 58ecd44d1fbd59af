"""Results under a format's rules, through the services and the API on PostgreSQL: the 1996
sudden death (the game goes on, and can be a draw), "won both ways", the basic game's 3
Prize cards, and a reported Prize count that never overrides the event's.

The rules themselves, with their rulebook sentences, are in tests/rules/test_format_rules.py.
"""

import pytest

from decks.models import Format
from league.models import Event
from matches import services
from matches.models import Game, Match, StandingsSnapshot
from rules.errors import DomainError
from tests.factories import user_of

from .test_results import both_report, first_match

pytestmark = pytest.mark.django_db

# "If neither player has any Pokémon that can be released at the time of Sudden Death, the
# game is a draw." (1996 rulebook)
DRAWN_1996 = {"games": [{"outcome": "both_won"}, {"outcome": "draw"}]}


def test_a_1996_sudden_death_draw_is_recorded_and_scored_as_a_tie(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, _ = make_event(
        players=2,
        best_of=1,
        format=Format.objects.get(key="original-1996"),
        sudden_death_style=Event.SuddenDeath.CONTINUE,
    )
    round_, match = first_match(event, staff)
    with django_capture_on_commit_callbacks(execute=True):
        both_report(match, DRAWN_1996)
        services.close_round(round_=round_, by_user=staff)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == Match.Result.TIE
    games = list(Game.objects.filter(match=match).order_by("sequence"))
    assert [(g.number, g.sequence, g.outcome, g.prizes) for g in games] == [
        (1, 0, "both_won", 6),
        (1, 1, "draw", 0),  # the same game went on: no Prize cards were left
    ]
    assert games[1].replay_of == games[0]
    rows = {r["registration"]: r for r in StandingsSnapshot.objects.get(event=event).rows}
    for side in (match.player_a_id, match.player_b_id):
        assert rows[side]["points"] == 1 and rows[side]["record"] == "0-0-1"


def test_a_draw_is_refused_when_the_event_plays_sudden_death_as_a_new_game(make_event, staff):
    event, _ = make_event(players=2, best_of=1)
    _, match = first_match(event, staff)
    with pytest.raises(DomainError) as err:
        services.report_result(match=match, by_user=user_of(match.player_a), payload=DRAWN_1996)
    assert err.value.code == "invalid-result" and "1996" in err.value.message


def test_a_1996_draw_in_the_top_cut_asks_for_a_tiebreaker_game(make_event, staff):
    event, _ = make_event(
        players=2, best_of=1, top_cut=2, sudden_death_style=Event.SuddenDeath.CONTINUE
    )
    _, match = first_match(event, staff)
    match.round.stage = "top_cut"
    match.round.save(update_fields=["stage"])
    with pytest.raises(DomainError) as err:
        services.set_result(match=match, by_user=staff, payload=DRAWN_1996)
    assert err.value.code == "result-incomplete" and "tiebreaker" in err.value.message
    services.set_result(
        match=match, by_user=staff, payload={"games": [*DRAWN_1996["games"], {"outcome": "b"}]}
    )
    match.refresh_from_db()
    assert match.result == "b"
    assert [
        (g.number, g.sequence, g.prizes) for g in match.games.order_by("number", "sequence")
    ] == [
        (1, 0, 6),
        (1, 1, 0),
        (2, 0, event.sudden_death_prizes),
    ]


def test_won_both_ways_decides_the_match_and_agrees_with_a_plain_win(make_event, staff):
    """ "If you win in both ways and your opponent wins in only one way, you win!" (1999)"""
    event, _ = make_event(players=2, best_of=1)
    _, match = first_match(event, staff)
    winner = "a"
    services.report_result(
        match=match,
        by_user=user_of(match.player_a),
        payload={"games": [{"outcome": "both_won", "ways": {"a": 2, "b": 1}}]},
    )
    # The opponent simply reports that A won: the same result, so it stands.
    services.report_result(
        match=match, by_user=user_of(match.player_b), payload={"games": [{"outcome": "a"}]}
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == winner
    game = match.games.get()
    assert (game.outcome, game.reason, game.prizes) == ("a", "both_ways", 6)


def test_one_way_each_still_goes_to_sudden_death(make_event, staff):
    event, _ = make_event(players=2, best_of=1)
    _, match = first_match(event, staff)
    with pytest.raises(DomainError) as err:
        services.report_result(
            match=match,
            by_user=user_of(match.player_a),
            payload={"games": [{"outcome": "both_won", "ways": {"a": 1, "b": 1}}]},
        )
    assert err.value.code == "result-incomplete" and "sudden death" in err.value.message


def test_the_basic_game_is_played_with_3_prizes_and_a_report_cannot_change_it(make_event, staff):
    event, _ = make_event(players=2, best_of=1, format=Format.objects.get(key="basic-1999"))
    _, match = first_match(event, staff)
    with pytest.raises(DomainError) as err:
        services.report_result(
            match=match,
            by_user=user_of(match.player_a),
            payload={"games": [{"outcome": "a", "prizes": 6}]},
        )
    assert err.value.code == "prize-count" and "3 Prize cards" in err.value.message
    both_report(match, {"games": [{"outcome": "a"}]})
    assert match.games.get().prizes == 3


def test_a_reported_sudden_death_prize_count_is_refused_by_the_api(client, make_event, staff):
    event, _ = make_event(players=2, best_of=1, sudden_death_prizes=1)
    _, match = first_match(event, staff)
    client.force_login(user_of(match.player_a))
    response = client.post(
        f"/api/matches/{match.pk}/report/",
        {"games": [{"outcome": "both_won"}, {"outcome": "a", "prizes": 6}]},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "prize-count"
    assert "1 Prize card each" in response.json()["detail"]
    assert not match.reports.exists()
