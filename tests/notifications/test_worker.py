"""E-mail sent by a real Celery worker process, from the real broker, to its file backend."""

import time
import uuid

import pytest
from django.contrib.auth import get_user_model

from notifications import services, tasks
from notifications.models import EmailStatus, Notification

from .helpers import item


def messages_to(mail_dir, address: str) -> int:
    return sum(path.read_text().count(f"\nTo: {address}\n") for path in mail_dir.glob("*.log"))


def wait_for(condition, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the worker")
        time.sleep(0.2)


@pytest.mark.worker
def test_worker_sends_one_email_per_recipient_and_never_twice(
    transactional_db, celery_worker_process
):
    tag = uuid.uuid4().hex[:8]
    user_model = get_user_model()
    players = [
        user_model.objects.create_user(username=f"w{tag}{i}", email=f"w{tag}{i}@example.org")
        for i in range(5)
    ]

    # Outside any transaction: the rows commit and the tasks go to the broker at once.
    created = services.notify(
        kind="pairings_published", items=[item(p, f"worker:{tag}:{p.pk}") for p in players]
    )
    assert created == 5
    pending = Notification.objects.filter(recipient__in=players, email_status=EmailStatus.PENDING)
    wait_for(lambda: not pending.exists())

    assert set(
        Notification.objects.filter(recipient__in=players).values_list("email_status", flat=True)
    ) == {EmailStatus.SENT}
    mail_dir = celery_worker_process.mail_dir
    assert [messages_to(mail_dir, p.email) for p in players] == [1] * 5

    ids = list(Notification.objects.filter(recipient__in=players).values_list("pk", flat=True))
    result = tasks.send_emails.delay(ids).get(timeout=60)

    assert result["sent"] == []
    assert [messages_to(mail_dir, p.email) for p in players] == [1] * 5
