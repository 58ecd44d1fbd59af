"""Celery tasks of the matches app: thin, idempotent, keyed by ids."""

from celery import shared_task

from . import services


@shared_task(name="matches.recompute_standings", acks_late=True)
def recompute_standings(event_id: int, publish_round: int | None = None) -> int:
    """Recompute and store an event's standings per round (see the service)."""
    return len(services.recompute_standings(event_id=event_id, publish_round=publish_round))


@shared_task(name="matches.send_round_clock_reminders")
def send_round_clock_reminders() -> int:
    return services.send_round_clock_reminders()
