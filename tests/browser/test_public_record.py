"""The public record at a phone's width (360 px) and a desk's: the event page with its
details, the roster, the poster, the organiser's form with the new fields, the events
search, a player's page. None may scroll sideways. Screenshots: var/screenshots/record-*."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league import services as league_services
from league.models import Event, Player
from tests.browser.conftest import shot
from tests.browser.test_phone_width import OVERFLOW
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESK = {"width": 1280, "height": 900}


def build() -> tuple[Event, object]:
    organiser = get_user_model().objects.create_user("oak", password="pallet-town-42")
    league = LeagueFactory(name="Pallet Town League", slug="pallet", organisers=[organiser])
    season = SeasonFactory(league=league)
    event = EventFactory(
        season=season,
        name="Viridian City League Challenge",
        starts_at=timezone.now() + dt.timedelta(days=3),
        venue_name="Viridian City Community Hall, upstairs",
        venue_address="12 Route 2 Long Road Name\nViridian City VC1 2AB",
        time_zone="Europe/London",
        entry_fee="£5",
        description="Standard, best of 3. Bring sleeves and a deck box.",
        contact="league-challenge-organiser@pallet-town.example",
        capacity=3,
    )
    names = [("Ash Ketchum", 1990), ("Brock Harrison", 2013), ("Misty Waterflower", 1995),
             ("Gary Oak", 1991)]  # fmt: skip
    for n, (name, year) in enumerate(names):
        player = PlayerFactory(name=name, player_id=f"90000{n}", birth_date=dt.date(year, 1, 5))
        league_services.register(event=event, player=player)
    return event, organiser


def visit(page, url: str, name: str) -> dict:
    response = page.goto(url)
    assert response.status == 200, url
    shot(page, name)
    return page.evaluate(OVERFLOW)


def test_the_record_pages_fit_a_phone_and_a_desk(site, browser):
    event, _ = build()
    too_wide = []
    for label, size in (("phone", PHONE), ("desk", DESK)):
        page = browser.new_context(viewport=size).new_page()
        for name, path in (
            ("event", f"/events/{event.pk}/"),
            ("roster", f"/events/{event.pk}/roster/"),
            ("poster", f"/events/{event.pk}/poster/"),
            ("events", "/events/?q=viridian"),
            ("player", f"/players/{Player.objects.get(name='Brock Harrison').pk}/"),
        ):
            measured = visit(page, f"{site.url}{path}", f"record-{label}-{name}.png")
            if measured["scroll"] > measured["client"] or measured["controls"]:
                too_wide.append((label, name, measured))
        if label == "phone":
            page.goto(f"{site.url}/events/{event.pk}/")
            assert (
                page.locator("a.map-link")
                .get_attribute("href")
                .startswith("https://www.openstreetmap.org/search?query=12%20Route%202")
            )
            assert "Brock H." in page.goto(f"{site.url}/events/{event.pk}/roster/").text()
            assert "1 on the waiting list" in page.content()
        page.context.close()
    assert too_wide == [], too_wide


def test_the_organiser_form_at_a_phone_width(site, browser):
    event, _ = build()
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=username]", "oak")
    page.fill("input[name=password]", "pallet-town-42")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    measured = visit(page, f"{site.url}/events/{event.pk}/edit/", "record-phone-event-form.png")
    assert measured["scroll"] <= measured["client"] and not measured["controls"], measured
    assert page.locator("select[name=time_zone]").input_value() == "Europe/London"
    page.fill("input[name=entry_fee]", "£6")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "£6" in page.content()
    # The organiser is a player too: their profile's public page and calendar address.
    oak = get_user_model().objects.get(username="oak")
    PlayerFactory(user=oak, name="Samuel Oak", player_id="123456", birth_date=dt.date(1950, 3, 3))
    page.goto(f"{site.url}/accounts/profile/")
    page.click("button[value=calendar]")
    page.wait_for_load_state()
    assert "/calendar/" in page.locator("input.calendar-url").input_value()
    shot(page, "record-phone-profile.png")
    measured = page.evaluate(OVERFLOW)
    assert measured["scroll"] <= measured["client"] and not measured["controls"], measured


def test_a_public_list_reads_by_section_at_a_phone_width(site, browser):
    from decks.models import PreconDeck
    from tests.factories import sample_cards

    sample_cards()
    event, organiser = build()
    Event.objects.filter(pk=event.pk).update(decklists_open=Event.DecklistsOpen.NOW)
    registration = Player.objects.get(name="Brock Harrison").registrations.get()
    text = PreconDeck.objects.get(pk="d-demo1-1").as_decklist_text()
    league_services.submit_deck(registration=registration, text=text, by_user=organiser)
    page = browser.new_context(viewport=PHONE).new_page()
    url = f"{site.url}/events/{event.pk}/decks/{registration.pk}/"
    measured = visit(page, url, "record-phone-decklist.png")
    assert measured["scroll"] <= measured["client"] and not measured["controls"], measured
    page.click("details.tcg-live summary")
    assert "Total Cards: 60" in page.locator("details.tcg-live textarea").input_value()
    shot(page, "record-phone-decklist-tcg-live.png")
    assert "Brock H." in page.locator("h1").inner_text()
