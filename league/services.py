"""Registration, check-in, late entry, drops and deck submissions.

Every function here owns its transaction, raises `DomainError` with a stable code for a
mistake the user can fix, and says what it writes and what it queues. Pages, the API and
the management commands all call these; none of them writes league rows by itself.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.text import slugify

from decks.services import check_decklist
from notifications import outbox
from rules.divisions import division_for
from rules.errors import DomainError
from rules.league_points import PointsTable, leaderboard

from . import permissions, selectors, signals
from .models import (
    FORMAT_REQUIRED,
    DeckSubmission,
    Event,
    EventPlacement,
    Player,
    Registration,
    Season,
    SeasonStanding,
)

ACTIVE = selectors.ACTIVE


def division_of(player: Player, event: Event) -> str:
    season = event.season
    return division_for(
        player.birth_date.year,
        junior_from=season.junior_from_year,
        senior_from=season.senior_from_year,
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
        raise DomainError("registration-closed", f"Registration for {event} is closed.")
    existing = Registration.objects.filter(event=event, player=player).first()
    if existing and existing.status != Registration.Status.WITHDRAWN:
        raise DomainError("already-registered", f"{player.name} is already registered for {event}.")
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
            "not-registered", f"{registration.player.name} is {registration.get_status_display()}."
        )
    registration.status = Registration.Status.CHECKED_IN
    registration.checked_in_at = timezone.now()
    registration.save(update_fields=["status", "checked_in_at"])
    return registration


@transaction.atomic
def drop(*, registration: Registration, by_user, after_round: int | None = None) -> Registration:
    """Drop a player from the event (by the player or staff).

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
        or permissions.can(by_user, event, "pair-rounds")
    ):
        raise DomainError(
            "not-allowed", "Only the player or the event staff can drop a player.", status=403
        )
    if not registration.is_active and registration.status != Registration.Status.WAITLISTED:
        raise DomainError("not-active", f"{registration.player.name} is not in the event.")
    played = rounds_started(event)
    if played == 0 or registration.status == Registration.Status.WAITLISTED:
        was_active = registration.is_active
        registration.status = Registration.Status.WITHDRAWN
        registration.save(update_fields=["status"])
        if was_active:
            _promote_waitlist(event)
        return registration
    registration.status = Registration.Status.DROPPED
    registration.dropped_after_round = min(after_round, played) if after_round else played
    registration.dropped_by = by_user if by_user and by_user.is_authenticated else None
    registration.save(update_fields=["status", "dropped_after_round", "dropped_by"])
    return registration


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
        why = "The event has started (lists lock when round 1 is paired)"
    else:
        why = f"The deck deadline ({event.deck_deadline:%Y-%m-%d %H:%M}) has passed"
    return f"{why}; ask the event staff to change your list."


def _share_lock_event(event_id: int) -> None:
    """Hold the event row in share mode until the transaction ends: pairing a round (which
    takes it FOR UPDATE) waits for submissions in flight, while submissions from several
    players do not wait for one another. A no-op on SQLite (the quick start)."""
    from django.db import connection

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
        raise DomainError("not-found", "No such registration.", status=404)
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
        raise DomainError("not-found", "No such registration.", status=404)
    event = registration.event
    owner = permissions.owns_registration(by_user, registration)
    lock = deck_lock(event, registration)
    # Staff rights cost a query: ask only when they matter.
    is_staff = (bool(lock) or not owner) and permissions.can(by_user, event, "deck-checks")
    if not (owner or is_staff):
        raise DomainError("not-allowed", "You can only submit your own decklist.", status=403)
    if event.is_board_game:
        raise DomainError(
            "no-decklists", f"{event} is a board-game night: there are no decklists.", status=409
        )
    if lock and not is_staff:
        raise DomainError(
            "deck-locked",
            deck_lock_message(event, lock),
            status=409,
        )
    if not text.strip():
        raise DomainError("empty-decklist", "Paste your decklist: the text is empty.")
    verdict = check_decklist(text=text, fmt=event.format)
    submission = DeckSubmission.objects.create(
        registration=registration,
        version=(registration.last_version or 0) + 1,
        text=text,
        legal=verdict.legal,
        verdict=verdict.to_dict(),
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
            "not-allowed", "Only the event's organisers can publish decklists.", status=403
        )
    phase = Event.DecklistsOpen.NOW if published else Event.DecklistsOpen.NEVER
    Event.objects.filter(pk=event.pk).update(decklists_open=phase)
    event.decklists_open = phase
    return event


