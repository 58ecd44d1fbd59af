"""A TOM save refused for a running event, on a 360 px phone: the organiser uploads it on
the TOM page, reads in words what differs, and imports it as a new event with one tap."""

from pathlib import Path

import pytest

from league.models import Event, Registration
from matches import services
from tests.browser.conftest import shot
from tests.factories import (
    EventFactory,
    LeagueFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
)

PHONE = {"width": 360, "height": 740}
TDF = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_save_is_explained_with_a_way_on(browser, site):
    import datetime as dt

    organiser = UserFactory(username="phone-to")
    organiser.set_password("pokemon-demo")
    organiser.save()
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )
    event = EventFactory(season=season, name="Saturday Cup", status=Event.Status.RUNNING)
    for _ in range(4):
        RegistrationFactory(event=event, status=Registration.Status.CHECKED_IN)
    services.pair_next_round(event=event, by_user=organiser)
    page = browser.new_context(viewport=PHONE).new_page()
    # Importing the save as a new event plays a whole cup: slow on a loaded machine.
    page.set_default_timeout(180_000)
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=username]", "phone-to")
    page.fill("input[name=password]", "pokemon-demo")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{site.url}/events/{event.pk}/tom/")
    page.set_input_files("main input[type=file]", str(TDF / "litian80__2026-cmwc-jan-cup.tdf"))
    page.locator("main form button", has_text="Upload").first.click()
    page.wait_for_url(f"**/events/{event.pk}/tom/")
    card = page.locator("#refused")
    assert "already has 1 round paired here" in card.inner_text()
    button = card.get_by_role("button", name="Import it as a new event")
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    shot(page, "phone-tom-refused.png")
    button.click()
    page.wait_for_load_state()
    assert "imported as a new event" in page.locator("main").inner_text()
    assert Event.objects.filter(season=season).count() == 2
    page.context.close()
