"""Registration, check-in, late entry, drops and the waiting list."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.divisions import division_for
from rules.errors import DomainError
from rules.i18n import gettext_noop, say

from .. import permissions, selectors
from ..editions import division_years
from ..event_log import EventLogEntry
from ..models import Event, Player, Registration
from . import eventlog


def division_of(player: Player, event: Event) -> str:
    """`player`'s age division at `event`: by the edition's cut-off years, else the
    season's (`league.editions.division_years`)."""
    years = division_years(event)
    return division_for(
        player.birth_date.year, junior_from=years.junior_from, senior_from=years.senior_from
    )


def rounds_started(event: Event) -> int:
    """The number of Swiss rounds paired so far (0 before the event starts)."""
    return event.swiss_rounds_paired


@transaction.atomic
def register(
    *, event: Event, player: Player, by_user=None, division: str | None = None
) -> Registration:
    """Register `player` for `event`.

    Writes one `Registration`: `registered`, or `waitlisted` when the event is at capacity.
    While the event is running, the player enters late: they are paired from the next round
    and take a loss for each round they missed. `division` overrides the one the season's
    years give (an event run in TOM, whose save says each player's division). Raises
    `already-registered`, `registration-closed`.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status not in (Event.Status.REGISTRATION, Event.Status.RUNNING):
        raise DomainError(
            "registration-closed", _("Registration for %(event)s is closed.") % {"event": event}
        )
    existing = Registration.objects.filter(event=event, player=player).first()
    if existing and existing.status != Registration.Status.WITHDRAWN:
        raise DomainError(
            "already-registered",
            _("%(player)s is already registered for %(event)s.")
            % {"player": player.name, "event": event},
        )
    late_round = None
    if event.status == Event.Status.RUNNING:
        late_round = rounds_started(event) + 1
    full = event.capacity is not None and selectors.active_count(event) >= event.capacity
    status = Registration.Status.WAITLISTED if full else Registration.Status.REGISTERED
    if existing:  # a withdrawn player signs up again
        existing.status = status
        existing.late_entry_round = late_round
        existing.division = division or division_of(player, event)
        existing.save(update_fields=["status", "late_entry_round", "division"])
        return existing
    return Registration.objects.create(
        event=event,
        player=player,
        status=status,
        division=division or division_of(player, event),
        late_entry_round=late_round,
    )


@transaction.atomic
def check_in(*, registration: Registration, by_user=None) -> Registration:
    """Mark a registered player present. Raises `not-registered` for other states."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status == Registration.Status.CHECKED_IN:
        return registration
    if registration.status != Registration.Status.REGISTERED:
        raise DomainError(
            "not-registered",
            _("%(player)s is %(status)s.")
            % {"player": registration.player.name, "status": registration.get_status_display()},
        )
    registration.status = Registration.Status.CHECKED_IN
    registration.checked_in_at = timezone.now()
    registration.save(update_fields=["status", "checked_in_at"])
    return registration


@transaction.atomic
def drop(
    *,
    registration: Registration,
    by_user,
    after_round: int | None = None,
    action: str = "pair-rounds",
) -> Registration:
    """Drop a player from the event (by the player, or staff whose role allows `action`:
    `pair-rounds` for drops at the desk, `penalties` when a disqualification drops them).

    Before the first round this is a withdrawal and frees a place for the waiting list; after
    it the player is never paired again but stays in the standings, with their record frozen
    after the last round that was paired (or `after_round`, when it is known from elsewhere:
    a TOM save names the round). Raises `not-allowed`, `not-active`.
    """
    registration = (
        Registration.objects.select_for_update()
        .select_related("event", "player")
        .get(pk=registration.pk)
    )
    event = registration.event
    if not (
        permissions.owns_registration(by_user, registration)
        or permissions.can(by_user, event, action)
    ):
        raise DomainError(
            "not-allowed", _("Only the player or the event staff can drop a player."), status=403
        )
    if not registration.is_active and registration.status != Registration.Status.WAITLISTED:
        raise DomainError(
            "not-active",
            _("%(player)s is not in the event.") % {"player": registration.player.name},
        )
    played = rounds_started(event)
    if played == 0 or registration.status == Registration.Status.WAITLISTED:
        was_active = registration.is_active
        registration.status = Registration.Status.WITHDRAWN
        registration.save(update_fields=["status"])
        if was_active:
            _promote_waitlist(event)
        return registration
    before = registration.status
    registration.status = Registration.Status.DROPPED
    registration.dropped_after_round = min(after_round, played) if after_round else played
    registration.dropped_by = by_user if by_user and by_user.is_authenticated else None
    registration.save(update_fields=["status", "dropped_after_round", "dropped_by"])
    eventlog.record(
        event=event,
        kind=EventLogEntry.Kind.DROP,
        by_user=by_user,
        summary=say(
            gettext_noop("%(player)s dropped after round %(round)s."),
            player=registration.player.name,
            round=registration.dropped_after_round,
        ),
        registrations=[registration],
        before={"status": before},
        after={
            "status": registration.status,
            "dropped_after_round": registration.dropped_after_round,
        },
    )
    return registration


