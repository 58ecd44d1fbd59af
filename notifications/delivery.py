"""Delivering e-mail: one batch of notification ids per call, a row lock per notification so
nothing is sent twice, permanent SMTP failures marked at once and transient ones left for
the task to retry with backoff (`notifications.tasks`). `notifications.services` writes the
rows and queues the batches.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from .models import EmailStatus, Notification

logger = logging.getLogger(__name__)


def max_attempts() -> int:
    return int(getattr(settings, "NOTIFICATION_MAX_ATTEMPTS", 5))


def retry_countdown(retries: int) -> float:
    """Seconds to wait before retry number `retries + 1`: `base * 2**retries`."""
    return float(getattr(settings, "NOTIFICATION_RETRY_BASE_SECONDS", 30)) * 2**retries


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
