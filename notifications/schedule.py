"""Beat entries of the notifications app, merged into `CELERY_BEAT_SCHEDULE` by the settings."""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    "notifications.clear-expired-sessions": {
        "task": "notifications.clear_expired_sessions",
        "schedule": crontab(hour=3, minute=30),
    },
    # A safety net for e-mail tasks lost when the broker was down at commit time.
    "notifications.requeue-stalled-emails": {
        "task": "notifications.requeue_stalled_emails",
        "schedule": crontab(minute="*/30"),
    },
}
