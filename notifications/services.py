"""Writing notifications and reading the inbox; e-mail delivery is in `notifications.delivery`.

Callers (league, decks, matches) use `notify`: it writes one row per recipient, keyed by
the caller's idempotency key, and after the caller's transaction commits it queues
`notifications.send_emails` tasks of at most `EMAIL_BATCH_SIZE` ids each. A call repeated
with the same keys writes nothing and queues nothing.

`delivery.deliver_emails` is what the task runs (the mail policy is described there); the
relay (`notifications.outbox`) dispatches rows whose task was never published or was
lost. Settings are in the "Broker and mail" block of `config/settings.py`;
`SITE_URL` ("http://localhost:8000") prefixes links in e-mails.
"""

import contextlib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import DomainError

from . import outbox, versions
from . import unsubscribe as unsubscribe_links
from .models import (
    DEFAULT_EMAIL_KINDS,
    EmailPreference,
    EmailStatus,
    Notification,
    NotificationKind,
)

logger = logging.getLogger(__name__)

#: Most notification ids one `send_emails` task carries.
EMAIL_BATCH_SIZE = outbox.EMAIL_BATCH_SIZE

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

    # No savepoint of its own: the rows belong to the caller's transaction, all or nothing.
    with transaction.atomic(savepoint=False):
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
        forget_unread(row.recipient_id for row in rows)
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
    """Queue `notifications.send_emails` after commit, in tasks of `EMAIL_BATCH_SIZE` ids
    (`outbox.dispatch_after_commit`, by task name). Returns the number of tasks.

    The rows are the record of the work: a failure to publish (broker down or hung) is
    logged, not raised to a caller whose data is already committed, and the relay
    (`notifications.outbox.relay`) dispatches the rows later. Eager tasks (quick start,
    tests) run right here and their errors are raised.
    """
    return outbox.dispatch_after_commit(outbox.EMAILS, sorted(notification_ids))


def requeue_stalled_emails() -> int:
    """Dispatch the due e-mails now (the relay's e-mail part). Returns the number of rows."""
    return outbox.relay()["emails"]


def retry_failed_emails(*, notification_ids: Iterable[int]) -> int:
    """Put failed rows back to pending with no attempts and a fresh retry budget, and queue
    them (admin action, the dashboard's retry button). Returns the number of rows queued."""
    with transaction.atomic():
        rows = Notification.objects.select_for_update().filter(
            pk__in=list(notification_ids), email_status=EmailStatus.FAILED
        )
        ids = list(rows.values_list("pk", flat=True))
        Notification.objects.filter(pk__in=ids).update(
            email_status=EmailStatus.PENDING,
            email_attempts=0,
            email_next_attempt_at=None,
            email_lease_until=None,
            created_at=timezone.now(),
        )
        queue_emails(ids)
    return len(ids)


def retry_emails(*, key_prefixes: Sequence[str]) -> int:
    """The retry button: failed rows whose key starts with one of `key_prefixes` go back
    to pending, and every pending row not in a live attempt is due at once and queued.
    Returns the number of rows queued."""
    now = timezone.now()
    rows = _by_prefixes(key_prefixes)
    failed = list(rows.filter(email_status=EmailStatus.FAILED).values_list("pk", flat=True))
    with transaction.atomic():
        retried = retry_failed_emails(notification_ids=failed)
        waiting = rows.filter(email_status=EmailStatus.PENDING).filter(
            Q(email_lease_until__isnull=True) | Q(email_lease_until__lt=now)
        )
        ids = list(waiting.exclude(pk__in=failed).values_list("pk", flat=True))
        Notification.objects.filter(pk__in=ids).update(email_next_attempt_at=None)
        queue_emails(ids)
    return retried + len(ids)


@dataclass(frozen=True)
class MailStatus:
    sent: int
    pending: int
    failed: int
    not_requested: int
    #: Whether the last publish from this process failed (the relay will send).
    broker_down: bool

    @property
    def total(self) -> int:
        return self.sent + self.pending + self.failed


def mail_status(*, key_prefixes: Sequence[str]) -> MailStatus:
    """E-mail counts of the notifications whose key starts with one of `key_prefixes`."""
    counts = dict(
        _by_prefixes(key_prefixes)
        .order_by()
        .values("email_status")
        .annotate(n=Count("pk"))
        .values_list("email_status", "n")
    )
    return MailStatus(
        sent=counts.get(EmailStatus.SENT, 0),
        pending=counts.get(EmailStatus.PENDING, 0),
        failed=counts.get(EmailStatus.FAILED, 0),
        not_requested=counts.get(EmailStatus.NOT_REQUESTED, 0),
        broker_down=outbox.broker_skipped(),
    )