# --- league points --------------------------------------------------------------------


@transaction.atomic
def record_placements(*, event: Event, placements: list[tuple[int, str, int]]) -> None:
    """Store an event's final places `(registration id, division, place)` with the league
    points the season's table gives them, and queue the season leaderboard's recompute.
    Running it again overwrites the same rows."""
    table = PointsTable.from_json(event.season.points_table)
    EventPlacement.objects.filter(event=event).delete()
    EventPlacement.objects.bulk_create(
        EventPlacement(event=event, registration_id=reg, division=division, place=place,
                       points=table.points_for(place))
        for reg, division, place in placements
    )  # fmt: skip
    outbox.record_task("league.recompute_season_points", args=[event.season_id])


@transaction.atomic
def recompute_season_points(*, season: Season) -> list[SeasonStanding]:
    """Rebuild the season's leaderboard from the placements of its finished events,
    counting only each player's best finishes when the season sets a limit."""
    finishes = EventPlacement.objects.filter(
        event__season=season, event__status=Event.Status.FINISHED
    ).values_list("registration__player_id", "points")
    rows = leaderboard(((str(p), pts) for p, pts in finishes), best=season.best_finishes)
    SeasonStanding.objects.filter(season=season).delete()
    return SeasonStanding.objects.bulk_create(
        SeasonStanding(season=season, player_id=int(r.player), rank=r.rank, points=r.points,
                       events_played=r.events_played, events_counted=r.events_counted)
        for r in rows
    )  # fmt: skip


# --- scheduled reminders --------------------------------------------------------------


def send_deck_deadline_reminders(*, now=None) -> int:
    """Remind registered players of the deck deadline 24 hours and 1 hour before it (run by
    celery beat every few minutes; the notification keys make repeats harmless). Returns
    the number of notifications written."""
    from .notify import deck_deadline_reminders

    now = now or timezone.now()
    written = 0
    for hours in (24, 1):
        events = Event.objects.filter(
            status__in=(Event.Status.REGISTRATION, Event.Status.RUNNING),
            swiss_rounds_paired=0,  # lists lock when round 1 is paired: nothing to remind
            deck_deadline__gt=now,
            deck_deadline__lte=now + timedelta(hours=hours),
        )
        for event in events:
            if hours == 24 and event.deck_deadline <= now + timedelta(hours=1):
                continue  # inside the last hour only the 1-hour reminder goes out
            written += deck_deadline_reminders(event, hours=hours)
    return written


def send_event_starting_notices(*, now=None, within=timedelta(hours=1)) -> int:
    """Tell registered players an event starts within the hour (celery beat)."""
    from .notify import event_starting

    now = now or timezone.now()
    events = Event.objects.filter(
        status=Event.Status.REGISTRATION, starts_at__gt=now, starts_at__lte=now + within
    )
    return sum(event_starting(event) for event in events)


# --- player profiles ------------------------------------------------------------------


@transaction.atomic
def save_profile(*, user, name: str, player_id: str, birth_date: date, email: str = "") -> Player:
    """Create or update the player profile of `user`, a signed-in account.

    Writes the `Player` linked to `user`, and copies `email` to the account too, since
    notifications are sent to the account's address. When the birth year changes, the
    player's registrations for events that have not started move to the new division
    (running and finished events keep the division they were played in). Raises
    `not-allowed` for an anonymous user and `duplicate-player-id` when another player holds
    the ID: a walk-in an organiser entered is linked to an account by the organiser, never
    claimed by typing its ID here.
    """
    if not user or not user.is_authenticated:
        raise DomainError("not-allowed", "Sign in to edit your player profile.", status=403)
    name, player_id, email = name.strip(), player_id.strip(), email.strip()
    # One profile save per account at a time: the user row is the lock.
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    player = Player.objects.filter(user=user).first()
    taken = Player.objects.filter(player_id=player_id)
    if player is not None:
        taken = taken.exclude(pk=player.pk)
    if taken.exists():
        raise _player_id_taken(player_id)
    old_year = player.birth_date.year if player is not None else None
    player = player or Player(user=user)
    player.name, player.player_id = name, player_id
    player.birth_date, player.email = birth_date, email
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as exc:  # another account took the ID a moment ago
        raise _player_id_taken(player_id) from exc
    email_field = user.get_email_field_name()
    if getattr(user, email_field) != email:
        setattr(user, email_field, email)
        user.save(update_fields=[email_field])
    if old_year is not None and old_year != birth_date.year:
        upcoming = Registration.objects.filter(
            player=player, event__status__in=(Event.Status.DRAFT, Event.Status.REGISTRATION)
        ).select_related("event__season")
        for registration in upcoming:
            division = division_of(player, registration.event)
            if registration.division != division:
                registration.division = division
                registration.save(update_fields=["division"])
    return player