@transaction.atomic
def undo_drop(*, registration: Registration, by_user, reason: str) -> Registration:
    """Take back a drop (or a withdrawal) entered by mistake (staff with `pair-rounds`): the
    player is active again and is paired from the next round. Writes the registration and a
    log row. Raises `not-allowed`, `reason-required`, `not-dropped`, `event-finished`."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("event__season__league", "player")
        .get(pk=registration.pk)
    )
    event = registration.event
    _require_staff(by_user, event)
    reason = eventlog.clean_reason(reason, kind=EventLogEntry.Kind.DROP_UNDONE)
    if registration.status not in (Registration.Status.DROPPED, Registration.Status.WITHDRAWN):
        raise DomainError(
            "not-dropped",
            _("%(player)s has not dropped.") % {"player": registration.player.name},
            status=409,
        )
    if event.status == Event.Status.FINISHED:
        raise DomainError(
            "event-finished", _("%(event)s is finished.") % {"event": event}, status=409
        )
    before = {
        "status": registration.status,
        "dropped_after_round": registration.dropped_after_round,
    }
    registration.status = (
        Registration.Status.CHECKED_IN
        if registration.checked_in_at
        else Registration.Status.REGISTERED
    )
    registration.dropped_after_round = None
    registration.dropped_by = None
    registration.save(update_fields=["status", "dropped_after_round", "dropped_by"])
    eventlog.record(
        event=event,
        kind=EventLogEntry.Kind.DROP_UNDONE,
        by_user=by_user,
        reason=reason,
        summary=say(
            gettext_noop("%(player)s's drop was undone: paired again from the next round."),
            player=registration.player.name,
        ),
        registrations=[registration],
        before=before,
        after={"status": registration.status},
    )
    return registration


@transaction.atomic
def undo_check_in(*, registration: Registration, by_user, reason: str) -> Registration:
    """Take back a check-in entered for the wrong player, before round 1 is paired (staff).
    Raises `not-allowed`, `reason-required`, `not-checked-in`, `event-started`."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("event__season__league", "player")
        .get(pk=registration.pk)
    )
    event = registration.event
    _require_staff(by_user, event)
    reason = eventlog.clean_reason(reason, kind=EventLogEntry.Kind.CHECK_IN_UNDONE)
    if registration.status != Registration.Status.CHECKED_IN:
        raise DomainError(
            "not-checked-in",
            _("%(player)s is not checked in.") % {"player": registration.player.name},
            status=409,
        )
    if rounds_started(event):
        raise DomainError(
            "event-started",
            _("Round 1 is paired: drop the player instead, or undo the round first."),
            status=409,
        )
    registration.status = Registration.Status.REGISTERED
    registration.checked_in_at = None
    registration.save(update_fields=["status", "checked_in_at"])
    eventlog.record(
        event=event,
        kind=EventLogEntry.Kind.CHECK_IN_UNDONE,
        by_user=by_user,
        reason=reason,
        summary=say(
            gettext_noop("%(player)s's check-in was undone."), player=registration.player.name
        ),
        registrations=[registration],
        before={"status": "checked_in"},
        after={"status": registration.status},
    )
    return registration


def _require_staff(by_user, event: Event) -> None:
    if not permissions.can(by_user, event, "pair-rounds"):
        raise DomainError(
            "not-allowed", _("Your staff role at this event does not allow this."), status=403
        )


def _promote_waitlist(event: Event) -> None:
    if event.capacity is None:
        return
    free = event.capacity - selectors.active_count(event)
    if free <= 0:
        return
    waiting = Registration.objects.filter(
        event=event, status=Registration.Status.WAITLISTED
    ).order_by("registered_at", "id")[:free]
    Registration.objects.filter(pk__in=[r.pk for r in waiting]).update(
        status=Registration.Status.REGISTERED
    )
