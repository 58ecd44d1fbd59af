"""The event log's model: one change to an event that is not play itself. Written only by
`league.services.eventlog.record`; read by the log page, the API and the JSON export."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.findings_text import word_stored


class EventLogEntry(models.Model):
    """One change to an event that is not play itself (`league.services.eventlog.record`):
    who, when, what kind, the players concerned, before and after, and the reason (required
    for corrections). Written in the transaction of the change it records."""

    class Kind(models.TextChoices):
        ROUND_UNDONE = "round_undone", _("Round undone")
        PAIRING_EDITED = "pairing_edited", _("Pairing edited")
        PLAYER_SEATED = "player_seated", _("Player seated")
        DROP = "drop", pgettext_lazy("event log", "Drop")
        DROP_UNDONE = "drop_undone", _("Drop undone")
        CHECK_IN_UNDONE = "check_in_undone", _("Check-in undone")
        SEATING = "seating", _("Fixed or feature seating")
        RESULT_CORRECTED = "result_corrected", _("Result corrected")
        TIME_EXTENSION = "time_extension", _("Time extension")
        PENALTY = "penalty", _("Penalty")
        DECK_CHECK = "deck_check", _("Deck check")
        SETTINGS = "settings", _("Settings changed during play")
        TARDINESS = "tardiness", _("Tardiness")

    event = models.ForeignKey("league.Event", on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    registrations = models.ManyToManyField(
        "league.Registration", blank=True, related_name="log_entries"
    )
    summary = models.CharField(max_length=300)
    # The summary's message template and parameters (`rules.i18n.Text.to_dict()`), worded
    # at display in the reader's language; None on rows written before (their English).
    summary_text = models.JSONField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["event_id", "at", "id"]
        indexes = [models.Index(fields=["event", "kind"])]

    def __str__(self) -> str:
        return f"{self.event_id} {self.kind} at {self.at:%Y-%m-%d %H:%M}"

    @property
    def worded_summary(self) -> str:
        """The summary in the active language (`summary_text`), else as stored."""
        return word_stored(self.summary_text, self.summary)
