"""Issue 27, item 5: private-list data, archetypes included, is behind the one decklist
rule (`league.permissions.can_view_decklist` / `can_view_all_decklists`). A scorekeeper,
refused the list itself, no longer reads its archetype on the registration card or in the
metagame preview; the staff who check decks (judges, organisers) still do."""

from __future__ import annotations

import pytest
from django.urls import reverse

from insights import selectors as insight_selectors
from league import services as league_services
from league.models import StaffRole
from tests.factories import (
    EventFactory,
    RegistrationFactory,
    UserFactory,
    sample_cards,
    sample_deck_text,
)

from .conftest import https_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_lists(world):
    sample_cards()
    event = EventFactory(season=world.event.season, name="Lavender Private Lists")
    regs = [RegistrationFactory(event=event) for _ in range(3)]
    for reg in regs:
        league_services.submit_deck(registration=reg, text=sample_deck_text(), by_user=world.org_a)
    league = world.event.season.league
    roles = {}
    for role in (StaffRole.Role.SCOREKEEPER, StaffRole.Role.JUDGE):
        roles[role] = UserFactory(username=f"{role}-user")
        StaffRole.objects.create(league=league, user=roles[role], role=role)
    reg = regs[0]
    deck = insight_selectors.latest_decks_of([reg])[reg.pk]
    archetype = insight_selectors.archetype_of(reg, deck, insight_selectors.league_rules(league))
    assert archetype
    return event, reg, roles, archetype


def test_a_scorekeeper_reads_no_archetype_of_a_private_list(production_settings, private_lists):
    event, reg, roles, archetype = private_lists
    scorekeeper = https_client(roles[StaffRole.Role.SCOREKEEPER])
    deck_page = scorekeeper.get(reverse("event-deck-detail", args=[event.pk, reg.pk]))
    assert deck_page.status_code in (403, 404)  # the list itself, refused as before
    card = scorekeeper.get(reverse("registration-card", args=[event.pk, reg.pk]))
    assert card.status_code == 200
    text = card.content.decode()
    assert archetype not in text and "submitted (version 1)" in text
    meta = scorekeeper.get(reverse("event-metagame", args=[event.pk])).content.decode()
    assert archetype not in meta and "appears once the decklists are public" in meta


@pytest.mark.parametrize("who", ["judge", "organiser"])
def test_the_staff_who_check_decks_still_read_them(production_settings, world, private_lists, who):
    event, reg, roles, archetype = private_lists
    user = world.org_a if who == "organiser" else roles[StaffRole.Role.JUDGE]
    client = https_client(user)
    card = client.get(reverse("registration-card", args=[event.pk, reg.pk])).content.decode()
    assert archetype in card
    assert archetype in client.get(reverse("event-metagame", args=[event.pk])).content.decode()
    # And the public not at all.
    assert (
        archetype
        not in https_client().get(reverse("event-metagame", args=[event.pk])).content.decode()
    )
