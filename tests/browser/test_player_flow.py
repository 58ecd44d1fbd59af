"""A player in a real browser (Debian's Chromium driven by Playwright): log in, paste a
decklist, read the verdict line by line, fix it, get it accepted."""

import pytest

from league.models import Registration
from tests.browser.conftest import shot
from tests.factories import EventFactory, PlayerFactory, sample_cards, sample_deck_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_page(browser):
    return browser.new_page(viewport={"width": 420, "height": 900})  # a phone


def test_a_player_registers_a_deck_and_sees_each_problem_on_its_line(site, browser_page):
    sample_cards()
    event = EventFactory(name="Browser Cup")
    player = PlayerFactory(user__username="ash")
    player.user.set_password("pikachu-pass")
    player.user.save()
    Registration.objects.create(event=event, player=player, division="masters")
    page = browser_page

    page.goto(f"{site.url}/accounts/login/?next=/events/{event.pk}/deck/")
    page.fill("input[name=username]", "ash")
    page.fill("input[name=password]", "pikachu-pass")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/events/{event.pk}/deck/")

    broken = sample_deck_text().replace("4 Pikachu DM1 1", "5 Pikachu DM1 1") + "\nfour Raichu"
    page.fill("textarea", broken)
    page.click("button[name=submit]")
    page.wait_for_load_state()
    shot(page, "deck-verdict-illegal.png")
    body = page.inner_text("body")
    assert "not legal" in body.lower()
    assert "four Raichu" in body  # the line that could not be read is shown with its problem
    assert "Pikachu" in body and "at most 4" in body
    assert page.input_value("textarea").strip() == broken.strip()  # nothing typed is lost

    page.fill("textarea", sample_deck_text())
    page.click("button[name=submit]")
    page.wait_for_load_state()
    shot(page, "deck-verdict-legal.png")
    assert "saved: legal (60 cards)" in page.inner_text("body")
    assert Registration.objects.get(player=player).deck_submissions.count() == 2
