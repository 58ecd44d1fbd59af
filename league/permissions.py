"""Who may do what: one set of functions used by the pages, the API and the services.

Staff of an event are the organisers of its league (and Django superusers), who do
everything, and the judges and scorekeepers of the league or of that event (`StaffRole`),
who do what `ROLE_ACTIONS` gives their role. Every check asks `can(user, event, action)`.
Players act on their own registration and matches only. Decklists stay private to their
player and the staff who check decks until the event's phase opens them
(`Event.decklists_open`: never, the top cut's lists, after the event, or now by hand).

The one visibility rule (`can_view_event`, `visible_events`): a draft event, and with it
its registrations, rounds, matches, standings and decklists, is seen by its staff only;
everyone else (anonymous, players, other leagues' organisers) gets "not found", on the
pages and in the API alike. Once a list is public, anyone but the player and staff
sees only the list that counts (`selectors.public_decklist`), never its history or who typed it.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.db.models import CharField, Q, QuerySet, Value
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils.translation import gettext_lazy as _

from notifications import versions

from .models import Event, League, Registration, StaffRole


def is_league_organiser(user, league: League) -> bool:
    """An organiser of the league (or a superuser): everything at every event of the
    league, and the league-level things no event carries (new events, the staff list)."""
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return league.organisers.filter(pk=user.pk).exists()


# What staff do, one name each. `can` is the one question every page, API view and service
# asks; each role (`StaffRole.Role`, plus the league's organisers) holds a set of them.
ACTIONS = frozenset(
    {
        "view-private",  # what only staff see: a draft event, unpublished rounds, live
        # standings, the dashboard, a match's result history, the event export
        "manage-event",  # settings, publishing lists, the TOM file, the staff of the event
        "pair-rounds",  # pair, publish, start the clock, close, top cut; check-in and drops
        "enter-results",  # results grid, corrections
        "time-extensions",
        "judge-calls",
        "penalties",
        "deck-checks",  # private lists, printing them, storing a version after the lock
    }
)

#: Each action in words, in the order the staff page lists them.
ACTION_NAMES = {
    # Translators: TOM is the Tournament Operations Manager program (a name, not translated).
    "manage-event": _("event settings, publishing lists, TOM, staff"),
    # Translators: "drops" are players leaving the event (the TCG term "drop").
    "pair-rounds": _("pairing, the clock, check-in and drops"),
    "enter-results": _("results"),
    "penalties": _("penalties"),
    "deck-checks": _("deck checks and private lists"),
    "time-extensions": _("time extensions"),
    "judge-calls": _("judge calls"),
    "view-private": _("the dashboard and unpublished rounds"),
}

ORGANISER = "organiser"

#: Each role's actions. Organisers (the league's `organisers` and superusers) do
#: everything; judges rule on the floor but neither change the event nor publish lists;
#: scorekeepers pair and enter results.
ROLE_ACTIONS: dict[str, frozenset[str]] = {
    ORGANISER: ACTIONS,
    StaffRole.Role.JUDGE: frozenset(
        {
            "view-private",
            "enter-results",
            "time-extensions",
            "judge-calls",
            "penalties",
            "deck-checks",
        }
    ),
    StaffRole.Role.SCOREKEEPER: frozenset({"view-private", "pair-rounds", "enter-results"}),
}


def roles_of(user, event: Event) -> frozenset[str]:
    """The roles `user` holds at `event`: "organiser" (league organiser or superuser) and
    any `StaffRole` of the league as a whole or of this event. One query, kept in the
    shared cache under the league's staff version (`staff_version`)."""
    if not user or not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return frozenset({ORGANISER})
    league_id = event.season.league_id
    key = f"league:roles:{league_id}:{staff_version(league_id)}:{user.pk}:{event.pk}"
    roles = cache.get(key)
    if roles is None:
        roles = _roles_query(user, event, league_id)
        cache.set(key, roles, timeout=STAFF_TIMEOUT)
    return roles


def _roles_query(user, event: Event, league_id: int) -> frozenset[str]:
    organiser = (
        League.organisers.through.objects.filter(league_id=league_id, user_id=user.pk)
        .annotate(role=Value(ORGANISER, output_field=CharField()))
        .values_list("role")
    )
    roles = StaffRole.objects.filter(
        Q(event__isnull=True) | Q(event_id=event.pk), league_id=league_id, user_id=user.pk
    ).values_list("role")
    # No ORDER BY in a compound statement (StaffRole's Meta orders; SQLite refuses it).
    return frozenset(role for (role,) in organiser.order_by().union(roles.order_by()))


# --- The league's staff version: cached roles (and `me.json`) follow every change -----

STAFF_TIMEOUT = 3600


def staff_key(league_id: int) -> str:
    return f"league:staff:{league_id}:v"


def staff_version(league_id: int) -> int:
    """A number that changes whenever the league's organisers or staff roles change."""
    return versions.current(staff_key(league_id))


def _bump_staff(league_id: int) -> None:
    versions.bump(staff_key(league_id))


def bump_staff_on_commit(league_id: int) -> None:
    """A new staff version now and once the current transaction commits."""
    _bump_staff(league_id)
    transaction.on_commit(lambda: _bump_staff(league_id))


def _role_changed(sender, instance, **kwargs) -> None:
    bump_staff_on_commit(instance.league_id)


def _organisers_changed(sender, instance, action, reverse, pk_set, **kwargs) -> None:
    if not action.startswith("post_"):
        return
    if not reverse:
        bump_staff_on_commit(instance.pk)
        return
    leagues = pk_set if pk_set is not None else League.objects.values_list("pk", flat=True)
    for league_id in leagues:  # user.organised_leagues.add(...): the leagues are the pks
        bump_staff_on_commit(league_id)


