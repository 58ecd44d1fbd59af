"""Best of 3 from two phones: both players report a 2–1 with the quick buttons ("I won
2–1" on one phone, "I lost 1–2" on the other), and the result stands, named on both
phones. Screenshots: var/screenshots/bo3-*.png."""

import pytest

from league.models import Registration
from matches import services
from matches.models import Match
from tests.browser.conftest import shot
from tests.browser.test_floor import login, user
from tests.browser.test_phone_width import OVERFLOW, PHONE
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_best_of_3_reported_2_1_from_two_phones(site, browser):
    organiser = user("cup-organiser")
    event = EventFactory(
        name="League Cup",
        best_of=3,
        season=SeasonFactory(league=LeagueFactory(organisers=[organiser])),
    )
    for name in ("Ash", "Misty"):
        player = PlayerFactory(name=name, user=user(name.lower()))
        Registration.objects.create(
            event=event, player=player, division="masters", status="checked_in"
        )
    round_1 = services.pair_next_round(event=event, by_user=organiser)
    services.start_clock(round_=round_1, by_user=organiser)
    match = round_1.matches.get()
    winner = "ash" if match.player_a.player.name == "Ash" else "misty"
    loser = "misty" if winner == "ash" else "ash"

    phones = {}
    for who in (winner, loser):
        context = browser.new_context(viewport=PHONE)
        phones[who] = login(context, site, who)
        phones[who].goto(f"{site.url}/matches/{match.pk}/")
    buttons = phones[winner].locator(".best-of-3 button")
    assert buttons.all_inner_texts()[:4] == ["I won 2–0", "I won 2–1", "I lost 1–2", "I lost 0–2"]
    fit = phones[winner].evaluate(OVERFLOW)
    assert fit["scroll"] <= fit["client"] and fit["controls"] == [], fit
    shot(phones[winner], "bo3-quick-buttons.png")

    phones[winner].click(".best-of-3 button:has-text('I won 2–1')")
    phones[winner].wait_for_load_state()
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED

    phones[loser].reload()
    phones[loser].click(".best-of-3 button:has-text('I lost 1–2')")
    phones[loser].wait_for_load_state()
    match.refresh_from_db()
    assert (match.status, match.a_game_wins + match.b_game_wins) == (Match.Status.FINAL, 3)
    winner_name = winner.capitalize()
    assert match.result == ("a" if match.player_a.player.name == winner_name else "b")
    assert f"{winner_name} won 2–1" in phones[loser].inner_text("main")
    phones[winner].reload()
    assert f"{winner_name} won 2–1" in phones[winner].inner_text("main")
    assert phones[winner].locator(".best-of-3").count() == 0  # nothing left to report
    shot(phones[loser], "bo3-final.png")
    for page in phones.values():
        page.context.close()