def _by_prefixes(key_prefixes: Sequence[str]):
    query = Q(pk__in=[])
    for prefix in key_prefixes:
        query |= Q(key__startswith=prefix)
    return Notification.objects.filter(query)


# --- Reading and the inbox ----------------------------------------------------------


#: How long an unread count is kept (`unread_count`); every write or read of the user's
#: notifications through this module forgets it at once.
UNREAD_TIMEOUT = 120


def unread_generation_key(user_id: int) -> str:
    return f"notifications:unread:{user_id}:v"


def unread_generation(user_id: int) -> int:
    """The generation of the user's unread count (started now when none is kept)."""
    return versions.current(unread_generation_key(user_id), timeout=UNREAD_TIMEOUT * 2)


def forget_unread(user_ids: Iterable[int]) -> None:
    """The users' unread counts change (a notification written or read): a kept count is
    forgotten now and again once the current transaction commits (a count taken in
    between saw the old rows). A user with no count kept needs nothing; one whose first
    count is taken during the transaction keeps it at most `UNREAD_TIMEOUT`."""
    keys = list(cache.get_many([unread_generation_key(pk) for pk in set(user_ids)]))
    if not keys:
        return

    def bump() -> None:
        for key in keys:
            with contextlib.suppress(ValueError):  # expired meanwhile: nothing to forget
                cache.incr(key)

    bump()
    transaction.on_commit(bump)


def unread_count(user) -> int:
    """Unread notifications of `user`; 0 for an anonymous user. From the shared cache
    (kept per generation of the user's notifications, `forget_unread`), else one query."""
    if not getattr(user, "is_authenticated", False):
        return 0
    key = f"notifications:unread:{user.pk}:{unread_generation(user.pk)}:n"
    count = cache.get(key)
    if count is None:
        count = Notification.objects.filter(recipient_id=user.pk, read_at__isnull=True).count()
        cache.set(key, count, timeout=UNREAD_TIMEOUT)
    return count


def request_unread_count(request) -> int:
    """`unread_count` of the request's user, asked once per request (the header badge and
    a page's ETag both want it)."""
    if not hasattr(request, "_unread_count"):
        request._unread_count = unread_count(getattr(request, "user", None))
    return request._unread_count


def mark_read(*, user, notification_ids: Iterable[int] | None = None) -> int:
    """Mark the user's unread notifications read: those in `notification_ids`, or all of
    them when it is None. Ids of other users' notifications are ignored. Returns the
    number of rows changed."""
    rows = Notification.objects.filter(recipient_id=user.pk, read_at__isnull=True)
    if notification_ids is not None:
        rows = rows.filter(pk__in=list(notification_ids))
    forget_unread([user.pk])
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
            _("Unknown notification kinds: %(kinds)s.") % {"kinds": ", ".join(sorted(unknown))},
        )
    ordered = [kind for kind in NotificationKind.values if kind in chosen]
    preference, _created = EmailPreference.objects.update_or_create(
        user_id=user.pk, defaults={"kinds": ordered}
    )
    return preference


def read_unsubscribe_link(token: str) -> tuple[int, str]:
    """(user id, kind) of an unsubscribe link's token, or the `DomainError` to show."""
    try:
        return unsubscribe_links.read_token(token)
    except unsubscribe_links.ExpiredToken as exc:
        raise DomainError(
            "unsubscribe-link-expired",
            _(
                "This unsubscribe link has expired. Sign in and choose your e-mails on your "
                "preferences page instead."
            ),
            status=400,
        ) from exc
    except unsubscribe_links.BadToken as exc:
        raise DomainError(
            "bad-unsubscribe-link", _("This unsubscribe link is not valid."), status=400
        ) from exc


def unsubscribe(*, token: str) -> tuple[int, str]:
    """Switch off the e-mails of one kind for the user an unsubscribe link names
    (`notifications.unsubscribe`). Returns (user id, kind); `DomainError` with
    `unsubscribe-link-expired` for a link past its time, `bad-unsubscribe-link` for a link
    we did not make or a user who no longer exists."""
    user_id, kind = read_unsubscribe_link(token)
    user = get_user_model()._default_manager.filter(pk=user_id).first()
    if user is None or kind not in NotificationKind.values:
        raise DomainError(
            "bad-unsubscribe-link", _("This unsubscribe link is not valid."), status=400
        )
    set_email_kinds(user=user, kinds=[k for k in email_kinds_for(user) if k != kind])
    Notification.objects.filter(
        recipient_id=user_id, kind=kind, email_status=EmailStatus.PENDING
    ).update(email_status=EmailStatus.NOT_REQUESTED)
    return user_id, kind
