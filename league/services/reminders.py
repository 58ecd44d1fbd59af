"""Scheduled reminders: deck deadlines and events about to start."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from ..models import Event
from ..notify import deck_deadline_reminders, event_starting


def send_deck_deadline_reminders(*, now=None) -> int:
    """Remind registered players of the deck deadline 24 hours and 1 hour before it (run by
    celery beat every few minutes; the notification keys make repeats harmless). Returns
    the number of notifications written."""
    now = now or timezone.now()
    written = 0
    for hours in (24, 1):
        events = Event.objects.filter(
            status__in=(Event.Status.REGISTRATION, Event.Status.RUNNING),
            swiss_rounds_paired=0,  # lists lock when round 1 is paired: nothing to remind
            deck_deadline__gt=now,
            deck_deadline__lte=now + timedelta(hours=hours),
        )
        for event in events:
            if hours == 24 and event.deck_deadline <= now + timedelta(hours=1):
                continue  # inside the last hour only the 1-hour reminder goes out
            written += deck_deadline_reminders(event, hours=hours)
    return written


def send_event_starting_notices(*, now=None, within=timedelta(hours=1)) -> int:
    """Tell registered players an event starts within the hour (celery beat)."""
    now = now or timezone.now()
    events = Event.objects.filter(
        status=Event.Status.REGISTRATION, starts_at__gt=now, starts_at__lte=now + within
    )
    return sum(event_starting(event) for event in events)
