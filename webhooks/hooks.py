"""The league's changes that are webhook events, received through `league.signals` (the
league may not import this app). Rounds, results, standings and finishing call
`matches.webhook_events` directly."""

from __future__ import annotations

from django.urls import reverse

from league.models import Event
from league.signals import event_saved

from . import events
from .services import emit, subscribed


def registration_opened(sender, *, event: Event, previous_status: str | None, **kwargs) -> None:
    if event.status != Event.Status.REGISTRATION or previous_status == event.status:
        return
    if not subscribed(season_id=event.season_id, event=events.REGISTRATION_OPENED):
        return
    emit(
        league=event.season.league_id,
        event=events.REGISTRATION_OPENED,
        summary=f"Registration for {event.name} is open.",
        data={
            "event": {
                "id": event.pk,
                "name": event.name,
                "slug": event.slug,
                "status": event.status,
                "starts_at": event.starts_at.isoformat() if event.starts_at else None,
                "capacity": event.capacity,
            }
        },
        url=reverse("event-detail", args=[event.pk]),
    )


def connect() -> None:
    event_saved.connect(registration_opened, sender=Event, dispatch_uid="webhooks-registration")
