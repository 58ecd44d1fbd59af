"""The match page: one-tap and game-by-game reports, sudden death, staff results, history."""

import pytest
from django.urls import reverse

from matches.models import Game, Match, ResultChange, ResultReport

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(event, ash, misty):
    """Ash (A) v Misty (B), round 1 published."""
    round_ = make_round(event, [(registration_of(ash, event), registration_of(misty, event))])
    return round_.matches.get()


@pytest.fixture
def bo3_match(make_event, make_player, register):
    event, _ = make_event(best_of=3)
    a, b = make_player("Brock Harrison"), make_player("Gary Oak")
    round_ = make_round(event, [(register(a, to=event), register(b, to=event))])
    return round_.matches.get()


def report(client, match, data, *, follow=True):
    return client.post(reverse("match-report", args=[match.pk]), data, follow=follow)


def page_of(client, match, query=""):
    response = client.get(reverse("match-detail", args=[match.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_match_page_is_public_once_the_round_is_published(client, match, organiser):
    page = page_of(client, match)
    assert "Ash Ketchum" in page and "Misty Waterflower" in page
    assert (
        'id="report"' not in page and 'id="staff-result"' not in page and 'id="history"' not in page
    )


def test_an_unpublished_match_is_404_except_for_staff(client, event, ash, misty, organiser):
    round_ = make_round(
        event, [(registration_of(ash, event), registration_of(misty, event))], status="paired"
    )
    url = reverse("match-detail", args=[round_.matches.get().pk])
    assert client.get(url).status_code == 404
    client.force_login(ash.user)
    assert client.get(url).status_code == 404
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_the_players_see_one_tap_buttons_in_best_of_one(client, match, ash):
    client.force_login(ash.user)
    page = page_of(client, match)
    assert 'value="won">I won<' in page and 'value="lost"' in page and 'value="tie"' in page
    assert "We both won at once" in page


def test_one_tap_reports_map_i_and_opponent_to_sides(client, match, ash, misty):
    client.force_login(misty.user)  # Misty is player B
    response = report(client, match, {"mode": "quick", "outcome": "won"})
    assert "Your opponent is asked to confirm" in response.content.decode()
    assert ResultReport.objects.get(side="b").payload["result"] == "b"

    client.force_login(ash.user)
    page = page_of(client, match)
    assert "Misty Waterflower reported: <strong>Misty Waterflower won" in page
    response = report(client, match, {"mode": "confirm"})
    assert "Both reports agree" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == Match.Result.B


def test_a_tie_at_time_in_one_tap(client, match, ash, misty):
    for player in (ash, misty):
        client.force_login(player.user)
        report(client, match, {"mode": "quick", "outcome": "tie"})
    match.refresh_from_db()
    assert match.result == Match.Result.TIE and match.ended_at_time


def test_sudden_death_step_then_the_winner(client, match, ash, misty):
    client.force_login(ash.user)
    page = page_of(client, match, "?sudden_death=1")
    assert "Sudden death" in page and "1 Prize card each" in page
    assert 'name="sudden_death" value="1"' in page and "I won the sudden death" in page
    assert 'value="2"' in page  # "We both won again" goes one step further

    report(client, match, {"mode": "quick", "sudden_death": "1", "outcome": "won"})
    client.force_login(misty.user)
    report(client, match, {"mode": "quick", "sudden_death": "1", "outcome": "lost"})

    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == Match.Result.A
    games = list(match.games.order_by("number", "sequence"))
    assert [(g.number, g.sequence, g.outcome, g.prizes) for g in games] == [
        (1, 0, "both_won", 6),
        (1, 1, "a", 1),
    ]
    assert games[1].replay_of_id == games[0].pk
    page = page_of(client, match)
    assert '<li class="replay">' in page and "Sudden death (1 Prize card)" in page
    assert "both won at once" in page


def test_a_sudden_death_cannot_end_in_a_tie(client, match, ash):
    client.force_login(ash.user)
    response = report(client, match, {"mode": "quick", "sudden_death": "1", "outcome": "tie"})
    assert "A sudden-death game ends with a winner" in response.content.decode()
    assert not ResultReport.objects.exists()


def test_only_the_two_players_report(client, match, make_player, register, organiser):
    url = reverse("match-report", args=[match.pk])
    response = client.post(url, {"mode": "quick", "outcome": "won"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    stranger = make_player()
    register(stranger)
    client.force_login(stranger.user)
    assert client.post(url, {"mode": "quick", "outcome": "won"}).status_code == 403
    client.force_login(organiser)
    assert client.post(url, {"mode": "quick", "outcome": "won"}).status_code == 403
    assert not ResultReport.objects.exists()


def test_best_of_three_game_by_game_then_the_opponent_confirms(client, bo3_match):
    brock, gary = bo3_match.player_a.player, bo3_match.player_b.player
    client.force_login(gary.user)  # Gary is B: "me" is b
    page = page_of(client, bo3_match)
    assert 'name="game_1"' in page and 'name="game_5"' in page and 'name="game_6"' not in page

    data = {"mode": "games", "game_1": "me", "game_2": "opponent", "game_3": "both_won",
            "game_4": "me", "reason_1": "played", "reason_2": "no_show"}  # fmt: skip
    response = report(client, bo3_match, data)
    assert "Your opponent is asked to confirm" in response.content.decode()
    payload = ResultReport.objects.get(side="b").payload
    assert payload["result"] == "b"
    assert [(g["number"], g["sequence"], g["outcome"], g["reason"]) for g in payload["games"]] == [
        (1, 0, "b", "played"), (2, 0, "a", "no_show"), (3, 0, "both_won", "played"), (3, 1, "b", "played"),
    ]  # fmt: skip

    client.force_login(brock.user)
    report(client, bo3_match, {"mode": "confirm"})
    bo3_match.refresh_from_db()
    assert bo3_match.result == Match.Result.B
    assert (bo3_match.a_game_wins, bo3_match.b_game_wins) == (1, 2)
    page = page_of(client, bo3_match)
    assert "Gary Oak won 2–1" in page and "no-show" in page


def test_an_incomplete_report_is_refused_and_the_form_keeps_the_input(client, bo3_match):
    client.force_login(bo3_match.player_a.player.user)
    response = report(
        client, bo3_match, {"mode": "games", "game_1": "me", "reason_1": "penalty"}, follow=False
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "The match is not over" in page
    assert '<option value="me" selected>' in page and '<option value="penalty" selected>' in page
    assert not ResultReport.objects.exists()


def test_an_empty_games_form_says_what_to_do(client, bo3_match):
    client.force_login(bo3_match.player_a.player.user)
    response = report(client, bo3_match, {"mode": "games"}, follow=False)
    assert "Enter the games in the order they were played." in response.content.decode()


def test_staff_decide_a_dispute_and_the_history_shows_who_and_what(
    client, match, ash, misty, organiser
):
    for player in (ash, misty):
        client.force_login(player.user)
        report(client, match, {"mode": "quick", "outcome": "won"})
    client.force_login(organiser)
    page = page_of(client, match)
    assert 'id="staff-result"' in page and 'id="reports"' in page
    assert "Disputed" in page

    response = client.post(
        reverse("match-result", args=[match.pk]),
        {"game_1": "a", "reason_1": "played", "note": "judge call: Ash took the last Prize"},
        follow=True,
    )
    assert "Result saved: Ash Ketchum won 1–0." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == Match.Result.A

    client.post(
        reverse("match-result", args=[match.pk]),
        {"game_1": "both_won", "game_2": "b", "note": "corrected after review"},
    )
    match.refresh_from_db()
    assert match.result == Match.Result.B
    assert ResultChange.objects.filter(match=match).count() == 2
    page = page_of(client, match)
    history = page[page.index('id="history"') :]
    assert "no result → <strong>Ash Ketchum won: G1 Ash Ketchum won</strong>" in history
    assert (
        "Ash Ketchum won: G1 Ash Ketchum won → <strong>Misty Waterflower won: G1 both won at once; G1 sudden death (1 Prize) Misty Waterflower won</strong>"
        in history
    )
    assert "corrected after review" in history and "oak" in history
    assert Game.objects.filter(match=match).count() == 2


def test_a_staff_result_that_is_incomplete_is_refused_and_kept(client, match, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("match-result", args=[match.pk]), {"game_1": "both_won", "note": "half done"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "The match is not over" in page and 'value="half done"' in page
    match.refresh_from_db()
    assert match.result == ""


def test_players_cannot_use_the_staff_result_form(client, match, ash):
    client.force_login(ash.user)
    assert client.post(reverse("match-result", args=[match.pk]), {"game_1": "a"}).status_code == 403


def test_a_top_cut_tiebreaker_game_is_called_sudden_death(client, match, organiser):
    from matches import services
    from matches.models import Round

    Round.objects.filter(pk=match.round_id).update(stage=Round.Stage.TOP_CUT)
    match.refresh_from_db()
    services.set_result(
        match=match,
        by_user=organiser,
        payload={"games": [{"outcome": "double_loss"}, {"outcome": "a"}]},
    )
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "Game 1:" in page and "Game 2 (sudden death, 1 Prize card):" in page


def test_a_players_games_form_is_rendered_once_for_the_same_rules_and_language(
    client, event, ash, misty, make_player, register, templates
):
    """The game-by-game form of a player's match page is the same bytes for every match
    with the same rules and language: rendered once per process (`games_form_body`), in
    each language, and each time for a form that holds a player's input."""
    from matches.templatetags import match_tags

    brock, gary = make_player("Brock Harrison"), make_player("Gary Oak")
    round_ = make_round(
        event,
        [
            (registration_of(ash, event), registration_of(misty, event)),
            (register(brock, to=event), register(gary, to=event)),
        ],
    )
    first, second = round_.matches.order_by("table")
    match_tags._BODIES.clear()
    body = "matches/_games_form_body.html"

    client.force_login(ash.user)
    page = page_of(client, first)
    assert templates.count(body) == 1
    (kept,) = match_tags._BODIES.values()
    assert kept in page and 'name="game_1"' in kept

    client.force_login(brock.user)
    templates.clear()
    assert kept in page_of(client, second)
    assert body not in templates

    templates.clear()
    french = client.get(reverse("match-detail", args=[second.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert templates.count(body) == 1 and kept not in french.content.decode()
    assert len(match_tags._BODIES) == 2

    templates.clear()
    refused = report(client, second, {"mode": "games", "reason_1": "penalty"}, follow=False)
    assert refused.status_code == 200 and templates.count(body) == 1
    assert '<option value="penalty" selected>' in refused.content.decode()


@pytest.mark.django_db(transaction=True)  # the rows' version bumps run at their commits
def test_the_match_page_reads_the_match_row_alone_its_frame_is_kept(client, match, ash, misty):
    """The match page reads the match row alone; its round, event and players come from
    the copy kept per event (`report_frame.framed_match`), read once, not on each view."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(ash.user)
    assert "Misty Waterflower" in page_of(client, match)
    client.force_login(misty.user)
    with CaptureQueriesContext(connection) as ctx:
        assert "Ash Ketchum" in page_of(client, match)
    sql = [q["sql"] for q in ctx.captured_queries]
    matches = [q for q in sql if q.startswith('SELECT "matches_match"."id"')]
    assert matches and all("JOIN" not in q for q in matches)
    assert not [q for q in sql if 'FROM "league_event"' in q or 'FROM "league_registration"' in q]
