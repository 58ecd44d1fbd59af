"""Beat entries of the notifications app, merged into `CELERY_BEAT_SCHEDULE` by the settings."""

import os

from celery.schedules import crontab

BEAT_SCHEDULE = {
    "notifications.clear-expired-sessions": {
        "task": "notifications.clear_expired_sessions",
        "schedule": crontab(hour=3, minute=30),
    },
    # Dispatches what is due: e-mails and outbox tasks whose dispatch failed (broker down),
    # was lost (broker restarted empty) or whose worker died (lease expired).
    "notifications.relay": {
        "task": "notifications.relay",
        "schedule": float(os.environ.get("NOTIFICATION_RELAY_SECONDS", "60")),
    },
}
