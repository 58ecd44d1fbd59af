"""The public record, continued: finding events (search, filters, pages, the API), a
player's page (events, places, archetypes where the list is public; hidden pages; minors'
names) and the calendar feeds (a league's, a user's private one), parsed back with the
`icalendar` library."""

import datetime as dt

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from league import services as league_services
from league.models import CalendarFeed, Event, EventPlacement
from league.public_record import public_name

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db


def at(days: int) -> dt.datetime:
    return timezone.now() + dt.timedelta(days=days)


@pytest.fixture
def events(make_event):
    return {
        "cup": make_event(name="Cerulean League Cup", starts_at=at(10), venue_name="Cerulean Gym")[
            0
        ],
        "old": make_event(name="Pewter Challenge", starts_at=at(-30), status=Event.Status.FINISHED)[
            0
        ],
        "draft": make_event(name="Secret Draft Cup", starts_at=at(5), status=Event.Status.DRAFT)[0],
        "night": make_event(name="Board Night", kind="board_game", format=None, starts_at=at(2))[0],
    }


def names(response) -> set[str]:
    page = response.content.decode()
    return {
        n
        for n in ("Cerulean League Cup", "Pewter Challenge", "Secret Draft Cup", "Board Night")
        if n in page
    }


def test_events_are_found_by_words_format_status_dates_and_league(client, events, league):
    url = reverse("event-search")
    assert names(client.get(url)) == {"Cerulean League Cup", "Pewter Challenge", "Board Night"}
    assert names(client.get(url, {"q": "cerulean gym"})) == {"Cerulean League Cup"}
    assert names(client.get(url, {"format": "standard"})) == {
        "Cerulean League Cup",
        "Pewter Challenge",
    }
    assert names(client.get(url, {"status": "finished"})) == {"Pewter Challenge"}
    later = (timezone.now() + dt.timedelta(days=3)).date().isoformat()
    assert names(client.get(url, {"date_from": later})) == {"Cerulean League Cup"}
    assert names(client.get(url, {"date_to": later, "status": "registration"})) == {"Board Night"}
    assert names(client.get(url, {"league": league.slug, "q": "draft"})) == set()
    assert names(client.get(url, {"league": "nowhere"})) == names(client.get(url))  # dropped

    api = client.get("/api/events/", {"q": "pewter"}).json()
    rows = api["results"] if isinstance(api, dict) else api
    assert [r["name"] for r in rows] == ["Pewter Challenge"]


def test_the_organiser_finds_their_draft(client, organiser, events):
    client.force_login(organiser)
    assert "Secret Draft Cup" in names(client.get(reverse("event-search"), {"q": "secret"}))


def test_past_events_are_paginated(client, make_event):
    for n in range(23):
        make_event(name=f"Past {n:02d}", starts_at=at(-n - 1), status=Event.Status.FINISHED)
    first = client.get(reverse("event-search"), {"status": "finished"}).content.decode()
    assert "Past 00" in first and "Past 19" in first and "Past 20" not in first
    assert "Page 1 of 2" in first and "status=finished&amp;page=2" in first
    second = client.get(reverse("event-search"), {"status": "finished", "page": 2}).content.decode()
    assert "Past 22" in second and "Past 00" not in second


@pytest.fixture
def finished(event, make_player, register, deck_text):
    """A finished event whose lists open after it: Ash 1st with a list, Brock (13) 2nd."""
    ash, brock = make_player("Ash Ketchum"), make_player("Brock Harrison", birth_year=2013)
    a, b = register(ash), register(brock)
    event.decklists_open = Event.DecklistsOpen.AFTER_EVENT
    event.save()
    league_services.submit_deck(registration=a, text=deck_text, by_user=ash.user)
    league_services.submit_deck(registration=b, text=deck_text, by_user=brock.user)
    a.archetype, b.archetype = "Charizard Box", "Onix Wall"
    a.save(), b.save()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    EventPlacement.objects.create(event=event, registration=a, division=a.division, place=1)
    EventPlacement.objects.create(event=event, registration=b, division=b.division, place=2)
    event.refresh_from_db()
    return event, ash, brock


def test_a_player_page_lists_events_places_and_public_archetypes(client, finished):
    event, ash, brock = finished
    page = client.get(reverse("player-page", args=[ash.pk])).content.decode()
    assert "Ash Ketchum" in page and event.name in page and "Charizard Box" in page
    assert reverse("event-deck-detail", args=[event.pk, ash.registrations.get().pk]) in page
    minor = client.get(reverse("player-page", args=[brock.pk])).content.decode()
    assert "Brock H." in minor and "Harrison" not in minor and "Onix Wall" in minor


