"""The floor in a real browser, at phone width: a player calls a judge, a judge takes the
call, extends the table by 5 minutes and issues a Prize penalty; in the next round the same
player gets a game loss at another table. The clocks, the results, the standings and the
player's penalty history follow each step. Screenshots of the judges' queue and of the
player's card with the extension: var/screenshots/floor-*.png."""

import re

import pytest
from django.db.models import Q

from floor.models import JudgeCall, Penalty
from league.models import Registration
from matches import services
from matches.models import Match
from tests.browser.conftest import shot
from tests.browser.test_phone_width import OVERFLOW, PHONE
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "floor-pass-123"


def login(context, site, username: str):
    page = context.new_page()
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


def fits_the_phone(page) -> None:
    fit = page.evaluate(OVERFLOW)
    assert fit["scroll"] <= fit["client"] and fit["controls"] == [], fit


def user(username: str):
    account = UserFactory(username=username)
    account.set_password(PASSWORD)
    account.save()
    return account


def match_of(round_, name: str) -> Match:
    return Match.objects.get(
        Q(player_a__player__name=name) | Q(player_b__player__name=name), round=round_
    )


def test_a_floor_scenario(site, browser):
    judge = user("judge-oak")
    event = EventFactory(
        name="Floor Cup", season=SeasonFactory(league=LeagueFactory(organisers=[judge]))
    )
    names = ["Ash", "Misty", "Brock", "Gary"]
    for name in names:
        player = PlayerFactory(name=name, user=user(name.lower()))
        Registration.objects.create(
            event=event, player=player, division="masters", status="checked_in"
        )
    round_1 = services.pair_next_round(event=event, by_user=judge)
    services.start_clock(round_=round_1, by_user=judge)
    round_1.refresh_from_db()
    ash_match = match_of(round_1, "Ash")
    ash_side = "a" if ash_match.player_a.player.name == "Ash" else "b"

    player_ctx = browser.new_context(viewport=PHONE)
    judge_ctx = browser.new_context(viewport=PHONE)
    ash = login(player_ctx, site, "ash")
    oak = login(judge_ctx, site, "judge-oak")

    # The player calls a judge from the match page.
    ash.goto(f"{site.url}/matches/{ash_match.pk}/")
    ash.fill("#judge-reason", "Opponent's Iono: how many cards?")
    ash.click("#call-judge button[type=submit]")
    ash.wait_for_load_state()
    # Not "on the way" before anyone took it: the call's status instead of the empty form.
    body = ash.inner_text("body")
    assert "on the way" not in body and "Waiting for a judge" in body
    assert ash.locator("#judge-reason").count() == 0

    # The judge sees it in the queue with its table and age, takes it.
    oak.goto(f"{site.url}/events/{event.pk}/floor/")
    queue = oak.inner_text("#judge-calls")
    assert f"Table {ash_match.table}" in queue and "Iono" in queue and "Nobody yet" in queue
    assert re.search(r"\d+ s ago", queue)
    oak.click("li[data-call] button:has-text('Take')")
    oak.wait_for_load_state()
    assert "Taken by judge-oak" in oak.inner_text("#judge-calls")
    fits_the_phone(oak)
    shot(oak, "floor-judge-queue.png")
    ash.reload()
    assert "judge-oak is on the way" in ash.inner_text(".judge-call-status")
    shot(ash, "floor-player-call-taken.png")

    # Extends the table by 5 minutes from its judge tools.
    oak.click(f"#judge-calls a:has-text('Table {ash_match.table}')")
    oak.wait_for_load_state()
    oak.fill("#id_minutes", "5")
    oak.fill("#id_reason", "long ruling")
    oak.click("#extend button[type=submit]")
    oak.wait_for_load_state()
    assert "+5 min" in oak.inner_text("#table-clock")
    fits_the_phone(oak)

    # A Prize penalty for Ash: recorded, the result untouched.
    oak.select_option("#id_side", ash_side)
    oak.select_option("#id_infraction", "procedural-minor")
    oak.select_option("#id_penalty", "prize")
    oak.fill("#id_prizes", "2")
    oak.fill("#id_note", "drew an extra card")
    oak.click("#penalty button[type=submit]")
    oak.wait_for_load_state()
    assert "Prize penalty (2 Prizes) for Ash" in oak.inner_text("body")
    assert Match.objects.get(pk=ash_match.pk).status != Match.Status.FINAL

    # The call is closed with a note.
    oak.goto(f"{site.url}/events/{event.pk}/floor/")
    oak.fill("li[data-call] input[name=note]", "explained Iono; prize penalty")
    oak.click("li[data-call] button:has-text('Close')")
    oak.wait_for_load_state()
    assert "No open calls" in oak.inner_text("#judge-calls")
    assert JudgeCall.objects.get().status == "closed"

    # Ash's card shows the extended clock: 5 minutes more than the other table.
    ash.goto(f"{site.url}/events/{event.pk}/")
    card = ash.inner_text(".my-match")
    assert "+5 min" in card
    mine = int(ash.get_attribute(".my-match [role=timer]", "data-remaining"))
    round_left = int((round_1.ends_at - round_1.clock_started_at).total_seconds())
    assert round_left + 4 * 60 < mine <= round_left + 5 * 60
    fits_the_phone(ash)
    shot(ash, "floor-player-card-extension.png")
    # The pairings and the projector show the extension at that table.
    ash.goto(f"{site.url}/events/{event.pk}/rounds/1/")
    assert "+5 min" in ash.inner_text("table.pairings")
    ash.goto(f"{site.url}/events/{event.pk}/rounds/1/projector/")
    assert "+5 min" in ash.inner_text("body")

    # Round 1 ends (Ash wins at the extended table), round 2 is paired.
    for match in Match.objects.filter(round=round_1):
        winner = ash_side if match.pk == ash_match.pk else "a"
        services.set_result(match=match, by_user=judge, payload={"games": [{"outcome": winner}]})
    services.close_round(round_=round_1, by_user=judge)
    round_2 = services.pair_next_round(event=event, by_user=judge)
    services.start_clock(round_=round_2, by_user=judge)
    later = match_of(round_2, "Ash")
    side = "a" if later.player_a.player.name == "Ash" else "b"
    opponent = (later.player_b if side == "a" else later.player_a).player.name

    # A game loss for Ash at another table decides that match through the result rules.
    oak.goto(f"{site.url}/matches/{later.pk}/floor/")
    oak.select_option("#id_side", side)
    oak.select_option("#id_infraction", "procedural-major")
    oak.select_option("#id_penalty", "game-loss")
    oak.click("#penalty button[type=submit]")
    oak.wait_for_load_state()
    body = oak.inner_text("body")
    assert "Game loss for Ash" in body and "The result was updated" in body
    history = oak.inner_text("table.penalty-history")  # Ash's, the first player's or the second's
    oak.goto(f"{site.url}/matches/{later.pk}/")
    assert f"{opponent} won" in oak.inner_text("body")
    later.refresh_from_db()
    assert later.status == Match.Status.FINAL and later.games.get().reason == "penalty"

    # Standings after round 2 (staff see the live ones): the opponent has 2 wins or 1.
    for match in Match.objects.filter(round=round_2).exclude(pk=later.pk):
        services.set_result(match=match, by_user=judge, payload={"games": [{"outcome": "a"}]})
    services.close_round(round_=round_2, by_user=judge)
    oak.goto(f"{site.url}/events/{event.pk}/standings/")
    standings = oak.inner_text("table.standings")
    opponent_row = next(line for line in standings.splitlines() if opponent in line)
    ash_row = next(line for line in standings.splitlines() if "Ash" in line)
    assert "1-1-0" in ash_row and ("2-0-0" in opponent_row or "1-1-0" in opponent_row)

    # Ash's own history shows both penalties.
    ash.goto(f"{site.url}/me/penalties/")
    mine = ash.inner_text("table.penalty-history")
    assert "Prize penalty (2 Prizes)" in mine and "Game loss" in mine
    assert Penalty.objects.filter(player__name="Ash").count() == 2
    assert history  # the judge saw a history table on the table page
    shot(ash, "floor-player-penalties.png")
