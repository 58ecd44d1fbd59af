"""The quick "Tie at time" of a top-cut final under the 13 February 2026 edition, from two
phones at 360 px: each player is asked who was ahead on Prize cards, then, level, who took
the next Prize card, a tap each, and the result stands. Screenshots:
var/screenshots/after-time-*.png."""

import datetime as dt

import pytest
from django.utils import timezone

from league.edition_seeds import FEBRUARY_2026
from league.models import Registration, RuleEdition
from matches import services
from matches.models import Match
from tests.browser.conftest import shot
from tests.browser.test_floor import login, user
from tests.browser.test_phone_width import OVERFLOW, PHONE
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_level_top_cut_game_decided_by_the_next_prize_from_two_phones(site, browser):
    edition, _ = RuleEdition.objects.get_or_create(
        key=FEBRUARY_2026.key,
        defaults={
            "name": FEBRUARY_2026.name,
            "in_force_from": FEBRUARY_2026.in_force_from,
            "rules": FEBRUARY_2026.to_dict(),
        },
    )
    organiser = user("final-organiser")
    event = EventFactory(
        name="Regional Final",
        rule_edition=edition,
        starts_at=timezone.make_aware(dt.datetime(2026, 3, 1, 10)),
        swiss_rounds=1,
        top_cut=2,
        season=SeasonFactory(league=LeagueFactory(organisers=[organiser])),
    )
    for name in ("Ash", "Misty"):
        player = PlayerFactory(name=name, user=user(name.lower()))
        Registration.objects.create(
            event=event, player=player, division="masters", status="checked_in"
        )
    swiss = services.pair_next_round(event=event, by_user=organiser)
    services.set_result(
        match=swiss.matches.get(), by_user=organiser, payload={"games": [{"outcome": "a"}]}
    )
    services.close_round(round_=swiss, by_user=organiser)
    final = services.pair_next_round(event=event, by_user=organiser)
    services.start_clock(round_=final, by_user=organiser)
    match = final.matches.select_related("player_a__player").get()
    taker = match.player_a.player.name.lower()
    other = "misty" if taker == "ash" else "ash"

    for who, button in ((taker, "I took it: I win"), (other, "My opponent took it: they win")):
        page = login(browser.new_context(viewport=PHONE), site, who)
        page.goto(f"{site.url}/matches/{match.pk}/")
        page.click("#report button:has-text('Tie at time')")
        page.wait_for_load_state()
        assert "who was ahead on Prize cards?" in page.inner_text("#after-time")
        fit = page.evaluate(OVERFLOW)
        assert fit["scroll"] <= fit["client"] and fit["controls"] == [], fit
        shot(page, f"after-time-ahead-{who}.png")
        page.click("#after-time button:has-text('Level on Prize cards')")
        page.wait_for_load_state()
        shot(page, f"after-time-level-{who}.png")
        page.click(f"#after-time button:has-text('{button}')")
        page.wait_for_load_state()
        page.context.close()
    match.refresh_from_db()
    assert (match.status, match.result) == (Match.Status.FINAL, "a")
