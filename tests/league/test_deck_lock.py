"""Lists lock when play starts: once round 1 is paired, whatever the deck deadline says
(a late entrant's list stays open until their first round is paired)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from league import services
from league.models import Event
from matches import services as match_services
from rules.errors import DomainError
from tests.factories import RegistrationFactory, sample_deck_text, user_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cards")]


def test_pairing_round_one_locks_lists_before_the_deadline(make_event, staff):
    event, regs = make_event(players=4, deck_deadline=timezone.now() + timedelta(days=2))
    reg = regs[0]
    services.submit_deck(registration=reg, text=sample_deck_text(), by_user=user_of(reg))
    assert services.deck_lock(event, reg) == ""
    match_services.pair_next_round(event=event, by_user=staff)  # paired, not yet published
    event.refresh_from_db()
    assert services.deck_lock(event, reg) == "started"
    with pytest.raises(DomainError) as err:
        services.submit_deck(registration=reg, text=sample_deck_text(), by_user=user_of(reg))
    assert err.value.code == "deck-locked" and err.value.status == 409
    assert "has started" in err.value.message
    change = services.submit_deck(registration=reg, text=sample_deck_text(), by_user=staff)
    assert change.version == 2 and change.after_deadline and change.submitted_by == staff


def test_a_late_entrant_submits_until_their_first_round_is_paired(make_event, staff):
    event, _ = make_event(players=4)
    match_services.pair_next_round(event=event, by_user=staff)
    event.refresh_from_db()
    late = RegistrationFactory(event=event)  # enters late, from round 2
    assert late.late_entry_round == 2
    assert services.deck_lock(event, late) == "" and services.deck_lock(event) == "started"
    version = services.submit_deck(
        registration=late, text=sample_deck_text(), by_user=user_of(late)
    )
    assert not version.after_deadline
    Event.objects.filter(pk=event.pk).update(swiss_rounds_paired=2)
    event.refresh_from_db()
    with pytest.raises(DomainError) as err:
        services.submit_deck(registration=late, text=sample_deck_text(), by_user=user_of(late))
    assert err.value.code == "deck-locked"


def test_the_top_cut_and_a_finished_event_lock_lists(make_event):
    event, (reg, *_) = make_event(players=2)
    for status in (Event.Status.TOP_CUT, Event.Status.FINISHED):
        event.status = status
        assert services.deck_lock(event, reg) == "started"


def test_no_deadline_reminders_once_play_has_started(make_event, staff):
    event, _ = make_event(players=4, deck_deadline=timezone.now() + timedelta(minutes=30))
    match_services.pair_next_round(event=event, by_user=staff)
    assert services.send_deck_deadline_reminders() == 0
