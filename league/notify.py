"""Notifications sent by league services."""

from __future__ import annotations

from django.urls import reverse

from notifications.services import NotificationItem, notify

from .models import DeckSubmission


def deck_verdict_notification(submission: DeckSubmission) -> int:
    registration = submission.registration
    user_id = registration.player.user_id
    if user_id is None:
        return 0
    event = registration.event
    if submission.legal:
        body = f"Your decklist (version {submission.version}) for {event.name} is legal."
    else:
        reasons = "\n".join(f"- {e['message']}" for e in submission.verdict.get("errors", []))
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
                subject=f"{event.name}: your deck is {'legal' if submission.legal else 'not legal'}"[:200],
                body=body,
                url=reverse("deck-submit", args=[event.pk]),
            )
        ],
    )
