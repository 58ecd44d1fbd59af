"""Writing notifications, reading the inbox, and delivering e-mail.

Callers (league, decks, matches) use `notify`: it writes one row per recipient, keyed by
the caller's idempotency key, and after the caller's transaction commits it queues
`notifications.send_emails` tasks of at most `EMAIL_BATCH_SIZE` ids each. A call repeated
with the same keys writes nothing and queues nothing.

`deliver_emails` is what the task runs. It claims each pending row with a row lock
(`SELECT … FOR UPDATE SKIP LOCKED`), sends it, and marks it sent in the same transaction,
so two workers, or the same task run twice, never send one row twice. Delivery is
at-least-once only in one corner: a worker that dies after the mail server accepted the
message and before the commit leaves the row pending, and it is sent again.

Settings (read with defaults, so none is required):
`NOTIFICATION_MAX_ATTEMPTS` (5) transient failures before a row is marked failed,
`NOTIFICATION_RETRY_BASE_SECONDS` (30) base of the exponential retry delay,
`SITE_URL` ("http://localhost:8000") prefix for links in e-mails.
"""

import logging
import smtplib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from rules.errors import DomainError

from .models import (
    DEFAULT_EMAIL_KINDS,
    EmailPreference,
    EmailStatus,
    Notification,
    NotificationKind,
)

logger = logging.getLogger(__name__)

#: Most notification ids one `send_emails` task carries.
EMAIL_BATCH_SIZE = 200

_KEY_MAX = Notification._meta.get_field("key").max_length
_SUBJECT_MAX = Notification._meta.get_field("subject").max_length
_URL_MAX = Notification._meta.get_field("url").max_length


@dataclass(frozen=True)
class NotificationItem:
    """One notification for one user. `key` must be unique across all notifications."""

    recipient_id: int
    key: str
    subject: str
    body: str
    url: str = ""


def max_attempts() -> int:
    return int(getattr(settings, "NOTIFICATION_MAX_ATTEMPTS", 5))


def retry_countdown(retries: int) -> float:
    """Seconds to wait before retry number `retries + 1`: `base * 2**retries`."""
    return float(getattr(settings, "NOTIFICATION_RETRY_BASE_SECONDS", 30)) * 2**retries


# --- Writing ------------------------------------------------------------------------


def notify(*, kind: str, items: Iterable[NotificationItem]) -> int:
    """Write one notification per item and queue e-mail for those who want it.

    Writes: `Notification` rows with one `bulk_create(ignore_conflicts=True)`; an item
    whose key already exists is skipped, as are repeated keys within the call (the first
    wins) and recipients that do not exist. E-mail is `pending` when the recipient has an
    address, is active, and has `kind` among their `EmailPreference` kinds (or the
    default), otherwise `not_requested`.
    Queues: after commit, `send_emails` for the new pending rows, `EMAIL_BATCH_SIZE` ids
    per task. Returns the number of rows written.
    """
    kind = NotificationKind(kind).value  # ValueError on an unknown kind: a caller's bug
    unique: dict[str, NotificationItem] = {}
    for item in items:
        _check_item(item)
        unique.setdefault(item.key, item)
    if not unique:
        return 0

    with transaction.atomic():
        recipients = _email_wanted_by_recipient(
            kind, {item.recipient_id for item in unique.values()}
        )
        existing = set(
            Notification.objects.filter(key__in=list(unique)).values_list("key", flat=True)
        )
        now = timezone.now()
        rows = [
            Notification(
                recipient_id=item.recipient_id,
                kind=kind,
                key=item.key,
                subject=item.subject,
                body=item.body,
                url=item.url,
                created_at=now,
                email_status=(
                    EmailStatus.PENDING
                    if recipients[item.recipient_id]
                    else EmailStatus.NOT_REQUESTED
                ),
            )
            for item in unique.values()
            if item.key not in existing and item.recipient_id in recipients
        ]
        if not rows:
            return 0
        # A concurrent call may insert a key between the read above and this insert: the
        # unique constraint and ignore_conflicts keep it to one row either way.
        Notification.objects.bulk_create(rows, ignore_conflicts=True, batch_size=1000)
        pending_keys = [row.key for row in rows if row.email_status == EmailStatus.PENDING]
        if pending_keys:
            pending_ids = list(
                Notification.objects.filter(
                    key__in=pending_keys, email_status=EmailStatus.PENDING
                ).values_list("pk", flat=True)
            )
            queue_emails(pending_ids)
    return len(rows)


