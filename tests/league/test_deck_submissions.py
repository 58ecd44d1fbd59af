"""Deck submissions: verdicts stored with every version, the deadline lock, privacy."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from league import permissions, services
from league.models import Event
from notifications.models import Notification
from rules.errors import DomainError
from tests.factories import (
    RegistrationFactory,
    UserFactory,
    sample_deck_text,
    user_of,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cards")]


def test_every_version_is_kept_with_its_verdict(make_event, django_capture_on_commit_callbacks):
    _, (reg, *_) = make_event(players=1)
    with django_capture_on_commit_callbacks(execute=True):
        legal = services.submit_deck(
            registration=reg, text=sample_deck_text(), by_user=user_of(reg)
        )
    assert legal.version == 1 and legal.legal and legal.card_count == 60
    with django_capture_on_commit_callbacks(execute=True):
        broken = services.submit_deck(
            registration=reg, text="4 Pikachu DM1 1\n", by_user=user_of(reg)
        )
    assert broken.version == 2 and not broken.legal
    assert {e["code"] for e in broken.verdict["errors"]} == {"deck-size"}
    assert list(reg.deck_submissions.order_by("version").values_list("legal", flat=True)) == [
        True,
        False,
    ]
    notes = Notification.objects.filter(recipient=user_of(reg), kind="deck_verdict").order_by("id")
    assert [n.subject.endswith("is legal") for n in notes] == [True, False]
    assert "60" in notes[1].body


def test_the_deadline_locks_players_out_but_not_staff(make_event, staff):
    _event, (reg, *_) = make_event(players=1, deck_deadline=timezone.now() - timedelta(minutes=1))
    with pytest.raises(DomainError) as err:
        services.submit_deck(registration=reg, text=sample_deck_text(), by_user=user_of(reg))
    assert err.value.code == "deck-locked"
    change = services.submit_deck(registration=reg, text=sample_deck_text(), by_user=staff)
    assert change.after_deadline and change.submitted_by == staff


def test_nobody_else_submits_for_a_player(make_event):
    _, (reg, other) = make_event(players=2)
    with pytest.raises(DomainError) as err:
        services.submit_deck(registration=reg, text=sample_deck_text(), by_user=user_of(other))
    assert err.value.code == "not-allowed"


def test_decklists_are_private_until_published(make_event, staff):
    event, (reg, other) = make_event(players=2)
    assert permissions.can_view_decklist(user_of(reg), reg)
    assert permissions.can_view_decklist(staff, reg)
    assert not permissions.can_view_decklist(user_of(other), reg)
    assert not permissions.can_view_decklist(AnonymousUser(), reg)
    assert not permissions.can_view_decklist(UserFactory(), reg)
    event.decklists_open = Event.DecklistsOpen.NOW
    event.save()
    reg.refresh_from_db()
    assert permissions.can_view_decklist(AnonymousUser(), reg)


def test_empty_text_is_refused_and_stores_nothing():
    reg = RegistrationFactory()
    with pytest.raises(DomainError) as err:
        services.submit_deck(registration=reg, text="   \n", by_user=user_of(reg))
    assert err.value.code == "empty-decklist"
    assert not reg.deck_submissions.exists()
