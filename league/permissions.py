"""Who may do what: one set of functions used by the pages, the API and the services.

Staff of an event are the organisers of its league (and Django superusers). Players act on
their own registration and matches only. Decklists stay private to their player and the
event's staff until the organiser publishes them.

The one visibility rule (`can_view_event`, `visible_events`): a draft event, and with it
its registrations, rounds, matches, standings and decklists, is seen by its staff only;
everyone else (anonymous, players, other leagues' organisers) gets "not found", on the
pages and in the API alike. Once decklists are published, anyone but the player and staff
sees only the list that counts (`selectors.public_decklist`), never its history or who typed it.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from .models import Event, League, Registration


def is_league_staff(user, league: League) -> bool:
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return league.organisers.filter(pk=user.pk).exists()


def is_event_staff(user, event: Event) -> bool:
    return is_league_staff(user, event.season.league)


# What staff do, one name each. `can` is the one question every page, API view and service
# asks; today every action belongs to the league's organisers (staff roles refine it).
ACTIONS = frozenset(
    {
        "manage-event",  # settings, registrations, publishing lists, the TOM file
        "pair-rounds",  # pair, publish, start the clock, top cut
        "enter-results",  # results grid, corrections
        "time-extensions",
        "judge-calls",
        "penalties",
        "deck-checks",
    }
)


def can(user, event: Event, action: str) -> bool:
    """May `user` do `action` (one of `ACTIONS`) at `event`?"""
    if action not in ACTIONS:
        raise ValueError(f"unknown staff action {action!r}")
    return is_event_staff(user, event)


def decklists_are_public(event: Event) -> bool:
    """Whether anyone (not only the player and staff) may read the event's lists."""
    return event.decklists_published


def can_view_event(user, event: Event) -> bool:
    """The one visibility rule: a draft event exists for its staff only."""
    return event.status != Event.Status.DRAFT or is_event_staff(user, event)


def visible_events(user, events: QuerySet[Event] | None = None) -> QuerySet[Event]:
    """`events` (default: all) narrowed to those `can_view_event` lets `user` see."""
    events = Event.objects.all() if events is None else events
    if user and user.is_authenticated and user.is_superuser:
        return events
    shown = ~Q(status=Event.Status.DRAFT)
    if user and user.is_authenticated:
        shown |= Q(season__league__in=League.objects.filter(organisers=user))
    return events.filter(shown)


def owns_registration(user, registration: Registration) -> bool:
    return bool(
        user
        and user.is_authenticated
        and registration.player.user_id is not None
        and registration.player.user_id == user.pk
    )


def can_view_decklist(user, registration: Registration) -> bool:
    event = registration.event
    if not can_view_event(user, event):
        return False
    return (
        decklists_are_public(event)
        or owns_registration(user, registration)
        or is_event_staff(user, event)
    )


def sees_deck_history(user, registration: Registration) -> bool:
    """The player and the event's staff see every version and who stored it; everyone
    else, once the lists are published, sees only `selectors.public_decklist`."""
    return owns_registration(user, registration) or is_event_staff(user, registration.event)