def test_a_list_not_yet_public_shows_no_archetype(client, finished):
    event, ash, _ = finished
    Event.objects.filter(pk=event.pk).update(decklists_open=Event.DecklistsOpen.NEVER)
    page = client.get(reverse("player-page", args=[ash.pk])).content.decode()
    assert event.name in page and "Charizard Box" not in page


def test_a_hidden_player_page_is_seen_by_its_player_only(client, finished, make_player):
    event, ash, _ = finished
    client.force_login(ash.user)
    client.post(reverse("profile-public"), {"do": "hide"})
    ash.refresh_from_db()
    assert ash.page_hidden
    assert "hidden" in client.get(reverse("player-page", args=[ash.pk])).content.decode()
    client.force_login(make_player("Misty Waterflower").user)
    assert client.get(reverse("player-page", args=[ash.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("player-page", args=[ash.pk])).status_code == 404
    roster = client.get(reverse("event-roster", args=[event.pk])).content.decode()
    assert "Ash Ketchum" in roster and reverse("player-page", args=[ash.pk]) not in roster


def parse(response) -> icalendar.Calendar:
    assert response["Content-Type"].startswith("text/calendar")
    return icalendar.Calendar.from_ical(response.content)


def test_the_league_calendar_lists_its_announced_events(client, events, league):
    cal = parse(client.get(reverse("league-calendar", args=[league.slug])))
    entries = {str(e["summary"]): e for e in cal.walk("VEVENT")}
    assert set(entries) == {"Cerulean League Cup", "Pewter Challenge", "Board Night"}
    cup = entries["Cerulean League Cup"]
    assert cup.decoded("dtstart") == events["cup"].starts_at.replace(microsecond=0)
    assert str(cup["location"]) == "Cerulean Gym"
    assert str(cup["url"]).endswith(reverse("event-detail", args=[events["cup"].pk]))
    assert str(cal["version"]) == "2.0" and cal["prodid"]


def test_my_calendar_at_a_secret_address_with_the_running_rounds(
    client, event, ash, misty, make_event
):
    other, _ = make_event(name="Not Mine Cup")
    client.force_login(ash.user)
    client.post(reverse("profile-public"), {"do": "calendar"})
    token = CalendarFeed.objects.get(user=ash.user).token
    url = reverse("my-calendar", args=[token])
    assert url in client.get(reverse("profile")).content.decode()

    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    round_ = make_round(event, [(registration_of(ash, event), registration_of(misty, event))])
    started = timezone.now().replace(microsecond=0)
    round_.clock_started_at, round_.ends_at = started, started + dt.timedelta(minutes=50)
    round_.save()

    client.logout()
    cal = parse(client.get(url))
    summaries = sorted(str(e["summary"]) for e in cal.walk("VEVENT"))
    assert summaries == [event.name, f"{event.name}: round 1"]  # not `other`
    assert other.name not in client.get(url).content.decode()
    (round_entry,) = [e for e in cal.walk("VEVENT") if "round" in str(e["summary"])]
    assert round_entry.decoded("dtstart") == started
    assert round_entry.decoded("dtend") == started + dt.timedelta(minutes=50)
    assert "Misty" not in client.get(url).content.decode()  # no other player's name

    client.force_login(ash.user)
    client.post(reverse("profile-public"), {"do": "calendar-new"})
    client.logout()
    assert client.get(url).status_code == 404  # the old address is revoked
    new = reverse("my-calendar", args=[CalendarFeed.objects.get(user=ash.user).token])
    assert client.get(new).status_code == 200
    client.force_login(ash.user)
    client.post(reverse("profile-public"), {"do": "calendar-stop"})
    assert client.get(new).status_code == 404


def test_a_minors_full_name_is_in_no_feed_page_or_api(client, event, make_player, register, league):
    minor = make_player("Brock Harrison", birth_year=2014)
    register(minor)
    assert public_name(minor) == "Brock H."
    for url in (
        reverse("event-detail", args=[event.pk]),
        reverse("event-roster", args=[event.pk]),
        reverse("player-page", args=[minor.pk]),
        reverse("league-calendar", args=[league.slug]),
        f"/api/events/{event.pk}/roster/",
        f"/api/events/{event.pk}/registrations/",
    ):
        assert "Harrison" not in client.get(url).content.decode(), url
