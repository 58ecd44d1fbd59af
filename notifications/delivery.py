"""Delivering e-mail: the mail policy for real servers.

`deliver_emails` sends one batch of notification ids over one SMTP connection. For each
row it records the attempt first (`leases.claim`: attempts + 1 and a lease of
`NOTIFICATION_LEASE_SECONDS`, committed), then sends, then marks it sent (`leases.finish`,
only while the row carries that lease). A worker that dies after the server's 250 and
before that commit leaves the row pending with a lease: when the lease runs out the relay
sends it again, with the same Message-ID (derived from the notification's key), so the
receiving side can drop the copy.

- A permanent refusal (5xx for this message) fails that row at once (ERROR log); the
  batch goes on.
- A transient refusal (4xx, a dropped or refused connection, a timeout) charges only the
  refused row, which is due again after the one backoff rule (`leases.backoff`, from
  `NOTIFICATION_RETRY_BASE_SECONDS`, capped at `NOTIFICATION_RETRY_MAX_SECONDS`); the rows
  not reached are backed off by the base delay without being charged, and returned in
  `retry`. A row still refused `NOTIFICATION_RETRY_BUDGET_HOURS` after it was written is
  `failed` (ERROR log).
- Workers keep together to `NOTIFICATION_SEND_RATE_PER_MINUTE` (`MailPace`); eager
  in-process runs (quick start, tests) do not pace.
"""

from __future__ import annotations

import hashlib
import logging
import math
import smtplib
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from . import leases, outbox, unsubscribe
from .language import in_recipients_language
from .models import EmailStatus, MailPace, Notification

logger = logging.getLogger(__name__)


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def retry_countdown(retries: int) -> float:
    """Seconds before retry number `retries + 1`: the one backoff rule (`leases.backoff`),
    `base * 2**retries`, at most the cap."""
    return outbox.EMAILS.backoff(retries + 1)


def retry_budget() -> timedelta:
    return timedelta(hours=_setting("NOTIFICATION_RETRY_BUDGET_HOURS", 24))


@dataclass
class DeliveryReport:
    """What one `deliver_emails` run did, by notification id."""

    sent: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    #: Still pending after a transient failure: the caller should try these again later.
    retry: list[int] = field(default_factory=list)
    #: The transient error that stopped the run, if any.
    error: str = ""
    #: Seconds until the earliest row in `retry` is due.
    retry_in: float = 0.0

    def as_dict(self) -> dict:
        return {"sent": self.sent, "failed": self.failed, "retry": self.retry, "error": self.error}


def deliver_emails(*, notification_ids: Iterable[int]) -> DeliveryReport:
    """Send the e-mail of each pending, due notification in `notification_ids` that no
    other worker is sending, once, over one connection (see the module docstring)."""
    ids = sorted(set(notification_ids))
    report = DeliveryReport()
    connection = get_connection()
    opened = False
    pace = not current_app.conf.task_always_eager
    try:
        for index, notification_id in enumerate(ids):
            notification = _claim(notification_id)
            if notification is None:
                continue
            address = getattr(notification.recipient, notification.recipient.get_email_field_name())
            if not address:
                _fail(notification, "The recipient has no e-mail address.")
                report.failed.append(notification_id)
                continue
            if pace:
                _wait_for_slot()
            try:
                if not opened:
                    connection.open()
                    opened = True
                connection.send_messages([build_email(notification, address, connection)])
            except OSError as exc:
                error = _describe(exc)
                if _is_permanent(exc):
                    _fail(notification, error)
                    report.failed.append(notification_id)
                    continue
                _close_quietly(connection)
                report.error = error
                if _refused(notification, error):
                    report.failed.append(notification_id)
                else:
                    report.retry.append(notification_id)
                report.retry += _back_off(ids[index + 1 :], error)
                break
            leases.finish(
                outbox.EMAILS,
                notification,
                email_status=EmailStatus.SENT,
                emailed_at=timezone.now(),
            )
            report.sent.append(notification_id)
    finally:
        _close_quietly(connection)
    if report.retry:
        due = Notification.objects.filter(pk__in=report.retry).values_list(
            "email_next_attempt_at", flat=True
        )
        now = timezone.now()
        report.retry_in = max(0, math.ceil(min((d - now).total_seconds() if d else 0 for d in due)))
        logger.warning(
            "E-mail delivery paused (%s): %d to retry in %.0f s",
            report.error,
            len(report.retry),
            report.retry_in,
        )
    return report


