"""Notifications and e-mail preferences.

A `Notification` is one message to one user, shown in the inbox and, if the user wants it,
sent once by e-mail. Its `key` is the idempotency key chosen by the caller (for example
`pairings:round:42:user:7`): the same key never makes a second row, so a retried or
duplicated `notify` call is harmless.

E-mail status moves `pending` → `sent`, or `pending` → `failed` once the mail server
has refused it for good (5xx) or still refuses it after `NOTIFICATION_RETRY_BUDGET_HOURS`.
`not_requested` means no e-mail is wanted: the user switched the kind off or has no
address. A pending row is *due* from `email_next_attempt_at` (null: at once) and is *in a
live attempt* while `email_lease_until` is in the future: a worker recorded the attempt
before sending, and if it dies the row is due again when the lease runs out.

An `OutboxTask` is a task recorded in the caller's transaction (a standings request, a
deck verdict): dispatched after commit when the broker answers, else by the relay.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class NotificationKind(models.TextChoices):
    PAIRINGS_PUBLISHED = "pairings_published", _("Pairings published")
    RESULT_REPORTED = "result_reported", _("Result reported")
    DISPUTE_RESOLVED = "dispute_resolved", _("Dispute resolved")
    DECK_VERDICT = "deck_verdict", _("Deck check verdict")
    DECK_DEADLINE_REMINDER = "deck_deadline_reminder", _("Deck deadline reminder")
    ROUND_CLOCK = "round_clock", _("Round clock")
    EVENT_STARTING = "event_starting", _("Event starting")
    STANDINGS_PUBLISHED = "standings_published", _("Standings published")
    JUDGE_CALL = "judge_call", _("Judge called to a table (staff)")
    WEBHOOK_PAUSED = "webhook_paused", _("Webhook paused")
    RESULT_CHANGED = "result_changed", _("Your result changed (staff or a penalty)")
    PENALTY = "penalty", _("A penalty issued to you")
    JUDGE_CALL_TAKEN = "judge_call_taken", _("Your judge call taken or closed")


class EmailStatus(models.TextChoices):
    NOT_REQUESTED = "not_requested", pgettext_lazy("e-mail status", "Not requested")
    PENDING = "pending", pgettext_lazy("e-mail status", "Pending")
    SENT = "sent", pgettext_lazy("e-mail status", "Sent")
    FAILED = "failed", pgettext_lazy("e-mail status", "Failed")


#: Kinds e-mailed to a user who never saved preferences: everything except the round clock
#: and judge calls (to staff, and "taken" to the caller), which are stale by the time an
#: e-mail is read (the inbox shows them).
DEFAULT_EMAIL_KINDS: tuple[str, ...] = tuple(
    kind
    for kind in NotificationKind.values
    if kind
    not in (
        NotificationKind.ROUND_CLOCK,
        NotificationKind.JUDGE_CALL,
        NotificationKind.JUDGE_CALL_TAKEN,
    )
)


def default_email_kinds() -> list[str]:
    return list(DEFAULT_EMAIL_KINDS)


class Notification(models.Model):
    Kind = NotificationKind
    EmailStatus = EmailStatus

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=40, choices=NotificationKind.choices)
    key = models.CharField(max_length=200, unique=True, help_text="Idempotency key.")
    subject = models.CharField(max_length=200)
    body = models.TextField(help_text="Plain text.")
    url = models.CharField(max_length=500, blank=True, help_text="Link into the site.")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    email_status = models.CharField(
        max_length=20, choices=EmailStatus.choices, default=EmailStatus.NOT_REQUESTED
    )
    email_attempts = models.PositiveSmallIntegerField(default=0)
    email_error = models.TextField(blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    email_next_attempt_at = models.DateTimeField(
        null=True, blank=True, help_text="Not sent before this (backoff); empty: at once."
    )
    email_lease_until = models.DateTimeField(
        null=True, blank=True, help_text="A worker is sending it until then."
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["recipient", "-created_at"], name="notification_inbox_idx"),
            # The header badge counts unread rows on every page.
            models.Index(
                fields=["recipient"],
                condition=models.Q(read_at__isnull=True),
                name="notification_unread_idx",
            ),
            models.Index(fields=["email_status"], name="notification_email_status_idx"),
            # The relay's sweep: pending rows by due time.
            models.Index(
                fields=["email_next_attempt_at", "created_at"],
                condition=models.Q(email_status="pending"),
                name="notification_email_due_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subject} → {self.recipient_id}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None


class EmailPreference(models.Model):
    """Which kinds a user wants by e-mail. A user without a row gets `DEFAULT_EMAIL_KINDS`.

    The list names the kinds switched on, so a kind added later is off for users who
    already saved their choice, and on (if in the default) for everyone else.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    kinds = models.JSONField(default=default_email_kinds, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "e-mail preference"

    def __str__(self) -> str:
        return f"E-mail preference of {self.user_id}"


class OutboxTask(models.Model):
    """A Celery task recorded in the same transaction as the change that needs it.

    Dispatched after commit; the relay dispatches again any not done, due, and neither
    in a live run (`leased_until`) nor dispatched within the grace period. `key`, when
    given, makes recording idempotent (one row per key)."""

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list, blank=True)
    kwargs = models.JSONField(default=dict, blank=True)
    key = models.CharField(max_length=200, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField(default=timezone.now)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["due_at", "id"]
        indexes = [
            models.Index(
                fields=["due_at"],
                condition=models.Q(done_at__isnull=True),
                name="outbox_task_due_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)} due {self.due_at:%Y-%m-%d %H:%M:%S}"


class MailPace(models.Model):
    """One row: the next moment the sender may send a message, shared by every worker so
    together they keep to `NOTIFICATION_SEND_RATE_PER_MINUTE`."""

    next_slot_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"next e-mail at {self.next_slot_at:%H:%M:%S.%f}"
