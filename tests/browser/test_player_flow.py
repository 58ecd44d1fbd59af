"""A player in a real browser (Debian's Chromium driven by Playwright): log in, paste a
decklist, read the verdict line by line, fix it, get it accepted."""

import os
from pathlib import Path

import pytest

from league.models import Registration
from tests.conftest import ROOT
from tests.factories import EventFactory, PlayerFactory, sample_cards, sample_deck_text

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SHOTS = ROOT / "var" / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_page():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does it)")
    from playwright.sync_api import sync_playwright

    # Playwright runs an event loop in this thread; the ORM calls below are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )  # fmt: skip
        page = browser.new_page(viewport={"width": 420, "height": 900})  # a phone
        yield page
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def test_a_player_registers_a_deck_and_sees_each_problem_on_its_line(live_server, browser_page):
    sample_cards()
    event = EventFactory(name="Browser Cup")
    player = PlayerFactory(user__username="ash")
    player.user.set_password("pikachu-pass")
    player.user.save()
    Registration.objects.create(event=event, player=player, division="masters")
    page = browser_page

    page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.pk}/deck/")
    page.fill("input[name=username]", "ash")
    page.fill("input[name=password]", "pikachu-pass")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/events/{event.pk}/deck/")

    broken = sample_deck_text().replace("4 Pikachu DM1 1", "5 Pikachu DM1 1") + "\nfour Raichu"
    page.fill("textarea", broken)
    page.click("button[name=submit]")
    page.wait_for_load_state()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "deck-verdict-illegal.png"), full_page=True)
    body = page.inner_text("body")
    assert "not legal" in body.lower()
    assert "four Raichu" in body  # the line that could not be read is shown with its problem
    assert "Pikachu" in body and "at most 4" in body
    assert page.input_value("textarea").strip() == broken.strip()  # nothing typed is lost

    page.fill("textarea", sample_deck_text())
    page.click("button[name=submit]")
    page.wait_for_load_state()
    page.screenshot(path=str(SHOTS / "deck-verdict-legal.png"), full_page=True)
    assert "saved: legal (60 cards)" in page.inner_text("body")
    assert Registration.objects.get(player=player).deck_submissions.count() == 2
