"""A scorekeeper corrects round 1 from the round page on a phone (360 px): swaps two
players between tables, then seats a late arrival with a bye. The pairings follow, the
players are told, and the event log has both. Screenshots: var/screenshots/corrections-*.png."""

import pytest
from django.db.models import Q

from league import services as league_services
from league.event_log import EventLogEntry
from league.models import Registration, StaffRole
from matches import services
from matches.models import Match
from notifications.models import Notification
from tests.browser.conftest import shot
from tests.browser.test_floor import fits_the_phone, login, user
from tests.browser.test_phone_width import PHONE
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ash", "Misty", "Brock", "Gary", "Dawn", "Iris", "Serena", "Clemont"]


def table_of(round_, name: str) -> int | None:
    m = Match.objects.filter(
        Q(player_a__player__name=name) | Q(player_b__player__name=name), round=round_
    ).first()
    return m.table if m else None


def test_a_scorekeeper_swaps_two_players_and_seats_a_late_arrival_on_a_phone(site, browser):
    organiser = user("organiser-oak")
    league = LeagueFactory(organisers=[organiser])
    event = EventFactory(name="Corrections Cup", season=SeasonFactory(league=league))
    keeper = user("keeper-joy")
    StaffRole.objects.create(league=league, event=event, user=keeper, role="scorekeeper")
    for name in NAMES:
        player = PlayerFactory(name=name, user=user(name.lower()))
        Registration.objects.create(
            event=event, player=player, division="masters", status="checked_in"
        )
    round_1 = services.pair_next_round(event=event, by_user=keeper)
    services.publish_round(round_=round_1, by_user=keeper)
    late = league_services.register(
        event=event, player=PlayerFactory(name="Cynthia", user=user("cynthia")), by_user=organiser
    )
    ash, gary = table_of(round_1, "Ash"), table_of(round_1, "Gary")
    # Gary, or whoever sits at another table if Ash and Gary play each other.
    gary_name = "Gary" if ash != gary else next(n for n in NAMES if table_of(round_1, n) != ash)
    other = table_of(round_1, gary_name)

    page = login(browser.new_context(viewport=PHONE), site, "keeper-joy")
    page.goto(f"{site.url}/events/{event.pk}/rounds/1/?live=1")  # the staff's view
    page.click("#swap summary")
    page.select_option("#swap-a", label=f"Ash (table {ash})")
    page.select_option("#swap-b", label=f"{gary_name} (table {other})")
    page.fill("#swap-reason", "Ash was seated at the wrong table")
    fits_the_phone(page)
    shot(page, "corrections-swap.png")
    page.click("#swap button[type=submit]")
    page.wait_for_load_state()
    assert "swapped; their players are told" in page.inner_text("body")
    assert table_of(round_1, "Ash") == other and table_of(round_1, gary_name) == ash
    row = page.locator("table.pairings tr:has(td:has-text('Ash'))").first.inner_text()
    assert row.startswith(str(other))

    page.click("#seat summary")
    page.select_option("#seat-a", label="Cynthia")
    page.select_option("#seat-mode", "bye")
    page.fill("#seat-reason", "arrived at 10:12")
    fits_the_phone(page)
    page.click("#seat button[type=submit]")
    page.wait_for_load_state()
    assert "Cynthia is seated." in page.inner_text("body")
    assert "Cynthia" in page.inner_text("table.pairings") and table_of(round_1, "Cynthia") == 5
    fits_the_phone(page)
    shot(page, "corrections-seated.png")
    late.refresh_from_db()
    assert late.late_entry_round is None  # they play round 1: not a late entry any more

    page.goto(f"{site.url}/events/{event.pk}/log/")
    log = page.inner_text("#log")
    assert "Ash was seated at the wrong table" in log and "arrived at 10:12" in log
    fits_the_phone(page)
    shot(page, "corrections-log.png")
    kinds = set(EventLogEntry.objects.filter(event=event).values_list("kind", flat=True))
    assert kinds == {"pairing_edited", "player_seated"}
    told = Notification.objects.filter(key__startswith="seating:")
    assert told.filter(recipient__username="ash").exists()
    assert told.filter(recipient__username="cynthia").exists()
