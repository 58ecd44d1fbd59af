"""Organisers create and edit events from the site."""

import datetime as dt

import pytest
from django.utils import timezone

from league import services
from league.models import Event
from rules.errors import DomainError
from tests.factories import EventFactory, LeagueFactory, SeasonFactory, UserFactory, standard_format

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_with_staff():
    staff = UserFactory()
    league = LeagueFactory(organisers=[staff])
    SeasonFactory(league=league)
    return league, staff


def form_data(**overrides):
    starts = timezone.now() + dt.timedelta(days=7)
    data = {
        "name": "League Challenge", "format": standard_format().pk,
        "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
        "deck_deadline": (starts - dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "best_of": 3, "round_minutes": 50, "capacity": 32, "division_mode": "combined",
        "sudden_death_prizes": 1, "status": "registration",
    }  # fmt: skip
    data.update(overrides)
    return data


def test_staff_create_an_event_from_the_league_page(client, league_with_staff):
    league, staff = league_with_staff
    client.force_login(staff)
    assert "New event" in client.get(f"/leagues/{league.slug}/").content.decode()
    response = client.post(f"/leagues/{league.slug}/events/new/", form_data())
    event = Event.objects.get(name="League Challenge")
    assert response.status_code == 302 and response.url == f"/events/{event.pk}/"
    assert event.slug == "league-challenge" and event.capacity == 32 and event.best_of == 3
    client.post(f"/leagues/{league.slug}/events/new/", form_data())
    assert Event.objects.filter(name="League Challenge").count() == 2  # a second slug is made


def test_a_deadline_after_the_start_is_refused_and_the_form_keeps_its_input(
    client, league_with_staff
):
    league, staff = league_with_staff
    client.force_login(staff)
    data = form_data(name="Late Deadline Cup")
    data["deck_deadline"] = (timezone.now() + dt.timedelta(days=30)).strftime("%Y-%m-%dT%H:%M")
    page = client.post(f"/leagues/{league.slug}/events/new/", data).content.decode()
    assert "deck deadline must be before" in page and "Late Deadline Cup" in page
    assert not Event.objects.filter(name="Late Deadline Cup").exists()


def test_only_the_leagues_organisers_manage_its_events(client, league_with_staff):
    league, _ = league_with_staff
    client.force_login(UserFactory())
    assert client.get(f"/leagues/{league.slug}/events/new/").status_code == 403
    event = EventFactory(season=league.seasons.first())
    assert client.get(f"/events/{event.pk}/edit/").status_code == 403
    with pytest.raises(DomainError):
        services.create_event(season=league.seasons.first(), by_user=UserFactory(), name="X")


def test_format_and_best_of_are_fixed_once_the_event_runs(client, league_with_staff):
    league, staff = league_with_staff
    event = EventFactory(season=league.seasons.first(), status=Event.Status.RUNNING, best_of=1)
    client.force_login(staff)
    page = client.post(
        f"/events/{event.pk}/edit/", form_data(best_of=3, status="running")
    ).content.decode()
    assert "cannot change once the event has started" in page
    event.refresh_from_db()
    assert event.best_of == 1
    response = client.post(
        f"/events/{event.pk}/edit/", form_data(best_of=1, round_minutes=45, status="running")
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.round_minutes == 45
