"""The event's public record: its details (venue, time zone, fee, contact, map link) on the
form, the event page, the poster and the API; the roster, with the league's setting to hide
it, and minors shown by first name and initial."""

import datetime as dt

import pytest
from django.urls import reverse

from league.models import Registration
from league.public_record import public_name
from tests.factories import standard_format

pytestmark = pytest.mark.django_db


def settings_form(event, **overrides):
    data = {
        "name": event.name, "format": standard_format().pk, "starts_at": "2025-06-14T10:00",
        "best_of": 3, "round_minutes": 50, "division_mode": "combined",
        "sudden_death_prizes": 1, "status": "registration",
    }  # fmt: skip
    data.update(overrides)
    return data


DETAILS = {
    "venue_name": "Pallet Town Community Hall",
    "venue_address": "1 Route 1\nPallet Town PT1 1AA",
    "time_zone": "America/New_York",
    "entry_fee": "$10",
    "description": "Bring a deck box & sleeves.",
    "contact": "oak@example.test",
}


def test_the_organiser_gives_the_details_and_the_event_page_and_poster_show_them(
    client, organiser, event
):
    client.force_login(organiser)
    response = client.post(reverse("event-edit", args=[event.pk]), settings_form(event, **DETAILS))
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert event.venue_name == "Pallet Town Community Hall" and event.entry_fee == "$10"
    # 10:00 typed in New York's time zone (summer: UTC-4) is 14:00 UTC.
    assert event.starts_at == dt.datetime(2025, 6, 14, 14, 0, tzinfo=dt.UTC)

    client.logout()
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Pallet Town Community Hall" in page and "1 Route 1<br>Pallet Town PT1 1AA" in page
    assert "Sat 14 Jun 2025, 10:00" in page and "America/New_York" in page
    assert (
        "$10" in page and "oak@example.test" in page and "Bring a deck box &amp; sleeves." in page
    )
    assert (
        'href="https://www.openstreetmap.org/search?query=1%20Route%201%20Pallet%20Town%20PT1%201AA"'
        in page
    )
    assert "<script" not in page.split("<main", 1)[-1].split("</main>")[0]  # no map script

    poster = client.get(reverse("event-poster", args=[event.pk])).content.decode()
    assert "at Pallet Town Community Hall" in poster and "Pallet Town PT1 1AA" in poster
    assert "Saturday 14 June 2025, 10:00" in poster and "Entry: $10" in poster

    data = client.get(f"/api/events/{event.pk}/").json()
    assert data["venue_name"] == "Pallet Town Community Hall" and data["zone"] == "America/New_York"
    assert data["map_url"].startswith("https://www.openstreetmap.org/search?query=1%20Route")


def test_an_unknown_time_zone_is_refused_in_words(client, organiser, event):
    client.force_login(organiser)
    response = client.post(
        reverse("event-edit", args=[event.pk]), settings_form(event, time_zone="Mars/Olympus")
    )
    assert response.status_code == 200
    assert "Mars/Olympus is not a time zone" in response.content.decode()


def test_an_event_without_details_shows_the_site_time_zone_and_no_map(client, event):
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "(UTC)" in page and "openstreetmap" not in page


def test_a_minor_is_shown_by_first_name_and_initial(make_player):
    today = dt.date(2026, 11, 26)
    adult = make_player("Brock Harrison", birth_year=1990)
    minor = make_player("Brock Harrison", birth_year=2012)
    assert public_name(adult, today) == "Brock Harrison"
    assert public_name(minor, today) == "Brock H."
    minor.birth_date = dt.date(2008, 11, 27)  # 18 tomorrow
    assert public_name(minor, today) == "Brock H."
    minor.birth_date = dt.date(2008, 11, 26)  # 18 today
    assert public_name(minor, today) == "Brock Harrison"


@pytest.fixture
def roster_event(event, make_player, register):
    register(make_player("Ash Ketchum"))
    register(make_player("Brock Harrison", birth_year=2013))
    event.capacity = 2
    event.save()
    waiting = register(make_player("Gary Oak"))
    assert waiting.status == Registration.Status.WAITLISTED
    return event


def test_the_roster_shows_public_names_divisions_and_the_waiting_list_count(client, roster_event):
    event = roster_event
    assert (
        reverse("event-roster", args=[event.pk])
        in client.get(reverse("event-detail", args=[event.pk])).content.decode()
    )
    page = client.get(reverse("event-roster", args=[event.pk])).content.decode()
    assert "Ash Ketchum" in page and "Brock H." in page and "Senior" in page
    assert "Harrison" not in page and "Gary Oak" not in page  # waiting: a count only
    assert "1 on the waiting list" in page

    data = client.get(f"/api/events/{event.pk}/roster/").json()
    assert data["registered"] == 2 and data["waitlist"] == 1
    assert [(p["name"], p["division"]) for p in data["players"]] == [
        ("Ash Ketchum", "masters"),
        ("Brock H.", "senior"),
    ]
    everyone = client.get(f"/api/events/{event.pk}/registrations/").content.decode()
    assert "Brock H." in everyone and "Harrison" not in everyone


def test_a_hidden_roster_is_read_by_the_staff_only(client, organiser, roster_event, make_player):
    event = roster_event
    league = event.season.league
    client.force_login(make_player("Gary Oak").user)
    refused = client.post(reverse("league-roster-setting", args=[league.slug]), {"public": "0"})
    league.refresh_from_db()
    assert refused.status_code == 403 and league.roster_public  # not an organiser
    client.force_login(organiser)
    assert (
        "Show to staff only"
        in client.get(reverse("league-detail", args=[league.slug])).content.decode()
    )
    client.post(reverse("league-roster-setting", args=[league.slug]), {"public": "0"})
    league.refresh_from_db()
    assert not league.roster_public
    player = make_player("Misty Waterflower")
    for who in (None, player.user):
        client.logout()
        if who:
            client.force_login(who)
        assert client.get(reverse("event-roster", args=[event.pk])).status_code == 403
        assert client.get(f"/api/events/{event.pk}/roster/").status_code == 403
        assert client.get(f"/api/events/{event.pk}/registrations/").status_code == 403
        page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
        assert reverse("event-roster", args=[event.pk]) not in page
        assert "Harrison" not in page and "Ash Ketchum" not in page

    client.force_login(organiser)
    page = client.get(reverse("event-roster", args=[event.pk])).content.decode()
    assert "Ash Ketchum" in page and "Brock H." in page
    assert client.get(f"/api/events/{event.pk}/roster/").status_code == 200
