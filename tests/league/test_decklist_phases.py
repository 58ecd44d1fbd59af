"""When decklists open (`Event.decklists_open`): never, the top cut's lists once the cut is
paired, every list once the event is finished, or now by the organiser's hand. Until then a
list is seen by its player and the staff who check decks only; pages and API agree."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from rest_framework.test import APIClient

from league import permissions
from league import services as league_services
from league.models import Event, Registration
from matches import services
from tests.factories import UserFactory, play_round, sample_cards, sample_deck_text, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def event_with_lists(make_event, staff):
    """Four players with a list each; one Swiss round and a top cut of two."""
    sample_cards()

    def make(phase):
        event, regs = make_event(players=4, swiss_rounds=1, top_cut=2, decklists_open=phase)
        for reg in regs:
            league_services.submit_deck(
                registration=reg, text=sample_deck_text(), by_user=user_of(reg)
            )
        return event, regs

    return make


def public_to_a_stranger(client, registration) -> tuple[bool, bool]:
    """(the page shows the list, the API gives it) to someone who is neither the player
    nor staff."""
    client.force_login(UserFactory(username="stranger"))
    page = client.get(
        reverse("event-deck-detail", args=[registration.event_id, registration.pk])
    ).status_code
    api = APIClient()
    api.force_authenticate(UserFactory(username="stranger"))
    answer = api.get(f"/api/registrations/{registration.pk}/decks/").status_code
    assert (page == 200) is (answer == 200), (page, answer)
    return page == 200, answer == 200


def test_top_cut_phase_opens_only_the_cut_players_lists_once_the_cut_is_paired(
    client, event_with_lists, staff
):
    event, regs = event_with_lists(Event.DecklistsOpen.TOP_CUT)
    play_round(event, staff)
    event.refresh_from_db()
    assert permissions.public_decklists(event).count() == 0
    assert not any(public_to_a_stranger(client, r)[0] for r in regs)

    cut = services.pair_next_round(event=event, by_user=staff)
    event.refresh_from_db()
    in_cut = {cut.matches.get().player_a_id, cut.matches.get().player_b_id}
    assert set(Registration.objects.filter(in_top_cut=True).values_list("pk", flat=True)) == in_cut
    for reg in regs:
        reg.refresh_from_db()
        assert public_to_a_stranger(client, reg) == ((reg.pk in in_cut),) * 2
    assert set(permissions.public_decklists(event).values_list("pk", flat=True)) == in_cut
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    for reg in regs:
        link = reverse("event-deck-detail", args=[event.pk, reg.pk])
        assert (link in page) is (reg.pk in in_cut)


def test_after_event_phase_opens_every_list_when_the_event_is_finished(
    client, event_with_lists, staff
):
    event, regs = event_with_lists(Event.DecklistsOpen.AFTER_EVENT)
    play_round(event, staff)
    assert public_to_a_stranger(client, regs[0]) == (False, False)
    final = services.pair_next_round(event=event, by_user=staff)
    assert public_to_a_stranger(client, regs[0]) == (False, False)
    match = final.matches.get()
    services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": "a"}]})
    services.close_round(round_=final, by_user=staff)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert permissions.decklists_are_public(event)
    assert all(public_to_a_stranger(client, r) == (True, True) for r in regs)
    assert APIClient().get(f"/api/events/{event.pk}/").json()["decklists_published"] is True


def test_never_keeps_lists_private_even_after_the_event_but_the_owner_and_judges_see_them(
    client, event_with_lists, staff
):
    event, regs = event_with_lists(Event.DecklistsOpen.NEVER)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    regs[0].refresh_from_db()
    assert public_to_a_stranger(client, regs[0]) == (False, False)
    assert not permissions.can_view_decklist(AnonymousUser(), regs[0])
    assert permissions.can_view_decklist(user_of(regs[0]), regs[0])
    assert permissions.can_view_decklist(staff, regs[0])


def test_the_organiser_chooses_the_phase_in_the_event_settings(client, make_event, staff):
    event, _ = make_event(players=0)
    client.force_login(staff)
    form = client.get(reverse("event-edit", args=[event.pk])).content.decode()
    assert "Every list, after the event" in form
    league_services.update_event(event=event, by_user=staff, decklists_open="top_cut")
    event.refresh_from_db()
    assert event.decklists_open == Event.DecklistsOpen.TOP_CUT
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "The top cut&#x27;s lists" in page
