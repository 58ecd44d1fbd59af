"""Leagues, seasons, events, players and their registrations.

A `League` is a store or community with its organisers (staff). A `Season` carries the data
that changes from year to year: the age-division cut-off years, the table of Swiss rounds
and top cut by attendance, and the league-points table. An `Event` belongs to a season.
A `Player` may have a site account (`user`); organisers can also enter walk-ins without one.
A `Registration` is one player in one event; its deck submissions are kept, never replaced.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.models import Format
from rules.editions import Edition
from rules.scoring import table_to_rows

from .api_token import ApiToken  # noqa: F401 (a module of its own: this one is full)
from .bulk_writes import AnnouncedQuerySet
from .public_record import CalendarFeed, EventDetailsFields, LeagueRecordFields, PlayerRecordFields  # noqa: F401

#: Why an event is refused without a format: the check constraint and the service say it.
FORMAT_REQUIRED = _("Choose the deck format of the tournament (a board-game night has none).")


def default_structure_table() -> list[dict]:
    return table_to_rows()


def default_points_table() -> dict:
    # Placement → league points, plus points for taking part at all.
    return {"placements": {"1": 10, "2": 8, "3": 6, "4": 6, "5": 4, "6": 4, "7": 4, "8": 4},
            "attendance": 1}  # fmt: skip


class League(LeagueRecordFields):
    name = models.CharField(max_length=120)
    slug = models.SlugField(unique=True)
    description = models.TextField(blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="leagues"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    starts_on = models.DateField()
    ends_on = models.DateField()
    junior_from_year = models.PositiveIntegerField(
        default=2015, help_text="Players born in this year or later play in Juniors"
    )
    senior_from_year = models.PositiveIntegerField(
        default=2011,
        help_text="Players born in this year or later (and not Juniors) play in Seniors",
    )
    structure_table = models.JSONField(
        default=default_structure_table,
        help_text="Swiss rounds and top cut by attendance: [{min_players, max_players, rounds, top_cut}]",
    )
    points_table = models.JSONField(default=default_points_table)
    best_finishes = models.PositiveIntegerField(
        null=True, blank=True, help_text="Count only a player's best N events (empty: all)"
    )

    class Meta:
        ordering = ["-starts_on"]

    def __str__(self) -> str:
        return f"{self.league} – {self.name}"


class RuleEdition(models.Model):
    """A named, dated set of tournament rules (`rules.editions.Edition`): the end of a
    round, two-day events, small divisions, tardiness, penalties, age cut-off years, each
    with its source. An event takes the edition in force on its date unless its organiser
    picks one (`Event.rule_edition`); `league.editions` answers which and why."""

    key = models.SlugField(unique=True)
    name = models.CharField(max_length=160)
    in_force_from = models.DateField(help_text="The first day events run by this edition")
    rules = models.JSONField(
        help_text="The parts of rules.editions.Edition, each with its source "
        "(end_of_round, two_day, small_divisions, tardiness, penalties, age_divisions)"
    )

    class Meta:
        ordering = ["-in_force_from"]

    def __str__(self) -> str:
        return self.name

    def to_edition(self) -> Edition:
        return Edition.from_dict(
            key=self.key, name=self.name, in_force_from=self.in_force_from, rules=self.rules
        )


class Division(models.TextChoices):
    JUNIOR = "junior", _("Junior")
    SENIOR = "senior", _("Senior")
    MASTERS = "masters", _("Masters")


class Event(EventDetailsFields):
    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("event status", "Draft")
        REGISTRATION = "registration", pgettext_lazy("event status", "Registration open")
        RUNNING = "running", pgettext_lazy("event status", "Running")
        TOP_CUT = "top_cut", pgettext_lazy("event status", "Top cut")
        FINISHED = "finished", pgettext_lazy("event status", "Finished")

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament")
        BOARD_GAME = "board_game", _("Board-game night")

    class DivisionMode(models.TextChoices):
        COMBINED = "combined", _("All divisions together (age-modified Swiss)")
        SEPARATE = "separate", _("Each division separately (age-separated Swiss)")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=160)
    slug = models.SlugField()
    # A board-game night has no deck format (the `gamenights` app runs it): the format is
    # empty exactly for that kind (a check constraint), never a placeholder format.
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.TOURNAMENT)
    format = models.ForeignKey(
        Format, on_delete=models.PROTECT, related_name="events", null=True, blank=True
    )
    starts_at = models.DateTimeField(default=timezone.now)
    best_of = models.PositiveSmallIntegerField(
        choices=[(1, _("Best of 1")), (3, _("Best of 3"))], default=3
    )
    round_minutes = models.PositiveSmallIntegerField(default=50)
    deck_deadline = models.DateTimeField(null=True, blank=True)
    capacity = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    division_mode = models.CharField(
        max_length=20, choices=DivisionMode.choices, default=DivisionMode.COMBINED
    )
    sudden_death_prizes = models.PositiveSmallIntegerField(
        # Translators: "Prize card" is the TCG term (fr "carte Récompense", de "Preiskarte").
        choices=[(1, _("1 Prize card (rulebook)")), (6, _("6 Prize cards (tournament handbook)"))],
        default=1,
    )

    class SuddenDeath(models.TextChoices):
        NEW_GAME = "new_game", _("A new game (1999, 2011, handbook)")
        CONTINUE = "continue", _("The game goes on, may draw (1996)")

    sudden_death_style = models.CharField(
        "sudden death",
        max_length=10,
        choices=SuddenDeath.choices,
        default=SuddenDeath.NEW_GAME,
        help_text="When both players win at once (see rules.results)",
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Override the season's table"
    )
    top_cut = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Override the season's table (0: no cut)"
    )
    require_check_in = models.BooleanField(
        default=False, help_text="Pair only players who checked in"
    )
    rule_edition = models.ForeignKey(
        RuleEdition,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name="rules edition",
        help_text="Empty: the edition in force on the event's date",
    )
    days = models.PositiveSmallIntegerField(
        choices=[(1, _("One day")), (2, _("Two days (day 2 by match points)"))], default=1
    )
    day1_rounds = models.PositiveSmallIntegerField(
        "Swiss rounds on day 1",
        null=True,
        blank=True,
        help_text="Two-day events (empty: two thirds of the Swiss rounds, rounded up)",
    )

    class DecklistsOpen(models.TextChoices):
        NEVER = "never", _("Never (private)")
        TOP_CUT = "top_cut", _("The top cut's lists")
        AFTER_EVENT = "after_event", _("Every list, after the event")
        NOW = "now", _("Every list, now")

    decklists_open = models.CharField(
        "Decklists open",
        max_length=20,
        choices=DecklistsOpen.choices,
        default=DecklistsOpen.NEVER,
        help_text="When players' lists become public: never, the top cut's lists once the cut "
        "is paired, every list once the event is finished, or now",
    )
    full_finishing_order = models.BooleanField(
        default=False,
        help_text="Board-game nights: tables report every player's place, not only the "
        "winner (a house rule: the rulebook names a winner only).",
    )
    # Written by `matches.services` as it pairs each Swiss round, so that the league app
    # (drops, late entry) knows how far the event is without reading `matches`' tables.
    swiss_rounds_paired = models.PositiveSmallIntegerField(default=0, editable=False)
    seed = models.CharField(max_length=40, blank=True, help_text="Seed for pairings (reproducible)")
    feature_tables = models.JSONField(default=list, blank=True, help_text="Kept for the stream")
    created_at = models.DateTimeField(auto_now_add=True)

    #: The event whose public pages show this row (`league.bulk_writes`).
    PAGE_EVENT_PATH = "pk"
    objects = AnnouncedQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["season", "slug"], name="event_slug_per_season"),
            models.CheckConstraint(
                condition=models.Q(kind="tournament", format__isnull=False)
                | models.Q(kind="board_game", format__isnull=True),
                name="event_format_iff_tournament",
                violation_error_message=FORMAT_REQUIRED,
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def league(self) -> League:
        return self.season.league

    @property
    def is_board_game(self) -> bool:
        return self.kind == self.Kind.BOARD_GAME


class Player(PlayerRecordFields):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    name = models.CharField(max_length=120)
    player_id = models.CharField("Play! Pokémon ID", max_length=20, unique=True)
    birth_date = models.DateField()
    email = models.EmailField(blank=True)

    #: The event whose public pages show this row (`league.bulk_writes`).
    PAGE_EVENT_PATH = "registrations__event_id"
    objects = AnnouncedQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.player_id})"


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", pgettext_lazy("registration status", "Registered")
        WAITLISTED = "waitlisted", pgettext_lazy("registration status", "Waiting list")
        CHECKED_IN = "checked_in", pgettext_lazy("registration status", "Checked in")
        DROPPED = "dropped", pgettext_lazy("registration status", "Dropped")
        WITHDRAWN = "withdrawn", pgettext_lazy("registration status", "Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    division = models.CharField(max_length=10, choices=Division.choices)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    late_entry_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="First round played, for a late entrant"
    )
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    dropped_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    has_earned_bye = models.BooleanField(default=False)
    archetype = models.CharField(
        max_length=60,
        blank=True,
        help_text="Set by the player or staff; blank: suggested from the list",
    )
    # Written by `matches.services` as it pairs the top cut's first round (as
    # `Event.swiss_rounds_paired`): whose list a "top cut" decklist phase opens.
    in_top_cut = models.BooleanField(default=False, editable=False)
    fixed_table = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Every round")
    # Written by `matches.services` at a two-day event's cut to day 2: the player stayed
    # below the edition's match points and finishes with their day-1 standing.
    finished_on_day_one = models.BooleanField(default=False, editable=False)

    #: The event whose public pages show this row (`league.bulk_writes`).
    PAGE_EVENT_PATH = "event_id"
    objects = AnnouncedQuerySet.as_manager()

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_registration_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player.name} @ {self.event}"

    @property
    def is_active(self) -> bool:
        return self.status in {self.Status.REGISTERED, self.Status.CHECKED_IN}

    @property
    def current_deck(self):
        return self.deck_submissions.order_by("-version").first()


class StaffRole(models.Model):
    """A user's staff role in a league as a whole (`event` empty) or at one event. The
    league's organisers are `League.organisers` (plus superusers); what each role may do is
    `permissions.ROLE_ACTIONS`."""

    class Role(models.TextChoices):
        JUDGE = "judge", _("Judge")
        SCOREKEEPER = "scorekeeper", _("Scorekeeper")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="staff_roles")
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="staff_roles"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league_id", "event_id", "role", "user_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user", "role"],
                condition=models.Q(event__isnull=True),
                name="one_league_role_per_user",
            ),
            models.UniqueConstraint(
                fields=["event", "user", "role"],
                condition=models.Q(event__isnull=False),
                name="one_event_role_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} ({self.event or self.league})"


class DeckSubmission(models.Model):
    """One version of a registration's decklist. New versions never replace old ones."""

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="deck_submissions"
    )
    version = models.PositiveIntegerField()
    text = models.TextField()
    legal = models.BooleanField()
    verdict = models.JSONField(help_text="rules.legality.Verdict.to_dict()")
    card_count = models.PositiveSmallIntegerField(default=0)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    after_deadline = models.BooleanField(default=False, help_text="A staff change after the lock")

    class Meta:
        ordering = ["registration_id", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "version"], name="one_deck_version")
        ]

    def __str__(self) -> str:
        return f"{self.registration} v{self.version}"


class EventPlacement(models.Model):
    """A player's final place in a finished event, and the league points it earned."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="placements")
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="placement"
    )
    division = models.CharField(max_length=10, choices=Division.choices)
    place = models.PositiveIntegerField()
    points = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["event_id", "division", "place"]

    def __str__(self) -> str:
        return f"{self.event} #{self.place} ({self.division})"


class SeasonStanding(models.Model):
    """The league leaderboard: a player's points over a season's finished events."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="leaderboard")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_standings")
    rank = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    events_played = models.PositiveIntegerField()
    events_counted = models.PositiveIntegerField()

    class Meta:
        ordering = ["season_id", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_season_row_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.season} #{self.rank}: {self.player_id}"
