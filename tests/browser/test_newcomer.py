"""A newcomer's first event in a real browser (Debian's Chromium driven by Playwright).

A player signs up, fills the profile, registers, pastes an illegal list, reads the error on
its line, fixes it; the organiser (a second browser context) pairs and publishes round 1;
both players report on the match page; the organiser closes the round; the standings and
the projector show it. Screenshots go to var/screenshots/ (git-ignored).
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league import services as league_services
from league.models import Event, Player, Registration
from matches.models import Match
from tests.browser.conftest import shot
from tests.factories import (
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    sample_cards,
    sample_deck_text,
)

PHONE = {"width": 360, "height": 800}
DESK = {"width": 1280, "height": 900}
PASSWORD = "Pallet-town-2026"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def user_with_password(username: str):
    user = get_user_model().objects.create_user(username=username, email=f"{username}@example.test")
    user.set_password(PASSWORD)
    user.save()
    return user


def log_in(page, base: str, username: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{next_path}")


def fits_the_screen(page) -> bool:
    """Nothing wider than the viewport: no sideways scrolling on a phone."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_newcomer_signs_up_plays_a_round_and_sees_the_result(site, browser):
    base = site.url
    sample_cards()
    oak = user_with_password("oak")
    league = LeagueFactory(name="Pallet Town League", organisers=[oak])
    today = timezone.localdate()
    season = SeasonFactory(
        league=league, starts_on=today - timedelta(days=30), ends_on=today + timedelta(days=300)
    )
    event = EventFactory(
        season=season, name="Newcomer Cup", status=Event.Status.REGISTRATION, best_of=1
    )
    misty = PlayerFactory(name="Misty Waterflower", user=user_with_password("misty"))
    rival = Registration.objects.create(event=event, player=misty, division="masters")
    league_services.submit_deck(registration=rival, text=sample_deck_text(), by_user=misty.user)
    event_path = f"/events/{event.pk}/"

    # --- the newcomer, on a phone ------------------------------------------------------
    player = browser.new_context(viewport=PHONE).new_page()
    player.goto(f"{base}{event_path}")
    player.click("header >> text=Sign up")
    player.wait_for_url("**/accounts/signup/**")
    assert fits_the_screen(player)
    shot(player, "newcomer-signup.png")
    player.fill("#id_username", "dawn")
    player.fill("#id_email", "dawn@example.test")
    player.fill("#id_password1", PASSWORD)
    player.fill("#id_password2", PASSWORD)
    player.click("main button[type=submit]")
    player.wait_for_url("**/accounts/profile/**")
    assert "Step 2 of 2" in player.inner_text("main")
    assert player.input_value("#id_email") == "dawn@example.test"

    player.fill("#id_name", "Dawn Berlitz")
    player.fill("#id_player_id", "2210987")
    player.fill("#id_birth_date", "1996-02-03")
    shot(player, "newcomer-profile.png")
    player.click("main button[type=submit]")
    player.wait_for_url(f"**{event_path}")  # back where the newcomer started
    assert "Your player profile is ready" in player.inner_text("main")
    assert Player.objects.get(user__username="dawn").player_id == "2210987"

    player.click(f"main form[action='{event_path}register/'] button")
    player.wait_for_load_state()
    assert "You are registered for Newcomer Cup." in player.inner_text("main")

    player.click("header >> text=My events")
    player.wait_for_url("**/me/")
    assert "not submitted" in player.inner_text(f"#event-{event.pk}")
    assert fits_the_screen(player)
    player.click(f"#event-{event.pk} >> text=Submit your deck")
    player.wait_for_url(f"**{event_path}deck/")

    broken = sample_deck_text().replace("4 Pikachu DM1 1", "5 Pikachu DM1 1")
    player.fill("textarea", broken)
    player.click("button[name=submit]")
    player.wait_for_load_state()
    shot(player, "newcomer-deck-illegal.png")
    assert fits_the_screen(player)
    assert "not legal" in player.inner_text(".messages")
    bad_line = player.locator("#verdict tr.line.err")
    assert bad_line.count() == 1
    assert "5 Pikachu DM1 1" in bad_line.inner_text() and "at most 4" in bad_line.inner_text()
    assert player.input_value("textarea").strip() == broken.strip()  # nothing typed is lost

    player.fill("textarea", player.input_value("textarea").replace("5 Pikachu", "4 Pikachu"))
    player.click("button[name=submit]")
    player.wait_for_load_state()
    assert "saved: legal (60 cards)" in player.inner_text(".messages")
    shot(player, "newcomer-deck-legal.png")
    dawn = Registration.objects.get(event=event, player__user__username="dawn")
    assert [d.legal for d in dawn.deck_submissions.order_by("version")] == [False, True]

    # --- the organiser, on a laptop, pairs and publishes round 1 -----------------------
    organiser = browser.new_context(viewport=DESK).new_page()
    dashboard = f"{event_path}manage/"
    log_in(organiser, base, "oak", dashboard)
    organiser.click("button:has-text('Pair next round')")
    organiser.wait_for_load_state()
    assert "Round 1 is paired" in organiser.inner_text(".messages")
    organiser.click("button:has-text('Publish pairings')")
    organiser.wait_for_load_state()
    assert "pairings published" in organiser.inner_text(".messages")
    shot(organiser, "organiser-dashboard-round-1.png")
    match = Match.objects.get(round__event=event, round__number=1)
    assert {match.player_a_id, match.player_b_id} == {dawn.pk, rival.pk}

    # --- both players report ------------------------------------------------------------
    player.goto(f"{base}/me/")
    card = player.locator(".my-match")
    assert "Misty Waterflower" in card.inner_text() and "table 1" in card.inner_text().lower()
    shot(player, "newcomer-my-match.png")
    card.locator("text=Report the result").click()
    player.wait_for_url(f"**/matches/{match.pk}/**")
    player.click("button[name=outcome][value=won]")
    player.wait_for_load_state()
    assert "Your opponent is asked to confirm" in player.inner_text(".messages")

    rival_page = browser.new_context(viewport=PHONE).new_page()
    log_in(rival_page, base, "misty", f"/matches/{match.pk}/")
    rival_page.click("button[name=outcome][value=lost]")
    rival_page.wait_for_load_state()
    assert "The result stands" in rival_page.inner_text(".messages")

    # --- the organiser checks the results grid, then closes the round ---------------------
    organiser.goto(f"{base}{event_path}rounds/1/results/")
    grid = organiser.inner_text("main")
    assert "Misty" in grid and "Final" in grid.title()
    shot(organiser, "organiser-results-grid.png")
    organiser.goto(f"{base}{dashboard}")
    organiser.click("button:has-text('Close round 1')")
    organiser.wait_for_load_state()
    assert "Round 1 is closed." in organiser.inner_text(".messages")
    shot(organiser, "organiser-dashboard-closed.png")

    organiser.goto(f"{base}{event_path}standings/")
    standings = organiser.inner_text("table.standings")
    assert standings.index("Dawn Berlitz") < standings.index("Misty Waterflower")
    shot(organiser, "organiser-standings.png")
    player.goto(f"{base}{event_path}standings/")  # published: the players see them too
    assert "Dawn Berlitz" in player.inner_text("table.standings")

    organiser.goto(f"{base}{event_path}rounds/1/projector/")
    projector = organiser.inner_text("ol.players")
    assert "Dawn Berlitz" in projector and "v Misty Waterflower" in projector
    shot(organiser, "projector-round-1.png")

    # --- the newcomer's history ---------------------------------------------------------
    player.goto(f"{base}/me/")
    past = player.inner_text(f"#event-{event.pk}")
    assert "1st place" in past and "Won" in past and "Misty Waterflower" in past
    assert fits_the_screen(player)
    shot(player, "newcomer-my-events.png")