def connect() -> None:
    post_save.connect(_role_changed, sender=StaffRole, dispatch_uid="staff-version-save")
    post_delete.connect(_role_changed, sender=StaffRole, dispatch_uid="staff-version-delete")
    m2m_changed.connect(
        _organisers_changed, sender=League.organisers.through, dispatch_uid="staff-version-m2m"
    )


def actions_for(roles: frozenset[str]) -> frozenset[str]:
    """Everything the given roles allow together."""
    return frozenset().union(*(ROLE_ACTIONS.get(role, ()) for role in roles))


def staff_user_ids(event: Event, action: str) -> list[int]:
    """The accounts whose role at `event` allows `action` (organisers and the roles of the
    league or of the event), e.g. who is told of a disputed result. Superusers who are not
    organisers are left out: they are not the event's staff. Two queries."""
    if action not in ACTIONS:
        raise ValueError(f"unknown staff action {action!r}")
    league = event.season.league
    ids = set(league.organisers.values_list("pk", flat=True))
    roles = [role for role, actions in ROLE_ACTIONS.items() if action in actions]
    ids |= set(
        StaffRole.objects.filter(
            Q(event__isnull=True) | Q(event_id=event.pk), league=league, role__in=roles
        ).values_list("user_id", flat=True)
    )
    return sorted(ids)


def can(user, event: Event, action: str) -> bool:
    """May `user` do `action` (one of `ACTIONS`) at `event`? The one permission question
    (pages ask it through `view_helpers.can`, which remembers the answer per request)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown staff action {action!r}")
    return action in actions_for(roles_of(user, event))


def decklists_are_public(event: Event) -> bool:
    """Whether every list of the event is public (not only to its player and the staff):
    published by hand, or the event is finished and its lists open after the event. With
    the "top cut" phase only some lists open: ask `decklist_is_public` per registration."""
    phase = event.decklists_open
    return phase == Event.DecklistsOpen.NOW or (
        phase == Event.DecklistsOpen.AFTER_EVENT and event.status == Event.Status.FINISHED
    )


def _top_cut_open(event: Event) -> bool:
    return event.decklists_open == Event.DecklistsOpen.TOP_CUT and event.status in (
        Event.Status.TOP_CUT,
        Event.Status.FINISHED,
    )


def decklist_is_public(registration: Registration) -> bool:
    """Whether anyone may read this registration's list: all lists are public, or the
    event opens its top cut's lists and this player made the cut (once it is paired)."""
    event = registration.event
    return decklists_are_public(event) or (_top_cut_open(event) and registration.in_top_cut)


def can_view_all_decklists(user, event: Event) -> bool:
    """Every list of the event, and what is read from them all (archetypes, the metagame):
    once all are public (`decklists_are_public`), or for the staff who check decks. A
    scorekeeper (`view-private` without `deck-checks`) reads no private list, nor its
    archetype."""
    return decklists_are_public(event) or can(user, event, "deck-checks")


def public_decklists(event: Event) -> QuerySet[Registration]:
    """The registrations whose lists anyone may read (`decklist_is_public` as a query)."""
    played = Registration.objects.filter(event=event).exclude(
        status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED)
    )
    if decklists_are_public(event):
        return played
    if _top_cut_open(event):
        return played.filter(in_top_cut=True)
    return played.none()


def can_view_event(user, event: Event) -> bool:
    """The one visibility rule: a draft event exists for its staff only."""
    return event.status != Event.Status.DRAFT or can(user, event, "view-private")


def visible_events(user, events: QuerySet[Event] | None = None) -> QuerySet[Event]:
    """`events` (default: all) narrowed to those `can_view_event` lets `user` see: drafts
    for the league's organisers and for staff of the league or of that event."""
    events = Event.objects.all() if events is None else events
    if user and user.is_authenticated and user.is_superuser:
        return events
    shown = ~Q(status=Event.Status.DRAFT)
    if user and user.is_authenticated:
        roles = StaffRole.objects.filter(user=user)
        shown |= Q(season__league__in=League.objects.filter(organisers=user))
        shown |= Q(season__league__in=roles.filter(event__isnull=True).values("league_id"))
        shown |= Q(pk__in=roles.filter(event__isnull=False).values("event_id"))
    return events.filter(shown)


def owns_registration(user, registration: Registration) -> bool:
    return bool(
        user
        and user.is_authenticated
        and registration.player.user_id is not None
        and registration.player.user_id == user.pk
    )


def can_view_decklist(user, registration: Registration) -> bool:
    """The player, the staff who check decks (judges, organisers), and anyone once the
    list is public (`decklist_is_public`). The one decklist rule: what is read from a list
    (its cards, legality, archetype) is shown under it too."""
    event = registration.event
    if not can_view_event(user, event):
        return False
    return (
        decklist_is_public(registration)
        or owns_registration(user, registration)
        or can(user, event, "deck-checks")
    )


def sees_deck_history(user, registration: Registration) -> bool:
    """The player and the staff who check decks see every version and who stored it;
    everyone else, once the list is public, sees only `selectors.public_decklist`."""
    return owns_registration(user, registration) or can(user, registration.event, "deck-checks")


def can_view_roster(user, event: Event) -> bool:
    """Who is registered (public names, divisions): anyone who may see the event when its
    league's rosters are public (`League.roster_public`), else the event's staff only."""
    staff = can(user, event, "view-private")
    return staff or (event.season.league.roster_public and can_view_event(user, event))
