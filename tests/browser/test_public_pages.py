"""A player's phone on a public round page served by the nginx micro-cache of
`docs/deploy.md`: "your table" comes from the player's own answer (`me.json`) into a page
that is the same for everyone, and a copy served stale while nginx revalidates never shows
a result older than the event version it names (it says newer results are in)."""

import re
import time
from pathlib import Path

import pytest

from deploy.nginx import NGINX, start_nginx
from league.models import Event
from matches import public_pages
from matches.models import Match, Round
from tests.browser.conftest import shot
from tests.factories import EventFactory, PlayerFactory, RegistrationFactory
from tests.pages.test_micro_cache import free_port

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def proxy(site, tmp_path):
    if not Path(NGINX).exists():
        pytest.fail(f"{NGINX} is missing: scripts/test_setup.sh installs it")
    upstream = int(site.url.rsplit(":", 1)[1])
    nginx = start_nginx(listen=free_port(18450), upstream=upstream, prefix=tmp_path / "nginx")
    yield f"http://127.0.0.1:{nginx.port}"
    nginx.stop()


def test_a_phone_fills_in_its_table_and_a_stale_copy_names_its_version(proxy, browser):
    event = EventFactory(name="Cerulean Regional", status=Event.Status.RUNNING)
    players = [
        PlayerFactory(name=n, user__username=n.split()[0].lower())
        for n in ("Ash Ketchum", "Misty Waterflower", "Brock Harrison", "Gary Oak")
    ]
    regs = [RegistrationFactory(event=event, player=p) for p in players]
    round_ = Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED, seed="b")
    Match.objects.create(round=round_, table=1, player_a=regs[2], player_b=regs[3])
    Match.objects.create(round=round_, table=2, player_a=regs[0], player_b=regs[1])
    ash = players[0].user
    ash.set_password("pikachu-pass")
    ash.save()

    phone = browser.new_page(viewport={"width": 360, "height": 740})
    phone.goto(f"{proxy}/accounts/login/?next=/events/{event.pk}/rounds/1/")
    phone.fill("input[name=username]", "ash")
    phone.fill("input[name=password]", "pikachu-pass")
    phone.click("button[type=submit]")
    phone.wait_for_url(f"**/events/{event.pk}/rounds/1/")
    card = phone.locator('[data-me="my-match"]')
    card.wait_for(state="visible")
    assert re.search(r"Your table: 2\b.*Misty Waterflower", card.inner_text())
    assert phone.locator("tr.mine").count() == 1
    assert "Ash" in phone.locator("tr.mine").inner_text()
    nav = phone.locator("header nav")
    assert "Log out" in nav.inner_text() and "Log in" not in nav.inner_text()  # signed in
    assert nav.locator(".who").text_content() == "ash"
    shot(phone, "public-pairings-your-table-360.png")
    version = int(phone.locator("body").get_attribute("data-event-version"))

    match = Match.objects.get(round=round_, table=1)
    match.status, match.result, match.a_game_wins = Match.Status.FINAL, Match.Result.A, 1
    match.save()  # committed; the event's version is bumped

    # nginx still holds the copy of the old version a few seconds: the page says which
    # version it is, shows that version's results, and tells the player newer ones are in.
    stale_seen = fresh = False
    deadline = time.monotonic() + public_pages.SHARED_MAX_AGE + 20
    while time.monotonic() < deadline and not fresh:
        phone.goto(f"{proxy}/events/{event.pk}/rounds/1/")
        phone.wait_for_selector("body[data-me]")
        named = int(phone.locator("body").get_attribute("data-event-version"))
        text = phone.locator("main").inner_text()
        if named == version:
            assert "Brock Harrison won" not in text
            assert "Newer results are in" in text
            if not stale_seen:
                shot(phone, "public-pairings-stale-360.png")
            stale_seen = True
        else:
            assert named > version and "Brock Harrison won 1–0" in text
            assert "Newer results are in" not in text
            fresh = True
        time.sleep(0.5)
    assert fresh
    assert stale_seen
