"""What the site keeps of an event run in TOM.

- `TomEvent`: the link of an event to its TOM tournament (sanction id), the last save
  imported (as `tom.tdf` data, so an export can give back what only TOM knows: timestamps,
  table numbers, finals options), where TOM's top-cut rounds start in our round numbers, the
  upload token of the laptop script, and how the site's standings compare with TOM's.
- `TomUpload`: every save imported into the event, keyed by its content hash, so the same
  file sent twice is applied once.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.findings_text import word_stored
from league.models import Event


class TomEvent(models.Model):
    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="tom"
    )
    sanction_id = models.CharField(max_length=40, help_text="TOM's tournament id (YY-MM-NNNNNN)")
    save_data = models.JSONField(help_text="The last imported save (tom.tdf.Tournament as JSON)")
    cut_offset = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Our round number of TOM's first top-cut round, minus 1"
    )
    token_hash = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of the upload token"
    )
    token_created_at = models.DateTimeField(null=True, blank=True)
    token_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    standings_differences = models.JSONField(
        default=list, help_text="[{division, player, player_id, tom_place, site_place}]"
    )
    standings_compared = models.JSONField(
        default=dict, help_text="{division: {players, agree}} for each division TOM ranked"
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"TOM {self.sanction_id} → {self.event}"


class TomUpload(models.Model):
    class Source(models.TextChoices):
        COMMAND = "command", _("Command line")
        PAGE = "page", _("Event page")
        API = "api", _("Laptop script (API)")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tom_uploads")
    sha256 = models.CharField(max_length=64)
    filename = models.CharField(max_length=200, blank=True)
    size = models.PositiveIntegerField()
    source = models.CharField(max_length=10, choices=Source.choices)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    summary = models.JSONField(default=dict, help_text="What the save changed")

    class Meta:
        ordering = ["event_id", "-uploaded_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "sha256"], name="one_upload_per_save")
        ]

    def __str__(self) -> str:
        return f"TOM save {self.sha256[:10]} for event {self.event_id}"


class TomSave(models.Model):
    """A save the laptop script posted, kept until the worker has applied it: the endpoint
    answers at once (202) and the worker plays the save through `tom.services.import_save`
    (`tom.services.uploads.apply_save`), so no web worker waits on a long import. The
    script reads the outcome at the save's status address. A refused save keeps its file,
    so the organiser can apply it once the event is set right."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be applied")
        APPLIED = "applied", pgettext_lazy("TOM save state", "Applied")
        DUPLICATE = "duplicate", _("Imported before")
        REFUSED = "refused", pgettext_lazy("TOM save state", "Refused")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tom_saves")
    sha256 = models.CharField(max_length=64)
    filename = models.CharField(max_length=200, blank=True)
    data = models.BinaryField(help_text="The file, until it is applied")
    size = models.PositiveIntegerField()
    source = models.CharField(max_length=10, choices=TomUpload.Source.choices)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    received_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    outcome = models.JSONField(
        default=dict, help_text="{summary, standings_agree} or {code, detail, actions}"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event_id", "-received_at", "-id"]
        indexes = [models.Index(fields=["event", "sha256"], name="tom_save_event_sha")]

    def __str__(self) -> str:
        return f"TOM save {self.sha256[:10]} for event {self.event_id} ({self.status})"

    @property
    def worded_detail(self) -> str:
        """A refusal's message in the active language (`outcome["detail_text"]`, the
        template the worker kept); older saves: as stored."""
        outcome = self.outcome or {}
        return word_stored(outcome.get("detail_text"), outcome.get("detail", ""))
