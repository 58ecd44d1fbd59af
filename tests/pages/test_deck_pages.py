"""Submitting, checking and viewing decklists; their privacy."""

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league import services as league_services
from league.models import DeckSubmission, Event

from .conftest import registration_of

pytestmark = pytest.mark.django_db


def illegal(deck_text: str) -> str:
    """Line 1 gets a fifth copy (too many, and 61 cards); a last line names no card."""
    lines = deck_text.splitlines()
    count, rest = lines[0].split(" ", 1)
    lines[0] = f"{int(count) + 1} {rest}"
    return "\n".join([*lines, "1 Missingno Glitch"])


def line_row(page: str, number: int) -> str:
    match = re.search(rf'<tr class="line[^"]*" id="line-{number}">(.*?)</tr>', page, re.S)
    assert match, f"line {number} is not shown"
    return match.group(0)


def textarea(page: str) -> str:
    match = re.search(r"<textarea[^>]*>\n?(.*?)</textarea>", page, re.S)
    assert match
    return html.unescape(match.group(1))


def submit_url(event):
    return reverse("deck-submit", args=[event.pk])


def test_the_deck_page_needs_a_login(client, event):
    url = submit_url(event)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_deck_page_needs_a_registration(client, event, make_player):
    client.force_login(make_player().user)
    response = client.get(submit_url(event), follow=True)
    assert response.redirect_chain[-1][0] == reverse("event-detail", args=[event.pk])
    assert "Register for this event" in response.content.decode()


def test_a_legal_deck_is_stored_and_the_form_shows_it_next_time(client, event, ash, deck_text):
    client.force_login(ash.user)

    response = client.post(
        submit_url(event), {"decklist_text": deck_text, "submit": "1"}, follow=True
    )

    page = response.content.decode()
    assert "Version 1 saved: legal (60 cards)." in page
    assert "✓ Legal" in page
    submission = DeckSubmission.objects.get(registration__player=ash)
    assert submission.version == 1 and submission.legal and submission.submitted_by == ash.user
    assert textarea(page).strip() == deck_text.strip()
    assert deck_text.splitlines()[0] in html.unescape(line_row(page, 1))


def test_an_illegal_deck_shows_every_line_with_the_findings_that_name_it(
    client, event, ash, deck_text
):
    client.force_login(ash.user)
    text = illegal(deck_text)
    last = len(text.splitlines())

    response = client.post(submit_url(event), {"decklist_text": text, "submit": "1"}, follow=True)

    page = response.content.decode()
    assert "saved, but it is not legal" in page
    submission = DeckSubmission.objects.get(registration__player=ash)
    assert not submission.legal
    codes = {e["code"] for e in submission.verdict["errors"]}
    assert {"too-many-copies", "unknown-card"} <= codes
    # Each finding is shown on the line(s) it names, every other line plainly.
    for finding in submission.verdict["errors"] + submission.verdict["warnings"]:
        for number in finding["lines"]:
            assert f'data-code="{finding["code"]}"' in line_row(page, number)
    assert 'data-code="too-many-copies"' in line_row(page, 1)
    assert 'data-code="unknown-card"' in line_row(page, last)
    assert 'class="finding' not in line_row(page, 2)
    # A finding about the whole deck (61 cards) is listed above the lines.
    assert 'class="deck-wide"' in page and 'data-code="deck-size"' in page
    assert textarea(page).strip() == text.strip()


def test_an_empty_text_is_refused_and_nothing_is_stored(client, event, ash):
    client.force_login(ash.user)
    response = client.post(submit_url(event), {"decklist_text": "", "submit": "1"})
    assert response.status_code == 200
    assert "Paste your decklist: the text is empty." in response.content.decode()
    assert not DeckSubmission.objects.exists()


