"""Rounds, matches, games with their sudden-death chains, reports, and standings snapshots.

Terms:
- A `Round` of an event is Swiss or top cut; its number runs on across both stages.
- A `Match` is two registrations at a table (or one with a bye). Its `result` is set once
  the result stands: from two agreeing player reports, or from staff.
- A `Game` is one game of a match. Games are numbered 1, 2, 3; a game that ended with both
  players winning at once is followed by a sudden-death replay with the same `number`, the
  next `sequence`, `replay_of` pointing at it and the Prize count the event chose. The chain
  ends with the replay that has a winner.
- `ResultChange` keeps every change of a match's result: who, when, before and after.
- `StandingsSnapshot` is the standings after a round, written by a Celery task; a revision
  after a correction adds a new version instead of overwriting a published one.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.findings_text import word_stored
from league.bulk_writes import AnnouncedQuerySet
from league.models import Event, Registration


class RoundQuerySet(AnnouncedQuerySet):
    def public(self) -> RoundQuerySet:
        """The rounds anyone who sees the event may see: their pairings are published (the
        one publication rule; `Round.is_public` is the same rule for one round)."""
        return self.exclude(status=Round.Status.PAIRED)


class MatchQuerySet(AnnouncedQuerySet):
    def in_public_rounds(self) -> MatchQuerySet:
        """The matches of public rounds (`RoundQuerySet.public`, through the round)."""
        return self.exclude(round__status=Round.Status.PAIRED)


class Round(models.Model):
    class Stage(models.TextChoices):
        # Translators: "Swiss" and "Top cut" are the official TCG tournament terms.
        SWISS = "swiss", pgettext_lazy("round stage", "Swiss")
        TOP_CUT = "top_cut", pgettext_lazy("round stage", "Top cut")

    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired (not yet published)")
        PUBLISHED = "published", _("Pairings published")
        RUNNING = "running", _("Clock running")
        CLOSED = "closed", pgettext_lazy("round state", "Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.SWISS)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAIRED)
    seed = models.CharField(max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    rematches = models.PositiveSmallIntegerField(default=0)
    pair_downs = models.PositiveSmallIntegerField(default=0)

    #: The event whose public pages show this row (`league.bulk_writes`).
    PAGE_EVENT_PATH = "event_id"
    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_round_number")]

    def __str__(self) -> str:
        return f"{self.event} – round {self.number}"

    @property
    def is_public(self) -> bool:
        """Its pairings are published: `Round.objects.public()` for one round. Who may see
        it is `matches.selectors.can_view_round`."""
        return self.status != self.Status.PAIRED


class Match(models.Model):
    class Result(models.TextChoices):
        A = "a", _("Player A won")
        B = "b", _("Player B won")
        TIE = "tie", pgettext_lazy("match result", "Tie")
        DOUBLE_LOSS = "double_loss", pgettext_lazy("match result", "Double loss")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for results")
        REPORTED = "reported", _("One player reported")
        DISPUTED = "disputed", _("Disputed: staff to decide")
        FINAL = "final", _("Result stands")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField()
    division = models.CharField(max_length=10, blank=True)
    player_a = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    result = models.CharField(max_length=12, choices=Result.choices, blank=True)
    a_game_wins = models.PositiveSmallIntegerField(default=0)
    b_game_wins = models.PositiveSmallIntegerField(default=0)
    ended_at_time = models.BooleanField(default=False)
    extra_turns = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Turns played after time, as reported (rule edition)"
    )
    intentional_draw = models.BooleanField(default=False)
    extra_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="Time extensions of this table (floor.TimeExtension), in minutes"
    )
    updated_at = models.DateTimeField(auto_now=True)

    PAGE_EVENT_PATH = "round__event_id"
    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["round_id", "table"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "division"], name="one_match_per_table"
            ),
        ]
        indexes = [models.Index(fields=["round", "status"])]

    def __str__(self) -> str:
        b = self.player_b.player.name if self.player_b_id else "BYE"
        return f"R{self.round.number} T{self.table}: {self.player_a.player.name} v {b}"

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    @property
    def ends_at(self):
        """When time is called at this table: the round's end plus its extensions."""
        if self.round.ends_at is None:
            return None
        return self.round.ends_at + timedelta(minutes=self.extra_minutes)

    def side_of(self, registration_id: int) -> str | None:
        if registration_id == self.player_a_id:
            return "a"
        if registration_id == self.player_b_id:
            return "b"
        return None

    def side_of_user(self, user) -> str | None:
        """ "a" or "b" when `user` plays this match, else None. Reads `player_a.player` and
        `player_b.player`: load them with the match (`select_related`)."""
        if not user or not user.is_authenticated:
            return None
        for side, registration in (("a", self.player_a), ("b", self.player_b)):
            if registration is not None and registration.player.user_id == user.pk:
                return side
        return None


