"""The one leased-work mechanism (`notifications.leases`) as the four kinds use it: the one
backoff rule, a result recorded only under the attempt's own lease, the one relay over
every kind, and the e-mail task's retries no longer cut at Celery's default of three."""

from datetime import timedelta

import pytest
from django.utils import timezone

from notifications import leases, outbox, tasks
from notifications.models import EmailStatus, Notification, OutboxTask
from notifications.schedule import BEAT_SCHEDULE

from .backends import FlakyBackend
from .helpers import item

pytestmark = pytest.mark.django_db


def test_one_backoff_rule_with_each_kind_s_base_and_cap(settings):
    settings.NOTIFICATION_RETRY_BASE_SECONDS = 30
    settings.NOTIFICATION_RETRY_MAX_SECONDS = 900
    settings.WEBHOOK_RETRY_BASE_SECONDS = 10
    settings.WEBHOOK_RETRY_MAX_SECONDS = 60
    from webhooks.sending import DELIVERIES

    assert [outbox.EMAILS.backoff(n) for n in (1, 2, 3, 4, 10)] == [30, 60, 120, 240, 900]
    assert [outbox.TASKS.backoff(n) for n in (1, 2)] == [30, 60]
    assert [DELIVERIES.backoff(n) for n in (0, 1, 2, 3, 4)] == [10, 10, 20, 40, 60]
    from notifications.batches import BATCHES

    assert [BATCHES.backoff(n) for n in (1, 2)] == [30, 60]
    assert {kind.name for kind in leases.kinds()} == {"tasks", "batches", "emails", "webhooks"}


def test_a_worker_whose_lease_was_taken_over_records_nothing():
    entry = OutboxTask.objects.create(task="league.ping")
    first = leases.claim(outbox.TASKS, entry.pk)
    assert leases.claim(outbox.TASKS, entry.pk) is None  # a live lease: one attempt at a time
    OutboxTask.objects.filter(pk=entry.pk).update(leased_until=timezone.now() - timedelta(1))
    second = leases.claim(outbox.TASKS, entry.pk)  # the first worker looked dead
    assert second is not None and second.attempts == 2
    assert not leases.finish(outbox.TASKS, first, done_at=timezone.now())
    assert OutboxTask.objects.get().done_at is None
    assert leases.finish(outbox.TASKS, second, done_at=timezone.now())
    row = OutboxTask.objects.get()
    assert row.done_at is not None and row.leased_until is None


def test_one_beat_job_relays_every_kind():
    relays = [entry["task"] for entry in BEAT_SCHEDULE.values()]
    assert relays.count("notifications.relay") == 1
    from django.conf import settings

    assert "webhooks.relay" not in {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert set(outbox.relay()) == {"tasks", "batches", "emails", "webhooks"}


def test_the_email_task_retries_beyond_celerys_default_of_three(make_user, settings, mailoutbox):
    """`retry(max_retries=None)` means "the task's limit", which Celery sets to 3: the fourth
    retry raised and logged a traceback, leaving the rows to the relay. The rows' retry
    budget is the limit now."""
    settings.EMAIL_BACKEND = "tests.notifications.backends.FlakyBackend"
    FlakyBackend.failures = 1
    assert tasks.send_emails.max_retries is None
    ash = make_user()
    from notifications import services

    services.notify(kind="event_starting", items=[item(ash, "late")])
    ids = list(Notification.objects.values_list("pk", flat=True))
    result = tasks.send_emails.apply(args=[ids], retries=5)
    assert result.get()["sent"] == ids
    assert Notification.objects.get().email_status == EmailStatus.SENT
