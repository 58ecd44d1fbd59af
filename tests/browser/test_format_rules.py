"""Format rules in the browser, at phone width: the basic game's rules and play notes on the
event page, and a best-of-1 match where both players won at once and one of them won both
ways, reported through the phone buttons. Screenshots: var/screenshots/rules-*.png."""

import pytest

from decks.models import Format
from decks.services import ensure_default_formats
from league import services as league_services
from matches.models import Match
from tests.browser.conftest import shot
from tests.factories import (
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)
from tests.pages.conftest import make_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 360, "height": 740}
PASSWORD = "pokemon-rules"


def player(name: str, event):
    user = UserFactory(username=name.split()[0].lower())
    user.set_password(PASSWORD)
    user.save()
    return league_services.register(event=event, player=PlayerFactory(user=user, name=name))


def log_in(page, base: str, username: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{next_path}")


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_player_reports_a_game_won_both_ways_on_a_phone(site, browser):
    ensure_default_formats()  # a transactional test's database was flushed of the seeded rows
    event = EventFactory(
        season=SeasonFactory(league=LeagueFactory()),
        name="Starter Night",
        format=Format.objects.get(key="basic-1999"),
        best_of=1,
    )
    ash, misty = player("Ash Ketchum", event), player("Misty Waterflower", event)
    match = make_round(event, [(ash, misty)]).matches.get()
    base = site.url
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()

    page.goto(f"{base}/events/{event.pk}/")
    rules = page.locator("#format-rules")
    assert "Decks of exactly 30 cards" in rules.inner_text()
    assert "3 Prize cards each" in rules.inner_text()
    assert fits(page)
    shot(page, "rules-event-basic-game.png")

    log_in(page, base, "ash", f"/matches/{match.pk}/")
    page.get_by_role("button", name="We both won at once").click()
    page.wait_for_selector("#both-ways")
    assert "How many ways did each of you win?" in page.inner_text("#both-ways")
    assert fits(page)
    shot(page, "rules-both-ways-question.png")
    page.get_by_role("button", name="I won both ways, my opponent one: I win").click()
    page.wait_for_load_state()
    assert "Reported" in page.inner_text("main")

    context.clear_cookies()
    log_in(page, base, "misty", f"/matches/{match.pk}/")
    page.get_by_role("button", name="That's right: confirm").click()
    page.wait_for_load_state()
    assert "Both reports agree" in page.inner_text("main")
    shot(page, "rules-both-ways-result.png")
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == Match.Result.A
    game = match.games.get()
    assert (game.reason, game.prizes) == ("both_ways", 3)
    context.close()
