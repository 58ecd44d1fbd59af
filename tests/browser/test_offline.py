"""Phones that keep working without the network (static/pwa/sw.js, static/pwa/venue.js,
config/pwa.py), in Debian's Chromium with Playwright's offline mode.

A player opens the pairings and their match; the network goes; both pages still show,
marked with the time they were fetched; the player reports offline, the report waits on
the phone and says so; the network comes back and the report reaches the server exactly
once, even though the first answer is lost on the way back (the retry carries the same
Idempotency-Key). The same for staff on the results grid. Another account on the same
phone never sees the first one's kept pages.

Screenshots: var/screenshots/offline-*.png."""

import re

import pytest
from playwright.sync_api import expect

from league.models import Event
from matches.models import Match, ResultChange, ResultReport
from tests.browser.conftest import shot
from tests.factories import user_of
from tests.insights.setup import make_running_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "venue-pass-123"
PHONE = {"width": 360, "height": 740}
KEPT = """caches.open("venue-pages-v1").then(c => c.keys()).then(ks => ks.map(r => r.url))"""
FETCHED = re.compile(r"Offline: this is the copy fetched at \d\d:\d\d")


def login(context, site, user):
    user.set_password(PASSWORD)
    user.save()
    page = context.new_page()
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


def controlled(page, url: str) -> None:
    """Open `url` once the service worker runs the page (the first load only installs it)."""
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(url)
    assert page.evaluate("!!navigator.serviceWorker.controller")


def lose_the_first_answer(context, pattern: str, seen: list):
    """The first request to `pattern` reaches the server, but its answer never reaches the
    phone (as when the Wi-Fi drops mid-request); later ones go through."""

    def handle(route):
        seen.append(route.request.headers.get("idempotency-key"))
        if len(seen) == 1:
            route.fetch()  # the server applies it...
            route.abort("connectionreset")  # ...and the phone never hears back
        else:
            route.continue_()

    context.route(pattern, handle)


def test_a_player_reads_and_reports_offline_and_the_report_arrives_once(
    site, browser, make_event, staff
):
    event, round_, _ = make_running_event(make_event, staff, name="Venue Cup")
    match = (
        round_.matches.filter(player_b__isnull=False)
        .select_related("player_a__player", "player_b__player")
        .first()
    )
    player = user_of(match.player_a)
    context = browser.new_context(viewport=PHONE)
    page = login(context, site, player)
    pairings = f"{site.url}/events/{event.pk}/rounds/1/"
    match_page = f"{site.url}/matches/{match.pk}/"
    controlled(page, pairings)
    page.goto(match_page)
    expect(page.locator("#report")).to_be_visible()
    # Only those pages are kept: never an API answer (nor /events/<id>/me.json).
    page.evaluate(f"fetch('/api/matches/{match.pk}/').then(r => r.json())")
    page.evaluate(f"fetch('/events/{event.pk}/me.json').then(r => r.status)")
    kept = page.evaluate(KEPT)
    assert sorted(kept) == sorted([pairings, match_page]), kept

    context.set_offline(True)
    page.goto(pairings)
    expect(page.locator(".venue-offline")).to_contain_text(FETCHED)
    expect(page.locator("main")).to_contain_text(match.player_b.player.name)
    shot(page, "offline-pairings.png")
    page.goto(match_page)
    expect(page.locator(".venue-offline")).to_contain_text(FETCHED)
    page.get_by_role("button", name="I won").click()
    outbox = page.locator("#venue-outbox")
    expect(outbox).to_contain_text("Waiting to be sent (1)")
    expect(outbox).to_contain_text("your report")
    shot(page, "offline-report-waiting.png")
    assert not ResultReport.objects.filter(match=match).exists()

    keys = []
    lose_the_first_answer(context, "**/api/matches/*/report/", keys)
    context.set_offline(False)
    # The first send is applied but its answer lost: the report stays on the phone...
    expect(page.locator("#venue-outbox")).to_contain_text("Waiting to be sent (1)")
    page.wait_for_timeout(500)
    assert len(keys) == 1 and ResultReport.objects.filter(match=match).count() == 1
    # ...and is sent again with the same key at the next chance (here a reload).
    page.reload()
    expect(page.locator("#venue-outbox")).to_contain_text("Sent:", timeout=10000)
    shot(page, "offline-report-sent.png")
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
    assert ResultReport.objects.filter(match=match, superseded=False).count() == 1
    report = ResultReport.objects.get(match=match)
    assert report.side == "a"
    assert [(g["outcome"], g["reason"]) for g in report.payload["games"]] == [("a", "played")]

    # Another account signs in on this phone: the first player's pages are gone.
    page.click("text=Log out")
    other = user_of(match.player_b)
    page = login(context, site, other)
    page.goto(f"{site.url}/events/{event.pk}/")
    context.set_offline(True)
    page.goto(match_page)
    expect(page.locator("h1")).to_have_text("No network")
    context.close()