def _player_id_taken(player_id: str) -> DomainError:
    return DomainError(
        "duplicate-player-id",
        f"Player ID {player_id} is already taken by another player. Check the number; if it "
        f"is yours, ask an organiser to link that player to your account.",
        status=409,
    )


# --- event management -----------------------------------------------------------------

EVENT_FIELDS = (
    "name", "kind", "full_finishing_order", "format", "starts_at", "best_of", "round_minutes", "deck_deadline", "capacity",
    "division_mode", "sudden_death_prizes", "swiss_rounds", "top_cut", "require_check_in", "status",
    "sudden_death_style",
    "decklists_open",
)  # fmt: skip


def _check_event_fields(fields: dict, event: Event | None = None) -> None:
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise DomainError("invalid-event", f"Unknown event fields: {', '.join(sorted(unknown))}.")
    kind = fields.get("kind") or (event.kind if event else Event.Kind.TOURNAMENT)
    if kind == Event.Kind.BOARD_GAME:
        fields["format"] = None  # a board-game night has no deck format
    elif not fields.get("format", event.format if event else None):
        raise DomainError("invalid-event", FORMAT_REQUIRED)
    deadline, starts = (
        fields.get("deck_deadline"),
        fields.get("starts_at") or (event and event.starts_at),
    )
    if deadline and starts and deadline > starts:
        raise DomainError("invalid-event", "The deck deadline must be before the event starts.")
    fmt = fields.get("format") or (event.format if event is not None else None)
    sudden = fields.get("sudden_death_prizes") or (event and event.sudden_death_prizes) or 1
    if fmt is not None and sudden > fmt.prizes:
        raise DomainError(
            "invalid-event",
            f"{fmt.name} is played with {fmt.prizes} Prize cards: sudden death cannot have "
            f"{sudden}. Choose 1 Prize card.",
        )
    started = (Event.Status.RUNNING, Event.Status.TOP_CUT, Event.Status.FINISHED)
    if event is not None and event.status in started:
        fixed = [
            k
            for k in ("kind", "best_of", "format", "division_mode")
            if k in fields and fields[k] != getattr(event, k)
        ]
        if fixed:
            raise DomainError(
                "event-started",
                f"{', '.join(fixed)} cannot change once the event has started.",
                status=409,
            )


@transaction.atomic
def create_event(*, season: Season, by_user, **fields) -> Event:
    """A new event in `season`, by the league's staff. Writes one `Event` with a slug made
    unique in the season. Raises `not-allowed`, `invalid-event`."""
    if not permissions.is_league_organiser(by_user, season.league):
        raise DomainError(
            "not-allowed", "Only the league's organisers can create events.", status=403
        )
    _check_event_fields(fields)
    base = slugify(fields.get("name", "")) or "event"
    slug, n = base, 2
    while Event.objects.filter(season=season, slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    event = Event.objects.create(season=season, slug=slug, **fields)
    signals.event_saved.send(sender=Event, event=event, previous_status=None)
    return event


@transaction.atomic
def update_event(*, event: Event, by_user, **fields) -> Event:
    """Change an event's settings (staff). Best-of, format and divisions are fixed once the
    event has started. Raises `not-allowed`, `invalid-event`, `event-started`."""
    event = Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
    if not permissions.can(by_user, event, "manage-event"):
        raise DomainError(
            "not-allowed", "Only the event's organisers can change its settings.", status=403
        )
    _check_event_fields(fields, event)
    previous_status = event.status
    for name, value in fields.items():
        setattr(event, name, value)
    event.save()
    signals.event_saved.send(sender=Event, event=event, previous_status=previous_status)
    return event
