"""Deck submissions, the deck lock and publishing the lists."""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from decks.findings_text import verdict_record
from decks.services import check_decklist
from notifications import outbox
from rules.errors import DomainError

from .. import permissions
from ..models import DeckSubmission, Event, Registration


def deck_lock(event: Event, registration: Registration | None = None, now=None) -> str:
    """Why decklists are locked, or "" while they are open.

    "started" once play has started for the player: the first round they play is paired
    (round 1, or a late entrant's first round) or the top cut is under way, whatever the
    deadline says. "deadline" once the deck deadline has passed. Staff may still store a
    version after either; it is marked `after_deadline` (a change after the lock).
    """
    first_round = (registration.late_entry_round or 1) if registration is not None else 1
    if event.swiss_rounds_paired >= first_round or event.status in (
        Event.Status.TOP_CUT,
        Event.Status.FINISHED,
    ):
        return "started"
    if event.deck_deadline is not None and (now or timezone.now()) >= event.deck_deadline:
        return "deadline"
    return ""


def deck_locked(event: Event, registration: Registration | None = None, now=None) -> bool:
    return bool(deck_lock(event, registration, now))


def deck_lock_message(event: Event, lock: str) -> str:
    """Why a player's list is locked, the same words on the page and in the API."""
    if lock == "started":
        return _(
            "The event has started (lists lock when round 1 is paired); ask the event staff "
            "to change your list."
        )
    return _(
        "The deck deadline (%(deadline)s) has passed; ask the event staff to change your list."
    ) % {"deadline": date_format(event.deck_deadline, "Y-m-d H:i")}


def _share_lock_event(event_id: int) -> None:
    """Hold the event row in share mode until the transaction ends: pairing a round (which
    takes it FOR UPDATE) waits for submissions in flight, while submissions from several
    players do not wait for one another. A no-op on SQLite (the quick start)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM league_event WHERE id = %s FOR SHARE", [event_id])


@transaction.atomic
def submit_deck(*, registration: Registration | int, text: str, by_user) -> DeckSubmission:
    """Check `text` against the event's format and store it as the registration's next
    version (older versions are kept). Once the list is locked (`deck_lock`: the first
    round is paired, or the deck deadline has passed) only staff may submit, and the
    version is marked as a change after the lock. Queues the deck-verdict notification.
    Raises `not-found`, `not-allowed`, `deck-locked`, `empty-decklist`.
    """
    pk = registration.pk if isinstance(registration, Registration) else registration
    event_id = Registration.objects.filter(pk=pk).values_list("event_id", flat=True).first()
    if event_id is None:
        raise DomainError("not-found", _("No such registration."), status=404)
    _share_lock_event(event_id)  # the event first, then the registration: one order
    last_version = DeckSubmission.objects.filter(registration=OuterRef("pk")).order_by("-version")
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("event__format", "event__season__league", "player")
        .annotate(last_version=Subquery(last_version.values("version")[:1]))
        .filter(pk=pk)
        .first()
    )
    if registration is None:
        raise DomainError("not-found", _("No such registration."), status=404)
    event = registration.event
    owner = permissions.owns_registration(by_user, registration)
    lock = deck_lock(event, registration)
    # Staff rights cost a query: ask only when they matter.
    is_staff = (bool(lock) or not owner) and permissions.can(by_user, event, "deck-checks")
    if not (owner or is_staff):
        raise DomainError("not-allowed", _("You can only submit your own decklist."), status=403)
    if event.is_board_game:
        raise DomainError(
            "no-decklists",
            _("%(event)s is a board-game night: there are no decklists.") % {"event": event},
            status=409,
        )
    if lock and not is_staff:
        raise DomainError(
            "deck-locked",
            deck_lock_message(event, lock),
            status=409,
        )
    if not text.strip():
        raise DomainError("empty-decklist", _("Paste your decklist: the text is empty."))
    verdict = check_decklist(text=text, fmt=event.format)
    submission = DeckSubmission.objects.create(
        registration=registration,
        version=(registration.last_version or 0) + 1,
        text=text,
        legal=verdict.legal,
        verdict=verdict_record(verdict),
        card_count=verdict.card_count,
        submitted_by=by_user if by_user and by_user.is_authenticated else None,
        after_deadline=bool(lock),
    )
    # Recorded with the submission, dispatched after commit (or by the relay).
    outbox.record_task("league.notify_deck_verdict", args=[submission.pk])
    return submission


@transaction.atomic
def publish_decklists(*, event: Event, by_user, published: bool = True) -> Event:
    """Publish every registration's decklist by hand (the phase "now"), or make them
    private again (the phase "never"); the phases that open lists by themselves are event
    settings (`update_event`). Organisers only; raises `not-allowed`."""
    if not permissions.can(by_user, event, "manage-event"):
        raise DomainError(
            "not-allowed", _("Only the event's organisers can publish decklists."), status=403
        )
    phase = Event.DecklistsOpen.NOW if published else Event.DecklistsOpen.NEVER
    Event.objects.filter(pk=event.pk).update(decklists_open=phase)
    event.decklists_open = phase
    return event
