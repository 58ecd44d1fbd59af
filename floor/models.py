"""What judges do on the floor of a running event.

Terms:
- A `TimeExtension` gives one table extra minutes (a deck check, a long ruling); the table's
  total is kept on `matches.Match.extra_minutes`, which the clocks read, and time is called
  at that table from its own end.
- A `JudgeCall` is a player's "call a judge" at their table: open, taken by one judge, then
  closed with a note.
- A `Penalty` names an infraction and a penalty (the choice lists are `rules.penalties`),
  the player, the judge, the round and the match; a penalty that costs games changed the
  match result through the result rules when it was issued.
- A `DeckCheck` is one player's list checked at a table: ok, or a mismatch (which leads to a
  Deck/Decklist penalty).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.findings_text import word_stored
from league.models import Event, Player, Registration
from matches.models import Match, Round

from . import wording


class TimeExtension(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="time_extensions")
    minutes = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=120, blank=True)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"+{self.minutes} min at match {self.match_id}"


class JudgeCall(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("judge call state", "Open")
        TAKEN = "taken", pgettext_lazy("judge call state", "Taken")
        CLOSED = "closed", pgettext_lazy("judge call state", "Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="judge_calls")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="judge_calls")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=120)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"judge call at match {self.match_id} ({self.status})"


class Penalty(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties"
    )
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="penalties")
    infraction = models.CharField(max_length=20, choices=wording.INFRACTIONS)
    penalty = models.CharField(max_length=20, choices=wording.PENALTIES)
    prizes = models.PositiveSmallIntegerField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)
    # The note's template when the site wrote it (tardiness: `rules.i18n.Text.to_dict()`),
    # worded at display in the reader's language; None for a judge's own words.
    note_text = models.JSONField(null=True, blank=True)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    result_changed = models.BooleanField(
        default=False, help_text="Whether the penalty changed the match result when issued"
    )

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["player", "created_at"])]
        verbose_name_plural = "penalties"

    def __str__(self) -> str:
        return f"{self.get_penalty_display()} for {self.player} ({self.infraction})"

    @property
    def label(self) -> str:
        return wording.penalty_label(self.penalty, self.prizes)

    @property
    def worded_note(self) -> str:
        """The note in the active language (`note_text`), else as stored."""
        return word_stored(self.note_text, self.note)


class DeckCheck(models.Model):
    class Outcome(models.TextChoices):
        OK = "ok", _("OK: matches the registered list")
        MISMATCH = "mismatch", pgettext_lazy("deck check outcome", "Mismatch")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deck_checks")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    note = models.CharField(max_length=200, blank=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"deck check of registration {self.registration_id}: {self.outcome}"