class Game(models.Model):
    class Outcome(models.TextChoices):
        A = "a", _("Player A won")
        B = "b", _("Player B won")
        BOTH_WON = "both_won", _("Both won at once (sudden death follows)")
        TIE = "tie", _("Unfinished at time")
        DOUBLE_LOSS = "double_loss", _("Double game loss")
        DRAW = "draw", _("Draw (1996 sudden death: neither player had a Pokémon left)")

    class Reason(models.TextChoices):
        PLAYED = "played", pgettext_lazy("game reason", "Played")
        NO_SHOW = "no_show", _("No-show (game loss)")
        PENALTY = "penalty", _("Staff penalty (game loss)")
        CONCEDED = "conceded", pgettext_lazy("game reason", "Conceded")
        BOTH_WAYS = "both_ways", _("Won both ways (rulebook)")
        PRIZES_AHEAD = "prizes_ahead", _("Ahead on Prizes after the turns")
        NEXT_PRIZE = "next_prize", _("Took the next Prize (level after the turns)")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    sequence = models.PositiveSmallIntegerField(default=0, help_text="0, then 1, 2… for replays")
    replay_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replay"
    )
    prizes = models.PositiveSmallIntegerField(
        default=6, help_text="Prize cards each player set out (0: the 1996 sudden death going on)"
    )
    outcome = models.CharField(max_length=12, choices=Outcome.choices)
    reason = models.CharField(max_length=12, choices=Reason.choices, default=Reason.PLAYED)

    class Meta:
        ordering = ["match_id", "number", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number", "sequence"], name="one_game_slot"),
        ]

    def __str__(self) -> str:
        replay = f" (sudden death {self.sequence})" if self.sequence else ""
        return f"Game {self.number}{replay}: {self.get_outcome_display()}"


class ResultReport(models.Model):
    """What one player says happened. Two agreeing reports make the result stand."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    side = models.CharField(max_length=1, choices=[("a", _("Player A")), ("b", _("Player B"))])
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    payload = models.JSONField(help_text="The games as reported, see matches.results")
    created_at = models.DateTimeField(auto_now_add=True)
    superseded = models.BooleanField(default=False)

    class Meta:
        ordering = ["match_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"report by side {self.side} on match {self.match_id}"


class ResultChange(models.Model):
    """The audit trail of a match result."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    changed_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=20, help_text="players, staff, system")
    before = models.JSONField(null=True)
    after = models.JSONField()
    note = models.CharField(max_length=200, blank=True)
    # The note's template when the site wrote it (`rules.i18n.Text.to_dict()`), worded at
    # display in the reader's language; None for a note a person typed and older rows.
    note_text = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["match_id", "changed_at", "id"]

    def __str__(self) -> str:
        return (
            f"change of match {self.match_id} by {self.source} at {self.changed_at:%Y-%m-%d %H:%M}"
        )

    @property
    def worded_note(self) -> str:
        """The note in the active language (`note_text`), else as stored."""
        return word_stored(self.note_text, self.note)


class StandingsSnapshot(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    round_number = models.PositiveSmallIntegerField()
    version = models.PositiveSmallIntegerField(default=1)
    rows = models.JSONField(
        help_text="[{registration, player, rank, points, record, owp, oowp, division, dropped}]"
    )
    computed_at = models.DateTimeField(auto_now=True)
    published = models.BooleanField(default=False)

    PAGE_EVENT_PATH = "event_id"
    objects = AnnouncedQuerySet.as_manager()

    class Meta:
        ordering = ["event_id", "round_number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "round_number", "version"], name="one_standings_version"
            )
        ]

    def __str__(self) -> str:
        return f"standings of event {self.event_id} after round {self.round_number} v{self.version}"


class StandingsState(models.Model):
    """Coalesces recomputations: `requested` counts result changes, `computed` what the
    last run covered, `queued` whether a run is already waiting on the broker (a run queued
    more than a minute ago is taken as lost, and another is queued)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, primary_key=True)
    requested = models.PositiveIntegerField(default=0)
    computed = models.PositiveIntegerField(default=0)
    queued = models.BooleanField(default=False)
    queued_at = models.DateTimeField(null=True, blank=True)
    dirty_from_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Earliest round whose results changed since the last run"
    )

    def __str__(self) -> str:
        return f"standings state of event {self.event_id}"
