"""The end of a round as the event's rule edition has it, through the pages: an event
dated 2025-10-01 (one extra turn, a 10-minute overtime clock) and one dated 2026-03-01
(three more turns, 15 minutes) run their own procedures; an event on the older rules keeps
its sudden death. Each test quotes the rule's source as written in the edition's data."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import RuleEdition
from matches import services
from matches.models import Game, Match
from tests.factories import EventFactory, LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def on(day: dt.date):
    return timezone.make_aware(dt.datetime.combine(day, dt.time(10)))


def source(key: str) -> str:
    return RuleEdition.objects.get(key=key).rules["end_of_round"]["source"]


def running_round(make_event, organiser, day, **fields):
    event, _regs = make_event(
        players=4, starts_at=on(day), rule_edition=None, swiss_rounds=1, top_cut=2, **fields
    )
    round_ = services.pair_next_round(event=event, by_user=organiser)
    services.start_clock(round_=round_, by_user=organiser)
    match = round_.matches.select_related("player_a__player__user", "player_b__player__user")[0]
    return event, round_, match


def report(client, match, side, **fields):
    player = (match.player_a if side == "a" else match.player_b).player
    client.force_login(player.user)
    data = {"game_1": "tie", "reason_1": "played", "at_time": "on", **fields}
    return client.post(reverse("match-report", args=[match.pk]), data)


def test_october_2025_one_extra_turn_then_a_draw(client, make_event, organiser):
    assert (
        "end of round, Swiss: one extra turn after time, a 10-minute overtime clock, a draw "
        "when there is no winner" in source("2025-09")
    )
    event, _round, match = running_round(make_event, organiser, dt.date(2025, 10, 1))
    client.force_login(match.player_a.player.user)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "one extra turn, on a 10-minute overtime clock" in page  # the match card
    assert "In force on the event&#x27;s date, 1 October 2025" in page
    detail = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "Turns played after time (1 in this event&#x27;s rules)" in detail
    assert "who was ahead on Prizes" not in detail  # a Swiss draw needs no Prizes
    refused = report(client, match, "a", extra_turns="3")
    assert refused.status_code == 200 and not match.reports.exists()
    report(client, match, "a", extra_turns="1")
    report(client, match, "b", extra_turns="1")
    match.refresh_from_db()
    assert (match.status, match.result, match.extra_turns) == ("final", "tie", 1)


def test_march_2026_three_turns_and_the_top_cut_plays_on_until_a_prize(
    client, make_event, organiser
):
    assert (
        "the active player finishes, then three more turns starting and ending with the "
        "opponent; 15-minute overtime clock" in source("2026-02")
    )
    top_cut_source = RuleEdition.objects.get(key="2026-02").rules["end_of_round"]["top_cut_source"]
    assert "the player ahead on Prizes wins; level → play on until a Prize is taken" in (
        top_cut_source
    )
    event, round_, match = running_round(make_event, organiser, dt.date(2026, 3, 1))
    client.force_login(match.player_a.player.user)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "three more turns starting and ending with the opponent, on a 15-minute" in page
    report(client, match, "a", extra_turns="3")
    report(client, match, "b", extra_turns="3")
    match.refresh_from_db()
    assert (match.result, match.extra_turns) == ("tie", 3)
    for other in round_.matches.exclude(pk=match.pk):
        services.set_result(match=other, by_user=organiser, payload={"games": [{"outcome": "a"}]})
    services.close_round(round_=round_, by_user=organiser)
    final = services.pair_next_round(event=event, by_user=organiser)
    services.start_clock(round_=final, by_user=organiser)
    cut = final.matches.get()
    client.force_login(organiser)
    detail = client.get(reverse("match-detail", args=[cut.pk])).content.decode()
    assert "play continues until a Prize is taken. Who took it?" in detail
    url = reverse("match-result", args=[cut.pk])
    base = {"game_1": "tie", "reason_1": "played", "at_time": "on", "extra_turns": "3"}
    missing = client.post(url, base)
    assert "say who was ahead on Prizes" in missing.content.decode()
    client.post(url, {**base, "ahead": "level", "next_prize": "b"})
    cut.refresh_from_db()
    assert cut.result == Match.Result.B
    assert list(cut.games.values_list("outcome", "reason")) == [("b", Game.Reason.NEXT_PRIZE)]


def test_the_older_rules_keep_sudden_death_in_the_top_cut(client, make_event, organiser):
    event, _regs = make_event(players=2, swiss_rounds=1, top_cut=2)  # the site's older rules
    round_ = services.pair_next_round(event=event, by_user=organiser)
    services.set_result(
        match=round_.matches.get(), by_user=organiser, payload={"games": [{"outcome": "a"}]}
    )
    services.close_round(round_=round_, by_user=organiser)
    final = services.pair_next_round(event=event, by_user=organiser)
    services.start_clock(round_=final, by_user=organiser)
    cut = final.matches.get()
    client.force_login(organiser)
    detail = client.get(reverse("match-detail", args=[cut.pk])).content.decode()
    assert "Turns played after time" not in detail
    answer = client.post(
        reverse("match-result", args=[cut.pk]),
        {"game_1": "tie", "reason_1": "played", "at_time": "on"},
    )
    assert "sudden death" in answer.content.decode()
    cut.refresh_from_db()
    assert not cut.result


def test_the_organiser_picks_an_edition_and_two_days_on_the_event_form(client, organiser):
    league = LeagueFactory(organisers=[organiser])
    SeasonFactory(league=league)
    client.force_login(organiser)
    form = client.get(f"/leagues/{league.slug}/events/new/").content.decode()
    assert "13 February 2026: the active player finishes" in form  # the editions to pick from
    older = RuleEdition.objects.get(key="2025-09")
    answer = client.post(
        f"/leagues/{league.slug}/events/new/",
        {
            "name": "Regional",
            "format": EventFactory.format.function().pk,
            "starts_at": "2026-03-01T10:00",
            "best_of": 3,
            "round_minutes": 50,
            "division_mode": "combined",
            "sudden_death_prizes": 1,
            "status": "registration",
            "rule_edition": older.pk,
            "days": 2,
            "day1_rounds": 9,
        },
    )
    assert answer.status_code == 302
    page = client.get(answer.url).content.decode()
    assert "1 September 2025: one extra turn" in page
    assert "Chosen by the organiser (the event is on 1 March 2026)." in page
    assert "Two days: day 2 for players with 19 match points or more" in page


def top_cut_final(make_event, organiser, day, best_of=1):
    """A 2-player event on `day` (the edition in force then): the Swiss round played, the
    final paired and its clock running."""
    event, _regs = make_event(
        players=2, starts_at=on(day), rule_edition=None, swiss_rounds=1, top_cut=2, best_of=best_of
    )
    round_ = services.pair_next_round(event=event, by_user=organiser)
    services.set_result(
        match=round_.matches.get(),
        by_user=organiser,
        payload={"games": [{"outcome": "a"}] * (best_of // 2 + 1)},
    )
    services.close_round(round_=round_, by_user=organiser)
    final = services.pair_next_round(event=event, by_user=organiser)
    services.start_clock(round_=final, by_user=organiser)
    return final.matches.select_related("player_a__player__user", "player_b__player__user").get()


def quick(client, match, side, **fields):
    client.force_login((match.player_a if side == "a" else match.player_b).player.user)
    return client.post(
        reverse("match-report", args=[match.pk]), {"mode": "quick", "outcome": "tie", **fields}
    )


def test_march_2026_the_quick_tie_asks_who_was_ahead_in_the_top_cut(client, make_event, organiser):
    cut = top_cut_final(make_event, organiser, dt.date(2026, 3, 1))
    client.force_login(cut.player_a.player.user)
    url = reverse("match-detail", args=[cut.pk])
    page = client.get(url).content.decode()
    # "Tie at time" opens the question (a link, no report yet) instead of reporting a tie.
    assert '<button name="time" value="ahead" class="secondary">Tie at time</button>' in page
    assert '<button name="outcome" value="tie"' not in page
    asked = client.get(url, {"time": "ahead"}).content.decode()
    assert "unfinished after the 3 turns: who was ahead on Prize cards?" in asked
    assert "I was ahead: I win" in asked and "Level on Prize cards → play on" in asked
    assert "Level: a draw" not in asked  # no draw in the top cut
    level = client.get(url, {"time": "level"}).content.decode()
    assert "play continues until a Prize card is taken. Who took it?" in level
    # Level; A took the next Prize: both players say so from their own side.
    quick(client, cut, "a", ahead="level", next_prize="me")
    quick(client, cut, "b", ahead="level", next_prize="opponent")
    cut.refresh_from_db()
    assert cut.result == Match.Result.A
    assert list(cut.games.values_list("outcome", "reason")) == [("a", Game.Reason.NEXT_PRIZE)]


def test_march_2026_the_quick_tie_with_a_player_ahead(client, make_event, organiser):
    cut = top_cut_final(make_event, organiser, dt.date(2026, 3, 1))
    quick(client, cut, "a", ahead="opponent")
    quick(client, cut, "b", ahead="me")
    cut.refresh_from_db()
    assert cut.result == Match.Result.B
    assert list(cut.games.values_list("outcome", "reason")) == [("b", Game.Reason.PRIZES_AHEAD)]


def test_a_quick_tie_without_who_was_ahead_is_refused_in_words(client, make_event, organiser):
    cut = top_cut_final(make_event, organiser, dt.date(2026, 3, 1))
    answer = quick(client, cut, "a")
    assert answer.status_code == 302 and not cut.reports.exists()
    page = client.get(answer["Location"]).content.decode()
    assert "say who was ahead on Prizes" in page
    refused = quick(client, cut, "a", ahead="me", next_prize="me")  # a Prize only when level
    assert refused.status_code == 302 and not cut.reports.exists()


def test_the_swiss_quick_tie_stays_one_tap_where_it_is_a_draw(client, make_event, organiser):
    _event, _round, match = running_round(make_event, organiser, dt.date(2026, 3, 1))
    client.force_login(match.player_a.player.user)
    url = reverse("match-detail", args=[match.pk])
    page = client.get(url).content.decode()
    assert '<button name="outcome" value="tie" class="secondary">Tie at time</button>' in page
    assert "who was ahead on Prize cards" not in client.get(url, {"time": "ahead"}).content.decode()


def quick3(client, match, side, **fields):
    client.force_login((match.player_a if side == "a" else match.player_b).player.user)
    return client.post(
        reverse("match-report", args=[match.pk]), {"mode": "quick3", "outcome": "tie_1_1", **fields}
    )


def test_march_2026_best_of_3_game_3_unfinished_after_the_turns(client, make_event, organiser):
    cut = top_cut_final(make_event, organiser, dt.date(2026, 3, 1), best_of=3)
    client.force_login(cut.player_b.player.user)
    url = reverse("match-detail", args=[cut.pk])
    page = client.get(url).content.decode()
    assert "1–1 at time, game 3 unfinished after the turns" in page
    assert "1–1 at time, I won the sudden death" in page  # game 3 not started: sudden death
    asked = client.get(url, {"time": "ahead"}).content.decode()
    assert '<input type="hidden" name="mode" value="quick3">' in asked
    assert "who was ahead on Prize cards?" in asked and "I won 2–0" not in asked
    quick3(client, cut, "a", ahead="level", next_prize="opponent")
    quick3(client, cut, "b", ahead="level", next_prize="me")
    cut.refresh_from_db()
    assert (cut.result, cut.a_game_wins, cut.b_game_wins) == (Match.Result.B, 1, 2)
    assert list(cut.games.order_by("number").values_list("outcome", "reason")) == [
        ("a", Game.Reason.PLAYED),
        ("b", Game.Reason.PLAYED),
        ("b", Game.Reason.NEXT_PRIZE),
    ]


def test_the_older_rules_keep_the_best_of_3_sudden_death_buttons(client, make_event, organiser):
    cut = top_cut_final(make_event, organiser, dt.date(2025, 3, 1), best_of=3)  # older rules
    client.force_login(cut.player_a.player.user)
    page = client.get(reverse("match-detail", args=[cut.pk])).content.decode()
    assert "1–1 at time, I won the sudden death" in page
    assert "game 3 unfinished after the turns" not in page
