"""Lists lock when play starts, whatever the deck deadline says: in a real browser the
organiser pairs and publishes round 1, and the player then finds no way to change the list,
neither on the pages nor through the API, while the staff still can, and the change is
recorded as a staff change after the lock."""

from datetime import timedelta

import pytest
from django.utils import timezone

from league import services as league_services
from league.models import Event, Registration
from tests.browser.conftest import shot
from tests.browser.test_newcomer import DESK, PHONE, log_in, user_with_password
from tests.factories import (
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    sample_cards,
    sample_deck_text,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_publishing_round_one_locks_the_list_for_the_player_not_the_staff(site, browser):
    base = site.url
    sample_cards()
    oak = user_with_password("oak")
    league = LeagueFactory(name="Viridian League", organisers=[oak])
    event = EventFactory(
        season=SeasonFactory(league=league),
        name="Lock Cup",
        status=Event.Status.REGISTRATION,
        deck_deadline=timezone.now() + timedelta(days=3),  # the organiser typed a late one
        starts_at=timezone.now() + timedelta(days=3),
    )
    regs = []
    for username in ("ash", "misty"):
        player = PlayerFactory(name=username.title(), user=user_with_password(username))
        reg = Registration.objects.create(event=event, player=player, division="masters")
        league_services.submit_deck(registration=reg, text=sample_deck_text(), by_user=player.user)
        regs.append(reg)
    ash = regs[0]
    event_path, deck_path = f"/events/{event.pk}/", f"/events/{event.pk}/deck/"

    player = browser.new_context(viewport=PHONE).new_page()
    log_in(player, base, "ash", event_path)
    assert "Edit your deck" in player.inner_text("#you")  # open before the event starts

    organiser = browser.new_context(viewport=DESK).new_page()
    log_in(organiser, base, "oak", f"{event_path}manage/")
    organiser.click("button:has-text('Pair next round')")
    organiser.wait_for_load_state()
    organiser.click("button:has-text('Publish pairings')")
    organiser.wait_for_load_state()
    assert "pairings published" in organiser.inner_text(".messages")

    # --- the player: the event page, the deck page, a forced POST, the API -----------------
    player.goto(f"{base}/me/")
    mine = player.inner_text(f"#event-{event.pk}")
    assert "(locked)" in mine and "Fix your deck" not in mine and "Submit your deck" not in mine
    player.goto(f"{base}{event_path}")
    you = player.inner_text("#you")
    assert "Edit your deck" not in you and "View your deck" in you and "(locked)" in you
    assert "lists locked: the event has started" in player.inner_text("main")
    player.click("#you >> text=View your deck")
    player.wait_for_url(f"**{deck_path}")
    shot(player, "deck-locked-after-round-1.png")
    assert "The event has started: your list is locked." in player.inner_text(".deck-form")
    assert player.locator("button[name=submit]").count() == 0
    assert player.locator("textarea").get_attribute("readonly") is not None

    edited = sample_deck_text().replace("4 Pikachu DM1 1", "3 Pikachu DM1 1")
    # What a hand-made form would send: the page refuses it and keeps nothing. The submit
    # is the script's, not a click's: wait for the answer's page, not the current one.
    with player.expect_navigation():
        player.evaluate(
            """(text) => {
                const form = document.querySelector('.deck-form form');
                form.querySelector('textarea').removeAttribute('readonly');
                form.querySelector('textarea').value = text;
                const b = document.createElement('input');
                b.type = 'hidden'; b.name = 'submit'; b.value = '1';
                form.appendChild(b);
                HTMLFormElement.prototype.submit.call(form);  // a button is named "submit"
            }""",
            edited,
        )
    assert "ask the event staff to change your list" in player.inner_text("main").lower()

    csrf = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    api = player.context.request.post(
        f"{base}/api/registrations/{ash.pk}/decks/",
        data={"decklist_text": edited},
        headers={"X-CSRFToken": csrf, "Referer": f"{base}{deck_path}"},
    )
    assert api.status == 409 and api.json()["code"] == "deck-locked", api.text()
    assert ash.deck_submissions.count() == 1

    # --- the staff can still change it, and the change is recorded -------------------------
    organiser.goto(f"{base}{event_path}decks/{ash.pk}/")
    assert "a version stored now is marked as a staff change after the lock" in (
        organiser.inner_text(".deck-form")
    )
    organiser.fill(".deck-form textarea", edited)
    organiser.click("button[name=submit]")
    organiser.wait_for_load_state()
    assert "Version 2 saved" in organiser.inner_text(".messages")
    history = organiser.inner_text("table.history")
    assert "changed by staff after the list locked" in history and "oak" in history
    shot(organiser, "deck-staff-change-after-lock.png")
    change = ash.deck_submissions.get(version=2)
    assert change.after_deadline and change.submitted_by == oak

    player.goto(f"{base}{deck_path}")  # the player sees the staff's version, still locked
    assert "changed by staff after the list locked" in player.inner_text("table.history")
    assert player.locator("button[name=submit]").count() == 0
