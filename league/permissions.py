"""Who may do what: one set of functions used by the pages, the API and the services.

Staff of an event are the organisers of its league (and Django superusers). Players act on
their own registration and matches only. Decklists stay private to their player and the
event's staff until the organiser publishes them.
"""

from __future__ import annotations

from .models import Event, League, Registration


def is_league_staff(user, league: League) -> bool:
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return league.organisers.filter(pk=user.pk).exists()


def is_event_staff(user, event: Event) -> bool:
    return is_league_staff(user, event.season.league)


def owns_registration(user, registration: Registration) -> bool:
    return bool(
        user
        and user.is_authenticated
        and registration.player.user_id is not None
        and registration.player.user_id == user.pk
    )


def can_view_decklist(user, registration: Registration) -> bool:
    event = registration.event
    return (
        event.decklists_published
        or owns_registration(user, registration)
        or is_event_staff(user, event)
    )
