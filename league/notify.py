"""Notifications sent by league services."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse

from decks.findings_text import word_record
from notifications.services import NotificationItem, notify

from . import permissions
from .models import DeckSubmission, Event, Registration


def notify_staff(
    event: Event, action: str, *, kind: str, key: str, subject: str, body: str, url: str
) -> int:
    """One notice to each account whose role at `event` allows `action`
    (`permissions.staff_user_ids`), keyed `<key>:staff:<user id>` so a retry sends nothing
    twice. The one way staff are told of a dispute, the round clock or a judge call."""
    return notify(
        kind=kind,
        items=[
            NotificationItem(
                recipient_id=user_id,
                key=f"{key}:staff:{user_id}",
                subject=subject[:200],
                body=body,
                url=url,
            )
            for user_id in permissions.staff_user_ids(event, action)
        ],
    )


def deck_verdict_notification(submission: DeckSubmission) -> int:
    registration = submission.registration
    user_id = registration.player.user_id
    if user_id is None:
        return 0
    event = registration.event
    if submission.legal:
        body = f"Your decklist (version {submission.version}) for {event.name} is legal."
    else:
        reasons = "\n".join(f"- {word_record(e)}" for e in submission.verdict.get("errors", []))
        body = (
            f"Your decklist (version {submission.version}) for {event.name} is not legal:\n"
            f"{reasons}\nFix it before the deck deadline."
        )
    return notify(
        kind="deck_verdict",
        items=[
            NotificationItem(
                recipient_id=user_id,
                key=f"deck:submission:{submission.pk}",
                subject=f"{event.name}: your deck is {'legal' if submission.legal else 'not legal'}"[
                    :200
                ],
                body=body,
                url=reverse("deck-submit", args=[event.pk]),
            )
        ],
    )


def _registered_with_accounts(event):
    return (
        Registration.objects.filter(event=event, status__in=("registered", "checked_in"))
        .filter(player__user__isnull=False)
        .select_related("player")
        .prefetch_related("deck_submissions")
    )


def deck_deadline_reminders(event, *, hours: int) -> int:
    url = reverse("deck-submit", args=[event.pk])
    items = []
    for reg in _registered_with_accounts(event):
        latest = max(reg.deck_submissions.all(), key=lambda s: s.version, default=None)
        if latest is None:
            state = "You have not registered a decklist yet."
        elif latest.legal:
            state = f"Your registered list (version {latest.version}) is legal; you can still change it."
        else:
            state = f"Your registered list (version {latest.version}) is NOT legal: fix it before the deadline."
        items.append(
            NotificationItem(
                recipient_id=reg.player.user_id,
                key=f"deadline:{hours}h:event:{event.pk}:reg:{reg.pk}",
                subject=f"{event.name}: deck deadline in {hours} hour{'s' if hours > 1 else ''}"[
                    :200
                ],
                body=f"Decklists for {event.name} lock at {event.deck_deadline:%Y-%m-%d %H:%M %Z}. {state}",
                url=url,
            )
        )
    return notify(kind="deck_deadline_reminder", items=items)


def event_starting(event) -> int:
    url = reverse("event-detail", args=[event.pk])
    return notify(
        kind="event_starting",
        items=[
            NotificationItem(
                recipient_id=reg.player.user_id,
                key=f"starting:event:{event.pk}:reg:{reg.pk}",
                subject=f"{event.name} starts soon"[:200],
                body=f"{event.name} starts at {event.starts_at:%H:%M %Z}. Check in with the staff when you arrive.",
                url=url,
            )
            for reg in _registered_with_accounts(event)
        ],
    )


def signup_with_known_address(addresses: list[str]) -> None:
    """Tell the owner of an address (as their account stores it) that someone signed up with it (the sign-up page does not
    say the address is known). A plain e-mail after commit, not an inbox row: the new
    account is not theirs, and their own account may not want notifications."""
    body = (
        f"Someone (perhaps you) just created an account on {settings.SITE_URL} with this "
        "e-mail address, which your account already uses.\n\n"
        "If it was you and you forgot your login, reset your password: "
        f"{settings.SITE_URL.rstrip('/')}{reverse('password_reset')}\n"
        "If it was not you, you can ignore this message."
    )
    transaction.on_commit(
        lambda: send_mail(
            "Sign-up with your e-mail address",
            body,
            settings.DEFAULT_FROM_EMAIL,
            addresses,
            fail_silently=True,
        )
    )
