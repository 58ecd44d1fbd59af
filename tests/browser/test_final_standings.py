"""A finished event's standings page on a 360 px phone: the final places, the top-cut
winner first (marked), the Swiss standings one tap away (issue 26, item 2). The demo
league's "League Cup" is finished with a top cut."""

import io

import pytest
from django.core.management import call_command

from league.models import Event, EventPlacement
from matches.models import Match, Round
from tests.browser.conftest import shot
from tests.factories import sample_cards

PHONE = {"width": 360, "height": 740}
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_finished_events_standings_show_the_top_cut_winner_first(browser, site):
    sample_cards()
    call_command("load_demo", stdout=io.StringIO())
    event = Event.objects.get(name="League Cup")
    final = (
        Match.objects.filter(round__event=event, round__stage=Round.Stage.TOP_CUT)
        .select_related("player_a__player", "player_b__player")
        .order_by("-round__number")
        .first()
    )
    winner = (final.player_a if final.result == "a" else final.player_b).player.name
    assert EventPlacement.objects.get(event=event, place=1).registration.player.name == winner
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site.url}/events/{event.pk}/standings/")
    assert page.locator("h1").inner_text() == "Final standings"
    first = page.locator("table.standings tbody tr").first
    cells = first.locator("td")
    assert cells.nth(0).inner_text() == "1"
    assert cells.nth(1).locator("a").inner_text() == winner
    assert cells.nth(1).locator(".reached").inner_text() == "Winner"
    assert cells.count() == 6  # place, player, record, points, OWP, OOWP: all in view
    for i in range(cells.count()):
        box = cells.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    for cell in (cells.nth(0), cells.nth(1)):
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    shot(page, "phone-final-standings.png")
    # The Swiss standings, one tap away.
    page.get_by_role("link", name="Swiss standings").click()
    page.wait_for_url("**/standings/?round=*")
    assert page.locator("h1").inner_text().startswith("Swiss standings after round")
    shot(page, "phone-final-standings-swiss.png")
    # The final results with decks (issue 32): the winner first, the page never scrolls sideways.
    page.goto(f"{site.url}/events/{event.pk}/results/")
    first = page.locator("table.results tbody tr").first.locator("td").nth(1)
    assert first.inner_text().splitlines() == [winner, "Winner"]
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    shot(page, "phone-final-results.png")
    page.context.close()
