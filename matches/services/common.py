"""What the services of `matches` share: the players who count, locking the event, the
staff check."""

from __future__ import annotations

from league import permissions
from league import selectors as league_selectors
from league.models import Event
from rules.errors import DomainError

ACTIVE = league_selectors.ACTIVE


def _lock_event(event: Event) -> Event:
    return (
        Event.objects.select_for_update()
        .select_related("season__league", "format")
        .get(pk=event.pk)
    )


def _require_staff(user, event: Event) -> None:
    if not permissions.is_event_staff(user, event):
        raise DomainError("not-allowed", "Only the event's staff can do this.", status=403)


def _user(user):
    return user if user is not None and user.is_authenticated else None
