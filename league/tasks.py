"""Celery tasks of the league app: thin wrappers that load by id and call one service."""

import os

from celery import shared_task
from django.db import connection

from . import services
from .models import DeckSubmission, Season
from .notify import deck_verdict_notification
from .services import tokens


@shared_task(name="league.ping")
def ping() -> dict:
    """Answer with where the task ran: used to check a worker is up and on which database."""
    return {"pong": True, "pid": os.getpid(), "database": connection.settings_dict["NAME"]}


@shared_task(name="league.recompute_season_points")
def recompute_season_points(season_id: int) -> int:
    """Rebuild a season's leaderboard; safe to run any number of times."""
    season = Season.objects.filter(pk=season_id).first()
    if season is None:
        return 0
    return len(services.recompute_season_points(season=season))


@shared_task(name="league.write_token_uses")
def write_token_uses() -> int:
    """Write the API tokens' uses marked since the last run (`tokens.write_uses`)."""
    return tokens.write_uses()


@shared_task(name="league.send_deck_deadline_reminders")
def send_deck_deadline_reminders() -> int:
    return services.send_deck_deadline_reminders()


@shared_task(name="league.send_event_starting_notices")
def send_event_starting_notices() -> int:
    return services.send_event_starting_notices()


@shared_task(name="league.notify_deck_verdict")
def notify_deck_verdict(submission_id: int) -> int:
    """Tell the player their deck's verdict (keyed by submission: sending twice is harmless)."""
    submission = (
        DeckSubmission.objects.select_related("registration__event", "registration__player")
        .filter(pk=submission_id)
        .first()
    )
    return deck_verdict_notification(submission) if submission else 0


@shared_task(name="league.send_password_reset")
def send_password_reset(email: str, domain: str, site_name: str, use_https: bool) -> int:
    """Send the password-reset links of an address (recorded by the reset page through the
    outbox, known address or not)."""
    return services.send_password_reset(
        email=email, domain=domain, site_name=site_name, use_https=use_https
    )