def test_staff_enter_results_offline_on_the_grid_and_each_arrives_once(
    site, browser, make_event, staff
):
    event, round_, _ = make_running_event(make_event, staff, name="Grid Cup")
    matches = list(round_.matches.filter(player_b__isnull=False).order_by("table"))
    context = browser.new_context(viewport=PHONE)
    page = login(context, site, staff)
    grid = f"{site.url}/events/{event.pk}/rounds/1/results/"
    controlled(page, grid)

    context.set_offline(True)
    page.reload()
    expect(page.locator(".venue-offline")).to_contain_text(FETCHED)
    for m in matches:
        page.locator(f"#match-{m.pk} button[name=quick][value=b]").click()
    expect(page.locator("#venue-outbox")).to_contain_text(f"Waiting to be sent ({len(matches)})")
    expect(page.locator("#venue-outbox")).to_contain_text("staff result")
    shot(page, "offline-grid-waiting.png")
    assert (
        Match.objects.filter(pk__in=[m.pk for m in matches], status=Match.Status.FINAL).count() == 0
    )

    keys = []
    lose_the_first_answer(context, "**/api/matches/*/result/", keys)
    context.set_offline(False)
    page.wait_for_timeout(1000)
    page.reload()
    expect(page.locator("#venue-outbox")).to_contain_text("Sent:", timeout=10000)
    expect(page.locator("#venue-outbox")).not_to_contain_text("Waiting to be sent")
    shot(page, "offline-grid-sent.png")
    for m in matches:
        m.refresh_from_db()
        assert m.status == Match.Status.FINAL and m.result == Match.Result.B
        assert ResultChange.objects.filter(match=m).count() == 1
    assert keys[0] == keys[1]  # the lost one, sent again with its key
    context.close()


def test_a_best_of_3_tap_offline_arrives_as_the_same_games(site, browser, make_event, staff):
    """The best-of-3 quick buttons queue offline the payload the server's form builds
    (`matches.forms.BestOfThreeQuickForm`), so the report that arrives is the one tapped."""
    event, round_, _ = make_running_event(make_event, staff, name="Venue Cup")
    Event.objects.filter(pk=event.pk).update(best_of=3)
    match = round_.matches.filter(player_b__isnull=False).first()
    context = browser.new_context(viewport=PHONE)
    page = login(context, site, user_of(match.player_b))
    match_page = f"{site.url}/matches/{match.pk}/"
    controlled(page, match_page)
    context.set_offline(True)
    page.goto(match_page)
    expect(page.locator(".venue-offline")).to_contain_text(FETCHED)
    page.get_by_role("button", name="I won 2–1").click()
    expect(page.locator("#venue-outbox")).to_contain_text("Waiting to be sent (1)")
    context.set_offline(False)
    page.reload()
    expect(page.locator("#venue-outbox")).to_contain_text("Sent:", timeout=10000)
    report = ResultReport.objects.get(match=match)
    assert report.side == "b"
    assert [g["outcome"] for g in report.payload["games"]] == ["b", "a", "b"]
    context.close()
