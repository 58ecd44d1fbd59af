"""Notifications sent by league services."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from decks.findings_text import word_record
from notifications.language import for_each_recipient, in_recipients_language
from notifications.services import NotificationItem, notify

from . import permissions
from .models import DeckSubmission, Event, Registration


def notify_staff(event: Event, action: str, *, kind: str, key: str, words, url: str) -> int:
    """One notice to each account whose role at `event` allows `action`
    (`permissions.staff_user_ids`), keyed `<key>:staff:<user id>` so a retry sends nothing
    twice. The one way staff are told of a dispute, the round clock or a judge call.
    `words()` gives (subject, body); it is called for each staff member in their language
    (else the event's) and the event's time zone."""
    staff = (
        get_user_model()
        .objects.filter(pk__in=permissions.staff_user_ids(event, action))
        .select_related("player")
    )

    def item(user) -> NotificationItem:
        subject, body = words()
        return NotificationItem(
            recipient_id=user.pk,
            key=f"{key}:staff:{user.pk}",
            subject=subject[:200],
            body=body,
            url=url,
        )

    return notify(kind=kind, items=for_each_recipient(staff.order_by("pk"), event, item))


def deck_verdict_notification(submission: DeckSubmission) -> int:
    registration = submission.registration
    user_id = registration.player.user_id
    if user_id is None:
        return 0
    event = registration.event
    with in_recipients_language(registration.player, event):
        subject, body = _verdict_words(submission, event)
    return notify(
        kind="deck_verdict",
        items=[
            NotificationItem(
                recipient_id=user_id,
                key=f"deck:submission:{submission.pk}",
                subject=subject[:200],
                body=body,
                url=reverse("deck-submit", args=[event.pk]),
            )
        ],
    )


def _verdict_words(submission: DeckSubmission, event) -> tuple[str, str]:
    names = {"version": submission.version, "event": event.name}
    if submission.legal:
        body = _("Your decklist (version %(version)s) for %(event)s is legal.") % names
        subject = _("%(event)s: your deck is legal") % names
    else:
        reasons = "\n".join(f"- {word_record(e)}" for e in submission.verdict.get("errors", []))
        body = _(
            "Your decklist (version %(version)s) for %(event)s is not legal:\n"
            "%(reasons)s\nFix it before the deck deadline."
        ) % {**names, "reasons": reasons}
        subject = _("%(event)s: your deck is not legal") % names
    return subject, body


def _registered_with_accounts(event):
    return (
        Registration.objects.filter(event=event, status__in=("registered", "checked_in"))
        .filter(player__user__isnull=False)
        .select_related("player")
        .prefetch_related("deck_submissions")
    )


def deck_deadline_reminders(event, *, hours: int) -> int:
    url = reverse("deck-submit", args=[event.pk])

    def item(reg) -> NotificationItem:
        latest = max(reg.deck_submissions.all(), key=lambda s: s.version, default=None)
        if latest is None:
            state = _("You have not registered a decklist yet.")
        elif latest.legal:
            state = _(
                "Your registered list (version %(version)s) is legal; you can still change it."
            ) % {"version": latest.version}
        else:
            state = _(
                "Your registered list (version %(version)s) is NOT legal: fix it before the "
                "deadline."
            ) % {"version": latest.version}
        return NotificationItem(
            recipient_id=reg.player.user_id,
            key=f"deadline:{hours}h:event:{event.pk}:reg:{reg.pk}",
            subject=(
                ngettext(
                    "%(event)s: deck deadline in %(hours)s hour",
                    "%(event)s: deck deadline in %(hours)s hours",
                    hours,
                )
                % {"event": event.name, "hours": hours}
            )[:200],
            body=_("Decklists for %(event)s lock at %(deadline)s. %(state)s")
            % {
                "event": event.name,
                "deadline": date_format(timezone.localtime(event.deck_deadline), "Y-m-d H:i T"),
                "state": state,
            },
            url=url,
        )

    items = for_each_recipient(_registered_with_accounts(event), event, item)
    return notify(kind="deck_deadline_reminder", items=items)


def event_starting(event) -> int:
    url = reverse("event-detail", args=[event.pk])
    return notify(
        kind="event_starting",
        items=for_each_recipient(
            _registered_with_accounts(event),
            event,
            lambda reg: NotificationItem(
                recipient_id=reg.player.user_id,
                key=f"starting:event:{event.pk}:reg:{reg.pk}",
                subject=(_("%(event)s starts soon") % {"event": event.name})[:200],
                body=_("%(event)s starts at %(time)s. Check in with the staff when you arrive.")
                % {
                    "event": event.name,
                    "time": date_format(timezone.localtime(event.starts_at), "H:i T"),
                },
                url=url,
            ),
        ),
    )


def signup_with_known_address(addresses: list[str]) -> None:
    """Tell the owner of an address (as their account stores it) that someone signed up with it (the sign-up page does not
    say the address is known). A plain e-mail after commit, not an inbox row: the new
    account is not theirs, and their own account may not want notifications."""
    body = _(
        "Someone (perhaps you) just created an account on %(site)s with this "
        "e-mail address, which your account already uses.\n\n"
        "If it was you and you forgot your login, reset your password: %(reset_url)s\n"
        "If it was not you, you can ignore this message."
    ) % {
        "site": settings.SITE_URL,
        "reset_url": f"{settings.SITE_URL.rstrip('/')}{reverse('password_reset')}",
    }
    subject = _("Sign-up with your e-mail address")
    transaction.on_commit(
        lambda: send_mail(
            subject,
            body,
            settings.DEFAULT_FROM_EMAIL,
            addresses,
            fail_silently=True,
        )
    )
