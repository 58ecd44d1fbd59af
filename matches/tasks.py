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


@shared_task(name="matches.notify_result_reported", acks_late=True)
def notify_result_reported(match_id: int, reported_by_side: str, report_id: int) -> int:
    """The opponent's "confirm your result" notice (see the service)."""
    return services.notify_result_reported(
        match_id=match_id, reported_by_side=reported_by_side, report_id=report_id
    )


@shared_task(name="matches.after_reports")
def after_reports(items: list[list]) -> int:
    """A batch of reports' after-work, called by `notifications.batches` in its
    transaction (see `services.after_reports`)."""
    return services.after_reports(items)