def _check_item(item: NotificationItem) -> None:
    if not isinstance(item, NotificationItem):
        raise TypeError(f"expected NotificationItem, got {type(item).__name__}")
    if not item.key or len(item.key) > _KEY_MAX:
        raise ValueError(f"notification key must be 1 to {_KEY_MAX} characters: {item.key!r}")
    if not item.subject or len(item.subject) > _SUBJECT_MAX or "\n" in item.subject:
        raise ValueError(f"subject must be one line of 1 to {_SUBJECT_MAX} characters")
    if len(item.url) > _URL_MAX:
        raise ValueError(f"url longer than {_URL_MAX} characters")


def _email_wanted_by_recipient(kind: str, recipient_ids: set[int]) -> dict[int, bool]:
    """`{user id: wants this kind by e-mail}` for the users that exist, in one query."""
    user_model = get_user_model()
    email_field = user_model.get_email_field_name()
    has_is_active = any(f.name == "is_active" for f in user_model._meta.concrete_fields)
    columns = ["pk", email_field, "notification_preference__kinds"]
    if has_is_active:
        columns.append("is_active")
    rows = user_model._default_manager.filter(pk__in=recipient_ids).values_list(*columns)
    wanted = {}
    for pk, email, kinds, *active in rows:
        chosen = DEFAULT_EMAIL_KINDS if kinds is None else kinds
        wanted[pk] = bool(email) and all(active) and kind in chosen
    missing = recipient_ids - wanted.keys()
    if missing:
        logger.warning("notify(%s): no such users %s, skipped", kind, sorted(missing))
    return wanted


def queue_emails(notification_ids: Sequence[int]) -> int:
    """Queue `send_emails` after commit, in tasks of `EMAIL_BATCH_SIZE` ids. Returns the
    number of tasks.

    With a broker, a failure to publish (broker down) is logged, not raised to a caller
    whose data is already committed; `requeue_stalled_emails` picks those rows up later.
    Eager tasks (quick start, tests) run right here and their errors are raised.
    """
    from .tasks import send_emails

    robust = not send_emails.app.conf.task_always_eager
    ids = sorted(notification_ids)
    chunks = [ids[i : i + EMAIL_BATCH_SIZE] for i in range(0, len(ids), EMAIL_BATCH_SIZE)]
    for chunk in chunks:
        transaction.on_commit(_sender(send_emails, chunk), robust=robust)
    return len(chunks)


def _sender(task, notification_ids: list[int]):
    def send_emails_after_commit():
        task.delay(notification_ids)

    return send_emails_after_commit


def requeue_stalled_emails(
    *, older_than: timedelta = timedelta(hours=1), newer_than: timedelta = timedelta(days=2)
) -> int:
    """Queue `send_emails` again for rows still pending and never tried, created between
    `newer_than` and `older_than` ago: their task was most likely lost. Older ones are left
    alone (news that stale is not worth an e-mail; staff see them as pending). A row whose
    task is merely slow gets a second task, which finds it sent and does nothing.
    Returns the number of rows queued."""
    now = timezone.now()
    ids = list(
        Notification.objects.filter(
            email_status=EmailStatus.PENDING,
            email_attempts=0,
            created_at__lt=now - older_than,
            created_at__gte=now - newer_than,
        ).values_list("pk", flat=True)
    )
    with transaction.atomic():
        queue_emails(ids)
    return len(ids)


def retry_failed_emails(*, notification_ids: Iterable[int]) -> int:
    """Put failed rows back to pending with no attempts and queue them (admin action).
    Returns the number of rows queued."""
    with transaction.atomic():
        rows = Notification.objects.select_for_update().filter(
            pk__in=list(notification_ids), email_status=EmailStatus.FAILED
        )
        ids = list(rows.values_list("pk", flat=True))
        Notification.objects.filter(pk__in=ids).update(
            email_status=EmailStatus.PENDING, email_attempts=0
        )
        queue_emails(ids)
    return len(ids)


