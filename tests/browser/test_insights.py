"""The stream overlay, the metagame charts and the QR poster in Debian's Chromium.

The overlay must take a reported result without a reload (a marker set on `window` is
still there after the score changed); the poster's code, cut out of a screenshot, must
decode back to the event's address. Screenshots go to var/screenshots/ and, when it
exists, /work/notes/shots/ (for the people who look at them)."""

import io
import re
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from insights import services
from league import services as league_services
from matches import services as match_services
from matches.services.standings import recompute_standings
from tests.browser.conftest import shot
from tests.factories import user_of
from tests.insights.setup import make_running_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NOTES_SHOTS = Path("/work/notes/shots")
CAMERA = "html { background: linear-gradient(135deg, #2d6a4f, #1b4332 60%, #081c15) !important; }"


def both_shots(page, name, **kwargs):
    shot(page, name)
    if NOTES_SHOTS.is_dir():
        page.screenshot(path=str(NOTES_SHOTS / name), full_page=True, **kwargs)


def test_the_overlay_takes_a_reported_result_without_reloading(site, browser, make_event, staff):
    event, round_, _ = make_running_event(make_event, staff)
    services.set_feature_table(user=staff, event=event, table=1)
    match = round_.matches.get(table=1)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{site.url}/events/{event.pk}/overlay/")
    page.wait_for_selector(f"text={match.player_a.player.name}")
    assert page.inner_text("[data-field=games-a]") == "0"
    assert page.inner_text("[data-field=archetype] >> nth=0") == ""  # lists not public yet
    expect(page.locator("[data-field=clock]")).to_have_text(re.compile(r"^\d\d:\d\d$"))
    page.evaluate("window.__notReloaded = true")
    page.add_style_tag(content=CAMERA)
    both_shots(page, "overlay-before.png")

    match_services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": "a"}]})
    league_services.publish_decklists(event=event, by_user=staff)
    # The page's own CSP forbids eval, so Playwright's `expect` polls instead of a function.
    expect(page.locator("[data-field=games-a]")).to_have_text("1", timeout=15000)
    expect(page.locator("[data-field=archetype] >> nth=0")).not_to_have_text("", timeout=15000)
    assert page.evaluate("window.__notReloaded") is True
    assert page.inner_text("[data-field=games-b]") == "0"
    assert page.locator(".player >> nth=0").locator("li").count() > 0  # the list's Pokémon
    both_shots(page, "overlay-after.png")
    # As OBS composes it: nothing but the overlay's own boxes is painted.
    page.goto(f"{site.url}/events/{event.pk}/overlay/?table=1")
    page.wait_for_selector(f"text={match.player_a.player.name}")
    png = page.screenshot(omit_background=True)
    corner = Image.open(io.BytesIO(png)).convert("RGBA").getpixel((2, 2))
    assert corner[3] == 0, "the overlay's background must be transparent"
    if NOTES_SHOTS.is_dir():
        (NOTES_SHOTS / "overlay-transparent.png").write_bytes(png)


@pytest.mark.parametrize("width", [360, 1280])
def test_the_metagame_charts_fit_a_phone_with_their_numbers_beside(
    site, browser, make_event, staff, width
):
    event, round_, regs = make_running_event(make_event, staff, name="Meta Cup")
    services.set_archetype(user=staff, registration=regs[2], archetype="Raichu Box")
    for number in (1, 2):  # two rounds, so a player's page has a line to draw
        if number == 2:
            round_ = match_services.pair_next_round(event=event, by_user=staff)
            match_services.publish_round(round_=round_, by_user=staff)
        for m in round_.matches.filter(player_b__isnull=False):
            match_services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "b"}]})
        match_services.close_round(round_=round_, by_user=staff)
        recompute_standings(event_id=event.pk, publish_round=number)
    league_services.publish_decklists(event=event, by_user=staff)
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{site.url}/events/{event.pk}/metagame/")
    assert page.locator("svg.chart").count() == 2
    for i in range(2):
        chart = page.locator("svg.chart").nth(i)
        box, drawn = chart.bounding_box(), float(chart.get_attribute("viewBox").split()[2])
        # Readable: its 14-16 px type is shown at 85 % of that size or more, within the screen.
        assert box["width"] >= 0.85 * drawn and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert "Raichu Box" in page.inner_text("table.metagame-shares")
    assert page.locator("table.metagame-matchups tbody tr").count() == 3
    assert "2-0-0" in page.inner_text("table.metagame-shares") or "0-2-0" in page.inner_text(
        "table.metagame-shares"
    )
    both_shots(page, f"metagame-{width}.png")
    page.click(f"text={regs[0].player.name}")
    page.wait_for_selector("svg.chart")
    assert page.locator("svg.chart circle").count() == 2  # a place after each round
    assert page.locator("table.player-rounds tbody tr").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    both_shots(page, f"player-rounds-{width}.png")


def test_the_posters_code_decodes_to_the_events_page(site, browser, make_event, staff):
    event, _, _ = make_running_event(make_event, staff, name="Poster Cup")
    page = browser.new_page(viewport={"width": 794, "height": 1123})  # A4 at 96 dpi
    page.goto(f"{site.url}/events/{event.pk}/poster/")
    assert "PAIRINGS" in page.inner_text(".call").upper()
    both_shots(page, "poster.png")
    png = page.locator("svg.qr").screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert [code.text for code in found] == [f"{site.url}/events/{event.pk}/"]


def test_a_players_code_decodes_to_their_registration_card(site, browser, make_event, staff):
    event, _, regs = make_running_event(make_event, staff, name="Code Cup")
    user = user_of(regs[0])
    user.set_password("scan-me-2026")
    user.save()
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(f"{site.url}/accounts/login/?next=/events/{event.pk}/my-code/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", "scan-me-2026")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/events/{event.pk}/my-code/")
    both_shots(page, "my-code.png")
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(page.locator("svg.qr").screenshot())))
    card = f"{site.url}/events/{event.pk}/registrations/{regs[0].pk}/card/"
    assert [code.text for code in found] == [card]
