"""Every page kind fits a 360 px phone screen: the page itself never scrolls sideways (a
wide table scrolls inside its own box, with the place and the player's name always in
view). The demo league (`load_demo`, the quick start's data) gives every page something to
show: a finished event with a top cut, a running one with round 2 half reported, an open
one. Screenshots of every page go to var/screenshots/phone-*.png."""

import io

import pytest
from django.core.management import call_command

from league.models import Event, Registration
from matches.models import Match, Round
from tests.browser.conftest import shot
from tests.factories import sample_cards

PHONE = {"width": 360, "height": 740}
PASSWORD = "pokemon-demo"  # load_demo's

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OVERFLOW = """() => {
  const doc = document.documentElement;
  const right = el => Math.round(el.getBoundingClientRect().right);
  const name = el => el.tagName.toLowerCase() + (el.name ? '[name=' + el.name + ']' : '') + ' ' + right(el);
  // A form control cut off by a card is as unusable as a page that scrolls; one in a wide
  // table that scrolls in its own box is reached by scrolling that table.
  const inScrollingTable = el => {
    for (let t = el.closest('table'); t; t = t.parentElement && t.parentElement.closest('table'))
      if (getComputedStyle(t).overflowX === 'auto') return true;
    return false;
  };
  const controls = [...document.querySelectorAll('main :is(input, select, textarea, button)')]
    .filter(el => el.type !== 'hidden' && el.getBoundingClientRect().width > 0 && right(el) > doc.clientWidth)
    .filter(el => !inScrollingTable(el))
    .slice(0, 5).map(name);
  return {scroll: doc.scrollWidth, client: doc.clientWidth, controls};
}"""


def demo_urls() -> dict[str, list[tuple[str, str]]]:
    """(screenshot name, path) for every page kind, by who looks."""
    finished = Event.objects.get(name="League Cup")
    running = Event.objects.get(name="Friday League Night")
    upcoming = Event.objects.get(name="League Challenge")
    open_round = Round.objects.filter(event=running).order_by("-number").first()
    misty = Registration.objects.get(event=running, player__user__username="misty")
    mine = Match.objects.filter(round=open_round, player_a=misty) | Match.objects.filter(
        round=open_round, player_b=misty
    )
    match = mine.first() or open_round.matches.first()  # open: the report form shows
    cut = Round.objects.filter(event=finished, stage=Round.Stage.TOP_CUT).first()
    final_match = Match.objects.filter(round__event=finished).order_by("-round__number").first()
    upcoming_reg = Registration.objects.filter(event=upcoming).first()
    public = [
        ("home", "/"),
        ("league", "/leagues/pallet-town/"),
        ("event-running", f"/events/{running.pk}/"),
        ("event-finished", f"/events/{finished.pk}/"),
        ("standings-finished", f"/events/{finished.pk}/standings/"),
        ("standings-running", f"/events/{running.pk}/standings/"),
        ("bracket", f"/events/{finished.pk}/bracket/"),
        ("pairings", f"/events/{running.pk}/rounds/{open_round.number}/"),
        ("pairings-by-name", f"/events/{running.pk}/rounds/{open_round.number}/?by=name"),
        ("projector", f"/events/{running.pk}/rounds/{open_round.number}/projector/"),
        ("match", f"/matches/{final_match.pk}/"),
        ("deck-check", "/decks/check/"),
        ("login", "/accounts/login/"),
        ("signup", "/accounts/signup/"),
        ("metagame", f"/events/{finished.pk}/metagame/"),
        ("player-rounds", f"/events/{finished.pk}/players/{final_match.player_a_id}/"),
        ("poster", f"/events/{running.pk}/poster/"),
    ]
    if cut:
        public.append(("top-cut-pairings", f"/events/{finished.pk}/rounds/{cut.number}/"))
    player = [
        ("my-events", "/me/"),
        ("profile", "/accounts/profile/"),
        ("inbox", "/inbox/"),
        ("preferences", "/inbox/preferences/"),
        ("deck-locked", f"/events/{running.pk}/deck/"),
        ("deck-open", f"/events/{upcoming.pk}/deck/"),
        ("event-upcoming", f"/events/{upcoming.pk}/"),
        ("my-match", f"/matches/{match.pk}/"),
        ("event-player", f"/events/{running.pk}/"),
        ("my-code", f"/events/{running.pk}/my-code/"),
        ("my-penalties", "/me/penalties/"),
    ]
    organiser = [
        ("dashboard", f"/events/{running.pk}/manage/"),
        ("dashboard-finished", f"/events/{finished.pk}/manage/"),
        ("results-grid", f"/events/{running.pk}/rounds/{open_round.number}/results/"),
        ("decklists", f"/events/{upcoming.pk}/decks/"),
        ("deck-staff", f"/events/{upcoming.pk}/decks/{upcoming_reg.pk}/"),
        ("event-edit", f"/events/{running.pk}/edit/"),
        ("event-new", "/leagues/pallet-town/events/new/"),
        ("league-staff", "/leagues/pallet-town/staff/"),
        ("match-staff", f"/matches/{match.pk}/"),
        ("standings-staff", f"/events/{running.pk}/standings/"),
        ("event-staff", f"/events/{running.pk}/"),
        ("stream", f"/events/{running.pk}/manage/stream/"),
        ("metagame-preview", f"/events/{running.pk}/metagame/"),
        ("archetype-rules", "/leagues/pallet-town/archetypes/"),
        ("registration-card", f"/events/{running.pk}/registrations/{misty.pk}/card/"),
        ("floor", f"/events/{running.pk}/floor/"),
        ("floor-table", f"/matches/{match.pk}/floor/"),
        ("floor-deck-check", f"/matches/{match.pk}/deck-check/"),
        ("webhooks", "/leagues/pallet-town/webhooks/"),
        ("webhook", f"/leagues/pallet-town/webhooks/{demo_webhook(running).pk}/"),
    ]
    return {"public": public, "player": player, "organiser": organiser}