# --- Reading and the inbox ----------------------------------------------------------


def unread_count(user) -> int:
    """Unread notifications of `user`; 0 for an anonymous user. One query."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(recipient_id=user.pk, read_at__isnull=True).count()


def mark_read(*, user, notification_ids: Iterable[int] | None = None) -> int:
    """Mark the user's unread notifications read: those in `notification_ids`, or all of
    them when it is None. Ids of other users' notifications are ignored. Returns the
    number of rows changed."""
    rows = Notification.objects.filter(recipient_id=user.pk, read_at__isnull=True)
    if notification_ids is not None:
        rows = rows.filter(pk__in=list(notification_ids))
    return rows.update(read_at=timezone.now())


def email_kinds_for(user) -> list[str]:
    """The kinds `user` gets by e-mail: their saved choice or the default."""
    preference = EmailPreference.objects.filter(user_id=user.pk).first()
    return list(DEFAULT_EMAIL_KINDS) if preference is None else list(preference.kinds)


def set_email_kinds(*, user, kinds: Iterable[str]) -> EmailPreference:
    """Save the kinds `user` wants by e-mail (all others off). Unknown kinds are refused
    with `DomainError("unknown-kind")`. Pending e-mails are not changed."""
    chosen = set(kinds)
    unknown = chosen - set(NotificationKind.values)
    if unknown:
        raise DomainError(
            "unknown-kind",
            f"Unknown notification kinds: {', '.join(sorted(unknown))}.",
        )
    ordered = [kind for kind in NotificationKind.values if kind in chosen]
    preference, _ = EmailPreference.objects.update_or_create(
        user_id=user.pk, defaults={"kinds": ordered}
    )
    return preference


# --- Delivering e-mail --------------------------------------------------------------


@dataclass
class DeliveryReport:
    """What one `deliver_emails` run did, by notification id."""

    sent: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    #: Still pending after a transient failure: the caller should try these again later.
    retry: list[int] = field(default_factory=list)
    #: The transient error that stopped the run, if any.
    error: str = ""

    def as_dict(self) -> dict:
        return {"sent": self.sent, "failed": self.failed, "retry": self.retry, "error": self.error}


def deliver_emails(*, notification_ids: Iterable[int]) -> DeliveryReport:
    """Send the e-mail of each pending notification in `notification_ids`, once.

    Rows that are not pending (sent, failed, not requested) or are locked by another
    worker are skipped. A refusal the server calls permanent (5xx for this message) marks
    the row failed and delivery goes on. A transient error (`OSError`, which includes
    `smtplib.SMTPException`) stops the run: the failing row and the rows not reached yet
    each count one attempt and record the error; those that reached
    `NOTIFICATION_MAX_ATTEMPTS` are marked failed, the others are returned in `retry`.
    """
    ids = sorted(set(notification_ids))
    report = DeliveryReport()
    connection = get_connection()
    try:
        for index, notification_id in enumerate(ids):
            status, error = _deliver_one(notification_id, connection)
            if status == EmailStatus.SENT:
                report.sent.append(notification_id)
            elif status == EmailStatus.FAILED and not error:
                report.failed.append(notification_id)
            if error:
                _close_quietly(connection)
                report.error = error
                _record_attempt(ids[index + 1 :], error)
                for pk, current in Notification.objects.filter(pk__in=ids[index:]).values_list(
                    "pk", "email_status"
                ):
                    if current == EmailStatus.PENDING:
                        report.retry.append(pk)
                    elif current == EmailStatus.FAILED:
                        report.failed.append(pk)
                break
    finally:
        _close_quietly(connection)
    if report.error:
        logger.warning(
            "E-mail delivery interrupted (%s): %d to retry, %d failed",
            report.error,
            len(report.retry),
            len(report.failed),
        )
    return report


def _deliver_one(notification_id: int, connection) -> tuple[str | None, str]:
    """Claim, send and mark one row. Returns (its status now, or None if skipped; the
    transient error, or "")."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("recipient")
            .filter(pk=notification_id, email_status=EmailStatus.PENDING)
            .first()
        )
        if notification is None:
            return None, ""
        address = getattr(notification.recipient, notification.recipient.get_email_field_name())
        if not address:
            _mark(notification, EmailStatus.FAILED, "The recipient has no e-mail address.")
            return EmailStatus.FAILED, ""
        try:
            connection.send_messages([build_email(notification, address, connection)])
        except OSError as exc:
            error = _describe(exc)
            if _is_permanent(exc):
                _mark(notification, EmailStatus.FAILED, error)
                return EmailStatus.FAILED, ""
            notification.email_attempts += 1
            notification.email_error = error
            if notification.email_attempts >= max_attempts():
                notification.email_status = EmailStatus.FAILED
            notification.save(update_fields=["email_attempts", "email_error", "email_status"])
            return notification.email_status, error
        notification.emailed_at = timezone.now()
        _mark(notification, EmailStatus.SENT)
        return EmailStatus.SENT, ""