def test_check_only_shows_the_verdict_keeps_the_text_and_stores_nothing(
    client, event, ash, deck_text
):
    client.force_login(ash.user)
    text = illegal(deck_text)

    response = client.post(submit_url(event), {"decklist_text": text, "check": "1"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "Check only" in page and "✗ Not legal" in page
    assert 'data-code="too-many-copies"' in line_row(page, 1)
    assert textarea(page).strip() == text.strip()
    assert not DeckSubmission.objects.exists()


def test_after_the_deadline_the_form_is_locked_and_a_submit_keeps_the_text(
    client, make_event, make_player, register, deck_text
):
    event, _ = make_event(deck_deadline=timezone.now() - timedelta(hours=1))
    player = make_player()
    register(player, to=event)
    client.force_login(player.user)

    page = client.get(submit_url(event)).content.decode()
    assert "your list is locked" in page and 'name="submit"' not in page and " readonly>" in page

    response = client.post(submit_url(event), {"decklist_text": deck_text, "submit": "1"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "ask the event staff to change your list" in page
    assert textarea(page).strip() == deck_text.strip()
    assert not DeckSubmission.objects.exists()


def test_the_history_lists_every_version_newest_first(client, event, ash, deck_text):
    registration = registration_of(ash, event)
    league_services.submit_deck(
        registration=registration, text=illegal(deck_text), by_user=ash.user
    )
    league_services.submit_deck(registration=registration, text=deck_text, by_user=ash.user)
    client.force_login(ash.user)

    page = client.get(submit_url(event)).content.decode()
    history = page[page.index('class="history') :]
    version = '<td class="num" data-label="Version">{}</td>'
    assert history.index(version.format(2)) < history.index(version.format(1))
    assert "Version 2" in page and textarea(page).strip() == deck_text.strip()

    older = client.get(submit_url(event) + "?version=1").content.decode()
    assert "Version 1" in older and "an older version" in older and "✗ Not legal" in older
    assert client.get(submit_url(event) + "?version=9").status_code == 404


def deck_detail_url(event, registration):
    return reverse("event-deck-detail", args=[event.pk, registration.pk])


def test_a_decklist_is_private_to_its_player_and_the_staff_until_published(
    client, event, ash, misty, organiser, deck_text
):
    registration = registration_of(ash, event)
    league_services.submit_deck(registration=registration, text=deck_text, by_user=ash.user)
    url = deck_detail_url(event, registration)
    secret = deck_text.splitlines()[0]

    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    client.force_login(misty.user)
    assert client.get(url).status_code == 403
    client.force_login(ash.user)
    assert secret in client.get(url).content.decode()
    client.force_login(organiser)
    assert secret in client.get(url).content.decode()

    event.decklists_open = Event.DecklistsOpen.NOW
    event.save()
    client.logout()
    public = client.get(url)
    assert public.status_code == 200 and secret in public.content.decode()
    assert 'class="history' not in public.content.decode()
    client.force_login(misty.user)
    assert client.get(url).status_code == 200
    assert client.post(url, {"decklist_text": deck_text, "submit": "1"}).status_code == 403


def test_the_decks_page_is_for_staff_only(client, event, ash, organiser):
    url = reverse("event-decks", args=[event.pk])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(ash.user)
    assert client.get(url).status_code == 403
    assert client.post(url, {"published": "on"}).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_the_decks_page_lists_every_latest_list_with_its_verdict(
    client, event, ash, misty, make_player, register, organiser, deck_text
):
    league_services.submit_deck(
        registration=registration_of(ash, event), text=deck_text, by_user=ash.user
    )
    league_services.submit_deck(
        registration=registration_of(misty, event), text=illegal(deck_text), by_user=misty.user
    )
    register(make_player("Zed No-Deck"))
    client.force_login(organiser)

    page = client.get(reverse("event-decks", args=[event.pk])).content.decode()

    assert "1 legal" in page and "1 not legal" in page and "1 missing" in page
    errors = len(DeckSubmission.objects.get(registration__player=misty).verdict["errors"])
    assert f"not legal: {errors} errors" in page
    assert deck_detail_url(event, registration_of(misty, event)) in page


def test_staff_publish_the_lists_and_make_them_private_again(client, event, organiser):
    client.force_login(organiser)
    url = reverse("event-decks", args=[event.pk])

    response = client.post(url, {"published": "on"}, follow=True)
    assert "Decklists are now public." in response.content.decode()
    event.refresh_from_db()
    assert event.decklists_open == Event.DecklistsOpen.NOW

    client.post(url, {"published": ""})
    event.refresh_from_db()
    assert event.decklists_open == Event.DecklistsOpen.NEVER


def test_staff_store_a_new_version_for_a_player_after_the_deadline(
    client, make_event, make_player, register, organiser, deck_text
):
    event, _ = make_event(deck_deadline=timezone.now() - timedelta(minutes=5))
    player = make_player("Late Lucy")
    registration = register(player, to=event)
    client.force_login(organiser)
    url = deck_detail_url(event, registration)

    response = client.post(url, {"decklist_text": deck_text, "submit": "1"}, follow=True)

    page = response.content.decode()
    assert "Version 1 saved" in page
    submission = DeckSubmission.objects.get(registration=registration)
    assert submission.after_deadline and submission.submitted_by == organiser
    assert (
        "changed by staff after the list locked" in page and '<td data-label="By">oak</td>' in page
    )


def test_a_staff_check_only_stores_nothing(client, event, ash, organiser, deck_text):
    client.force_login(organiser)
    url = deck_detail_url(event, registration_of(ash, event))
    response = client.post(url, {"decklist_text": illegal(deck_text), "check": "1"})
    assert response.status_code == 200 and "Check only" in response.content.decode()
    assert not DeckSubmission.objects.exists()


def test_the_stand_alone_checker_stores_nothing(client, cards, deck_text):
    url = reverse("deck-check")
    assert client.get(url).status_code == 200
    from decks.models import Format

    response = client.post(
        url, {"format": Format.objects.get(key="standard").pk, "decklist_text": deck_text}
    )
    assert "✓ Legal" in response.content.decode()
    assert not DeckSubmission.objects.exists()


def test_staff_deck_list_shows_illegal_lists_first(client, db):
    """Illegal, then missing, then legal: what needs the staff's attention comes first."""
    from league import services
    from league.models import Registration
    from tests.factories import (
        EventFactory,
        LeagueFactory,
        PlayerFactory,
        SeasonFactory,
        UserFactory,
        sample_cards,
        sample_deck_text,
    )

    sample_cards()
    staff = UserFactory()
    event = EventFactory(season=SeasonFactory(league=LeagueFactory(organisers=[staff])))
    names = {
        "Anna Legal": sample_deck_text(),
        "Bert Missing": None,
        "Cleo Illegal": "4 Pikachu DM1 1",
    }
    for name, text in names.items():
        player = PlayerFactory(name=name)
        reg = Registration.objects.create(event=event, player=player, division="masters")
        if text:
            services.submit_deck(registration=reg, text=text, by_user=staff)
    client.force_login(staff)
    page = client.get(f"/events/{event.pk}/decks/").content.decode()
    assert page.index("Cleo Illegal") < page.index("Bert Missing") < page.index("Anna Legal")
