"""A board-game night (Hasbro's Pokémon Master Trainer, "For 2 to 6 Players") played
through the pages on a phone: the organiser creates it on the event-creation page, 13
players are seated at tables of 5, 4 and 4, a player reports their own table's winner and
the organiser the others, the night is finished, and the league leaderboard shows the
points. Screenshots: var/screenshots/gamenight-*.png."""

import datetime as dt

import pytest
from django.utils import timezone

from league.models import Event, EventPlacement, SeasonStanding
from tests.browser.conftest import shot
from tests.browser.test_phone_width import OVERFLOW
from tests.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def log_in(page, site, username, password, next_path):
    page.goto(f"{site.url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{next_path}")


def fits_the_phone(page):
    width = page.evaluate(OVERFLOW)
    assert width["scroll"] <= width["client"] and not width["controls"], width


def test_a_board_game_night_for_thirteen_through_the_pages(site, browser):
    oak = UserFactory(username="oak")
    oak.set_password("oak-pass")
    oak.save()
    league = LeagueFactory(name="Pallet Town League", slug="pallet", organisers=[oak])
    season = SeasonFactory(league=league)
    page = browser.new_page(viewport=PHONE)
    page.on("dialog", lambda dialog: dialog.accept())  # "Finish the night and award…?"

    log_in(page, site, "oak", "oak-pass", f"/leagues/{league.slug}/events/new/")
    page.fill("input[name=name]", "Master Trainer Night")
    page.select_option("select[name=kind]", "board_game")
    starts = timezone.localtime() + dt.timedelta(hours=1)
    page.fill("input[name=starts_at]", starts.strftime("%Y-%m-%dT%H:%M"))
    page.click("main button[type=submit]")
    page.wait_for_url("**/night/")
    event = Event.objects.get(name="Master Trainer Night")
    assert event.kind == Event.Kind.BOARD_GAME and event.format is None

    players = []
    for n in range(13):
        player = PlayerFactory(name=f"Trainer {n + 1:02d}", user__username=f"trainer{n + 1}")
        RegistrationFactory(event=event, player=player)
        players.append(player)
    ash = players[0].user
    ash.set_password("ash-pass")
    ash.save()

    page.reload()
    assert "13" in page.inner_text("main")
    page.click("button[name=seat]")
    page.wait_for_selector("#seating")
    tables = page.locator("article.game-table")
    sizes = [tables.nth(i).locator("li").count() for i in range(tables.count())]
    assert sizes == [5, 4, 4]
    fits_the_phone(page)
    shot(page, "gamenight-seating.png")

    # Trainer 01 reports their own table from their phone.
    player_page = browser.new_page(viewport=PHONE)
    log_in(player_page, site, "trainer1", "ash-pass", f"/events/{event.pk}/night/")
    mine = player_page.locator("article.game-table.mine")
    assert "(you)" in mine.inner_text()
    mine.get_by_role("link", name="Report the winner").click()
    player_page.wait_for_url("**/report/")
    assert player_page.locator("input[name=winner]").count() in (4, 5)
    fits_the_phone(player_page)
    shot(player_page, "gamenight-report.png")
    player_page.get_by_label("Trainer 01").check()
    player_page.click("button[name=report]")
    player_page.wait_for_url("**/night/")
    assert "result saved" in player_page.inner_text("main")
    player_page.close()

    page.reload()
    for _ in range(2):  # the organiser reports the two other tables: first seat wins
        page.get_by_role("link", name="Report the winner").first.click()
        page.wait_for_url("**/report/")
        page.locator("input[name=winner]").first.check()
        page.click("button[name=report]")
        page.wait_for_url("**/night/")
    assert page.get_by_role("link", name="Report the winner").count() == 0
    assert page.locator("strong.ok", has_text="won").count() == 3
    shot(page, "gamenight-results.png")

    page.click("button[name=finish]")
    page.wait_for_selector("#places")
    fits_the_phone(page)
    shot(page, "gamenight-places.png")
    winners = set(
        EventPlacement.objects.filter(event=event, place=1).values_list(
            "registration__player__name", flat=True
        )
    )
    assert len(winners) == 3 and "Trainer 01" in winners

    page.goto(f"{site.url}/leagues/{league.slug}/")
    board = page.locator("table.leaderboard").inner_text()
    shot(page, "gamenight-leaderboard.png")
    table = season.points_table
    first = table["placements"]["1"] + table["attendance"]
    fourth = table["placements"]["4"] + table["attendance"]
    rows = {s.player.name: s.points for s in SeasonStanding.objects.select_related("player")}
    assert len(rows) == 13
    for name, points in rows.items():
        assert points == (first if name in winners else fourth)
        assert name in board
    assert f"Trainer 01\t{first}" in board
    assert "Board-game night" in page.inner_text("main")  # the format column