def _mark(notification: Notification, status: str, error: str | None = None) -> None:
    notification.email_status = status
    notification.email_attempts += 1
    fields = ["email_status", "email_attempts", "emailed_at"]
    if error is not None:
        notification.email_error = error
        fields.append("email_error")
    notification.save(update_fields=fields)


def _record_attempt(notification_ids: Sequence[int], error: str) -> None:
    """Count a failed attempt for pending rows a transient error kept us from reaching."""
    if not notification_ids:
        return
    with transaction.atomic():
        claimed = list(
            Notification.objects.select_for_update(skip_locked=True)
            .filter(pk__in=notification_ids, email_status=EmailStatus.PENDING)
            .values_list("pk", flat=True)
        )
        Notification.objects.filter(pk__in=claimed).update(
            email_attempts=F("email_attempts") + 1, email_error=error
        )
        Notification.objects.filter(pk__in=claimed, email_attempts__gte=max_attempts()).update(
            email_status=EmailStatus.FAILED
        )


def build_email(
    notification: Notification, address: str, connection=None
) -> EmailMultiAlternatives:
    """The e-mail for `notification`: `notifications/email/<kind>.txt` and `.html`, or
    `default.txt` and `default.html` when the kind has none."""
    context = {
        "notification": notification,
        "recipient": notification.recipient,
        "link": absolute_url(notification.url) if notification.url else "",
        "inbox_link": _absolute_reverse("inbox"),
        "preferences_link": _absolute_reverse("notification-preferences"),
    }
    names = [f"notifications/email/{notification.kind}", "notifications/email/default"]
    message = EmailMultiAlternatives(
        subject=notification.subject,
        body=render_to_string([f"{name}.txt" for name in names], context),
        to=[address],
        connection=connection,
        headers={"Auto-Submitted": "auto-generated"},
    )
    message.attach_alternative(
        render_to_string([f"{name}.html" for name in names], context), "text/html"
    )
    return message


def absolute_url(url: str) -> str:
    if url.startswith(("http://", "https://")):
        return url
    site = getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/")
    return f"{site}/{url.lstrip('/')}"


def _absolute_reverse(name: str) -> str:
    try:
        return absolute_url(reverse(name))
    except NoReverseMatch:
        return ""


def _is_permanent(exc: OSError) -> bool:
    """A 5xx refusal of this message (bad recipient, rejected content) will not get better
    by retrying; everything else (4xx, disconnects, timeouts, refused connections) may."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return bool(codes) and all(code >= 500 for code in codes)
    if isinstance(exc, smtplib.SMTPResponseException):
        return exc.smtp_code >= 500 and not isinstance(exc, smtplib.SMTPAuthenticationError)
    return False


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:1000]


def _close_quietly(connection) -> None:
    try:
        connection.close()
    except Exception:  # a broken connection may fail to close: it is dropped either way
        logger.debug("closing the e-mail connection failed", exc_info=True)
