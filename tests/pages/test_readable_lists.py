"""Decklists as people read them: the resolved cards grouped Pokémon / Trainer / Energy
with counts that add up, a "copy for TCG Live" text, the raw paste for the list's player
and the staff; only where the decklist phase allows."""

import re

import pytest
from django.urls import reverse

from decks.reading import readable_list
from decks.services import card_index
from league import services as league_services
from league.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed(event, make_player, register, deck_text):
    brock = make_player("Brock Harrison", birth_year=2013)
    registration = register(brock)
    league_services.submit_deck(registration=registration, text=deck_text, by_user=brock.user)
    return registration


def test_the_sections_add_up_to_the_list(listed, deck_text):
    reading = readable_list(deck_text, card_index())
    assert [s.name for s in reading.sections][:1] == ["Pokémon"]
    assert {s.name for s in reading.sections} <= {"Pokémon", "Trainer", "Energy"}
    for section in reading.sections:
        assert section.count == sum(line.count for line in section.lines)
    assert reading.total == sum(s.count for s in reading.sections) == 60
    text = reading.tcg_live_text()
    headings = dict(re.findall(r"^(Pokémon|Trainer|Energy): (\d+)$", text, re.M))
    assert sum(map(int, headings.values())) == 60 and text.endswith("Total Cards: 60\n")
    lines = [ln for ln in text.splitlines() if re.match(r"^\d+ ", ln)]
    assert sum(int(ln.split()[0]) for ln in lines) == 60


def test_a_public_list_reads_by_section_and_copies_for_tcg_live(client, event, listed):
    Event.objects.filter(pk=event.pk).update(decklists_open=Event.DecklistsOpen.NOW)
    url = reverse("event-deck-detail", args=[event.pk, listed.pk])
    page = client.get(url).content.decode()
    assert re.search(r"<h1>(.*?)</h1>", page).group(1) == "Brock H.'s deck"  # a minor
    assert "Harrison" not in page
    assert re.search(r"Pokémon \(\d+\)", page) and "Copy for TCG Live" in page
    assert "The pasted text" not in page  # the raw paste: the player and the staff
    event_page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Brock H." in event_page and "Harrison" not in event_page
    export = client.get(reverse("event-deck-tcg-live", args=[event.pk, listed.pk]))
    assert export["Content-Type"].startswith("text/plain")
    assert export.content.decode().endswith("Total Cards: 60\n")


def test_staff_see_the_raw_paste(client, organiser, event, listed, deck_text):
    client.force_login(organiser)
    page = client.get(reverse("event-deck-detail", args=[event.pk, listed.pk])).content.decode()
    assert "The pasted text" in page and "Brock Harrison" in page


def test_a_list_not_yet_public_is_in_no_page_or_export(client, event, listed, make_player):
    assert event.decklists_open == Event.DecklistsOpen.NEVER
    export = reverse("event-deck-tcg-live", args=[event.pk, listed.pk])
    page = reverse("event-deck-detail", args=[event.pk, listed.pk])
    assert client.get(export).status_code == 404
    assert client.get(page).status_code == 302  # to the login
    client.force_login(make_player("Misty Waterflower").user)
    assert client.get(export).status_code == 404
    assert client.get(page).status_code == 403
    client.force_login(listed.player.user)  # the list's own player
    assert client.get(export).status_code == 200