def demo_webhook(event):
    """A paused webhook of the demo league with a delivered and a failed delivery."""
    from webhooks import events
    from webhooks.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint

    endpoint = WebhookEndpoint.objects.create(
        league=event.season.league,
        url="https://discord.com/api/webhooks/123456789012345678/a-very-long-token-that-must-wrap",
        description="Discord #results",
        events=[events.ROUND_PUBLISHED, events.RESULT_FINAL],
        paused_at=event.starts_at,
        paused_reason="10 failed attempts in a row; the last: HTTP 500",
    )
    payload = {"summary": "Round 2 pairings are up.", "url": "", "data": {}}
    WebhookDelivery.objects.create(
        endpoint=endpoint, event=events.ROUND_PUBLISHED, payload=payload,
        status=DeliveryStatus.DELIVERED, attempts=1, last_status_code=204,
    )  # fmt: skip
    WebhookDelivery.objects.create(
        endpoint=endpoint, event=events.RESULT_FINAL, payload=payload,
        status=DeliveryStatus.FAILED, attempts=8, last_status_code=500,
        last_error="HTTP 500", last_response="<html><body>Internal Server Error " + "x" * 200,
    )  # fmt: skip
    return endpoint


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def test_every_page_fits_a_360_px_screen(site, browser):
    sample_cards()
    call_command("load_demo", stdout=io.StringIO())
    urls = demo_urls()
    too_wide, statuses = [], {}
    for who, login in (("public", None), ("player", "misty"), ("organiser", "admin")):
        page = browser.new_context(viewport=PHONE).new_page()
        if login:
            log_in(page, site.url, login)
        for name, path in urls[who]:
            response = page.goto(f"{site.url}{path}")
            statuses[name] = response.status
            shot(page, f"phone-{who}-{name}.png")
            measured = page.evaluate(OVERFLOW)
            if measured["scroll"] > measured["client"] or measured["controls"]:
                too_wide.append((who, name, path, measured))
        page.context.close()
    assert {n: s for n, s in statuses.items() if s != 200} == {}
    assert too_wide == [], "\n".join(map(str, too_wide))
    standings_keep_place_and_name_in_view(browser, site.url)


def standings_keep_place_and_name_in_view(browser, base: str) -> None:
    finished = Event.objects.get(name="League Cup")
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{base}/events/{finished.pk}/standings/")
    table = page.locator("table.standings").first
    assert table.evaluate("t => t.scrollWidth > t.clientWidth")  # it does scroll, inside
    first = table.locator("tbody tr").first
    place, name = first.locator("td").nth(0), first.locator("td").nth(1)

    def in_view(cell) -> bool:
        box = cell.bounding_box()
        return box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    assert in_view(place) and in_view(name)
    table.evaluate("t => { t.scrollLeft = t.scrollWidth; }")  # scrolled to its far end
    assert table.evaluate("t => t.scrollLeft") > 0
    assert in_view(place) and in_view(name)
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    shot(page, "phone-standings-scrolled.png")
    page.context.close()
