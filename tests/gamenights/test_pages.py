"""The board-game night's pages and API with Django's test client: creating a night from
the event form, who sees and reports what, the tournament pages sending a night to its own."""

import datetime as dt

import pytest
from django.utils import timezone

from gamenights import services
from league.models import Event
from tests.factories import (
    EventFactory,
    LeagueFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
    standard_format,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return UserFactory(username="erika")


@pytest.fixture
def night(staff):
    season = SeasonFactory(league=LeagueFactory(organisers=[staff], slug="celadon"))
    event = EventFactory(season=season, kind=Event.Kind.BOARD_GAME, format=None, name="Night")
    regs = [RegistrationFactory(event=event) for _ in range(7)]
    return event, regs


def test_organisers_pick_the_kind_on_the_event_form(client, staff, night):
    _event, _ = night
    client.force_login(staff)
    form = client.get("/leagues/celadon/events/new/").content.decode()
    assert 'name="kind"' in form and "Board-game night" in form
    starts = (timezone.now() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    data = {"name": "Trainer Night", "kind": "board_game", "format": standard_format().pk,
            "starts_at": starts, "best_of": 1, "round_minutes": 50, "division_mode": "combined",
            "sudden_death_prizes": 1, "status": "registration", "full_finishing_order": "on"}  # fmt: skip
    response = client.post("/leagues/celadon/events/new/", data)
    created = Event.objects.get(name="Trainer Night")
    assert created.kind == "board_game" and created.format is None and created.full_finishing_order
    assert client.get(response.url).url == f"/events/{created.pk}/night/"
    data.update(name="Cup", kind="tournament", format="")
    page = client.post("/leagues/celadon/events/new/", data).content.decode()
    assert "Choose the deck format" in page and not Event.objects.filter(name="Cup").exists()


def test_the_night_page_shows_tables_and_the_house_rule_label(client, staff, night):
    event, _regs = night
    Event.objects.filter(pk=event.pk).update(full_finishing_order=True)
    sitting = services.seat_next_game(event=event, by_user=staff)
    page = client.get(f"/events/{event.pk}/night/").content.decode()
    assert page.count('class="card game-table') == 2  # 7 players: 4 and 3
    assert "house rule" in page and "Report the winner" not in page  # anonymous
    assert client.get(f"/events/{event.pk}/").url == f"/events/{event.pk}/night/"
    client.force_login(staff)
    assert client.get(f"/events/{event.pk}/manage/").url == f"/events/{event.pk}/night/"
    table = sitting.tables.order_by("number").first()
    report = client.get(f"/tables/{table.pk}/report/").content.decode()
    # one place a seat, in the report's form (the footer's language switcher is not one)
    form = report.split('class="card report-form"', 1)[1].split("</form>", 1)[0]
    assert "house rule" in report and form.count("<select") == table.seats.count()


def test_only_the_tables_players_and_staff_report(client, staff, night):
    event, _regs = night
    sitting = services.seat_next_game(event=event, by_user=staff)
    first, second = sitting.tables.order_by("number")
    seated = [s.registration for s in first.seats.all()]
    outsider = next(s.registration for s in second.seats.all())
    client.force_login(outsider.player.user)
    assert "Save the result" not in client.get(f"/tables/{first.pk}/report/").content.decode()
    response = client.post(f"/tables/{first.pk}/report/", {"winner": seated[0].pk})
    assert response.status_code == 403
    client.force_login(seated[1].player.user)
    response = client.post(f"/tables/{first.pk}/report/", {"winner": seated[1].pk})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.reported and first.seats.get(finish=1).registration_id == seated[1].pk


def test_the_api_lists_a_nights_tables_read_only(client, staff, night):
    event, regs = night
    services.seat_next_game(event=event, by_user=staff)
    body = client.get(f"/api/events/{event.pk}/tables/").json()
    assert [len(t["seats"]) for t in body[0]["tables"]] == [4, 3]
    assert {s["registration"] for t in body[0]["tables"] for s in t["seats"]} == {
        r.pk for r in regs
    }
    assert client.post(f"/api/events/{event.pk}/tables/").status_code in (403, 405)
    tournament = EventFactory(season=event.season)
    assert client.get(f"/api/events/{tournament.pk}/tables/").status_code == 404
    response = client.post(f"/api/events/{event.pk}/pair-next-round/")
    assert response.status_code in (401, 403)
    client.force_login(staff)
    response = client.post(f"/api/events/{event.pk}/pair-next-round/")
    assert response.status_code == 409 and response.json()["code"] == "not-a-tournament"