def _claim(notification_id: int) -> Notification | None:
    """Record an attempt on the row (attempts + 1, a lease) and commit, if it is pending,
    due and not leased by a live attempt; None otherwise (`leases.claim`)."""
    return leases.claim(outbox.EMAILS, notification_id, select_related=("recipient",))


def _fail(notification: Notification, error: str) -> None:
    leases.finish(outbox.EMAILS, notification, email_status=EmailStatus.FAILED, email_error=error)
    logger.error(
        "E-mail %s (%s) failed for good after %d attempt(s): %s",
        notification.pk,
        notification.key,
        notification.email_attempts,
        error,
    )


def _refused(notification: Notification, error: str) -> bool:
    """Charge a transient refusal to this row: due again after its backoff, or failed when
    the retry budget is spent. Returns whether it failed."""
    now = timezone.now()
    if now - notification.created_at >= retry_budget():
        _fail(notification, error)
        return True
    leases.retry_later(outbox.EMAILS, notification, email_error=error)
    return False


def _back_off(notification_ids: list[int], error: str) -> list[int]:
    """Put the rows a transient error kept us from reaching back by the base delay, not
    charged. Returns the ids still pending."""
    if not notification_ids:
        return []
    later = timezone.now() + timedelta(seconds=retry_countdown(0))
    pending = Notification.objects.filter(pk__in=notification_ids, email_status=EmailStatus.PENDING)
    pending.filter(
        Q(email_next_attempt_at__isnull=True) | Q(email_next_attempt_at__lt=later)
    ).update(email_next_attempt_at=later)
    return list(pending.values_list("pk", flat=True))


def _wait_for_slot() -> None:
    """Sleep until this worker may send the next message at the configured rate."""
    rate = _setting("NOTIFICATION_SEND_RATE_PER_MINUTE", 60)
    if rate <= 0:
        return
    interval = timedelta(seconds=60 / rate)
    MailPace.objects.get_or_create(pk=1)
    with transaction.atomic():
        pace = MailPace.objects.select_for_update().get(pk=1)
        now = timezone.now()
        slot = min(max(now, pace.next_slot_at), now + timedelta(minutes=1))
        pace.next_slot_at = slot + interval
        pace.save(update_fields=["next_slot_at"])
    wait = (slot - now).total_seconds()
    if wait > 0:
        time.sleep(wait)


# --- The message ----------------------------------------------------------------------


def message_id(notification: Notification) -> str:
    """The same for every attempt of one notification: a copy can be recognised."""
    digest = hashlib.sha256(notification.key.encode()).hexdigest()[:32]
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2].strip("> ") or "localhost"
    return f"<notification.{digest}@{domain}>"


def greeting_name(user) -> str:
    """The player's name when the user has a player profile, else their full name or
    username."""
    player = getattr(user, "player", None)
    name = getattr(player, "name", "") if player is not None else ""
    return name or user.get_full_name() or user.get_username()


def build_email(
    notification: Notification, address: str, connection=None
) -> EmailMultiAlternatives:
    """The e-mail for `notification`: `notifications/email/<kind>.txt` and `.html`, or
    `default.txt` and `default.html` when the kind has none."""
    unsubscribe_link = _absolute_reverse(
        "notification-unsubscribe",
        token=unsubscribe.make_token(notification.recipient_id, notification.kind),
    )
    context = {
        "notification": notification,
        "recipient": notification.recipient,
        "name": greeting_name(notification.recipient),
        "link": absolute_url(notification.url) if notification.url else "",
        "inbox_link": _absolute_reverse("inbox"),
        "preferences_link": _absolute_reverse("notification-preferences"),
        "unsubscribe_link": unsubscribe_link,
    }
    headers = {"Auto-Submitted": "auto-generated", "Message-ID": message_id(notification)}
    if unsubscribe_link:
        headers["List-Unsubscribe"] = f"<{unsubscribe_link}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    names = [f"notifications/email/{notification.kind}", "notifications/email/default"]
    # The words around the body in the recipient's language (the body was written in it).
    with in_recipients_language(notification.recipient):
        text = render_to_string([f"{name}.txt" for name in names], context)
        html = render_to_string([f"{name}.html" for name in names], context)
    message = EmailMultiAlternatives(
        subject=notification.subject,
        body=text,
        to=[address],
        connection=connection,
        headers=headers,
    )
    message.attach_alternative(html, "text/html")
    return message


def absolute_url(url: str) -> str:
    if url.startswith(("http://", "https://")):
        return url
    site = getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/")
    return f"{site}/{url.lstrip('/')}"


def _absolute_reverse(name: str, **kwargs) -> str:
    try:
        return absolute_url(reverse(name, kwargs=kwargs or None))
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
