"""Webhook endpoints and their deliveries.

A `WebhookEndpoint` is a URL a league's organiser registered, with a secret and the events
(`webhooks.events`) it wants. It is *paused* (`paused_at`) after
`WEBHOOK_PAUSE_AFTER_FAILURES` failed attempts in a row, and the organisers are told;
deliveries wait until an organiser resumes it.

A `WebhookDelivery` is one event for one endpoint, written in the same transaction as the
change that caused it. Its `delivery_id` is the `Webhook-Id` header of every attempt.
Status moves `pending` → `delivered` (a 2xx answer) or `pending` → `failed` (still refused
after `WEBHOOK_MAX_ATTEMPTS` attempts); "send again" makes it `pending` once more. A pending
delivery is *due* from `next_attempt_at` (null: at once) and *in a live attempt* while
`leased_until` is in the future: the worker recorded the attempt before sending, and if
it dies the delivery is due again when the lease runs out (the relay finds it).
"""

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from decks.findings_text import word_stored
from league.models import League

from . import events


def new_secret() -> str:
    return secrets.token_urlsafe(32)


class WebhookEndpoint(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=500)
    description = models.CharField(max_length=120, blank=True)
    secret = models.CharField(max_length=100, default=new_secret)
    events = models.JSONField(default=list, help_text="Event names (webhooks.events).")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    consecutive_failures = models.PositiveIntegerField(default=0)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_reason = models.CharField(max_length=300, blank=True)
    # Its template and parameters (`rules.i18n.Text.to_dict()`), worded for the reader.
    paused_reason_text = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["league", "created_at", "id"]

    def __str__(self) -> str:
        return self.description or self.url

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    @property
    def worded_pause(self) -> str:
        """Why it was paused, in the active language (else as stored)."""
        return word_stored(self.paused_reason_text, self.paused_reason)

    @property
    def event_labels(self) -> list[str]:
        return [str(events.LABELS.get(name, name)) for name in self.events]


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", pgettext_lazy("webhook delivery status", "Pending")
    DELIVERED = "delivered", pgettext_lazy("webhook delivery status", "Delivered")
    FAILED = "failed", pgettext_lazy("webhook delivery status", "Failed")


class WebhookDelivery(models.Model):
    Status = DeliveryStatus

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    delivery_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    event = models.CharField(max_length=40)
    payload = models.JSONField(help_text="The body's `data` and `summary`.")
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(
        max_length=20, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_response = models.TextField(blank=True, help_text="The start of the last answer.")
    last_error = models.TextField(blank=True)
    # Its template and parameters (`rules.i18n.Text.to_dict()`), worded for the reader.
    last_error_text = models.JSONField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(status="pending"),
                name="webhook_delivery_pending_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.endpoint} ({self.status})"

    @property
    def worded_error(self) -> str:
        """The last error in the active language (else as stored)."""
        return word_stored(self.last_error_text, self.last_error)
