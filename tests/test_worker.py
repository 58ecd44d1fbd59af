"""Tasks through a real broker to a real worker process and back."""

import os
import time

import pytest
from django.db import connection

from league.tasks import ping
from matches import services
from matches.models import StandingsSnapshot, StandingsState

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def wait_for(condition, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_a_task_goes_through_the_broker_to_a_worker_process_and_back():
    answer = ping.delay().get(timeout=20)
    assert answer["pong"] is True
    assert answer["pid"] != os.getpid()  # another process ran it
    assert answer["database"] == connection.settings_dict["NAME"]  # on this test database


def test_closing_a_round_gets_its_standings_from_the_worker(make_event, staff):
    event, _ = make_event(players=6)
    round_ = services.pair_next_round(event=event, by_user=staff)
    for m in round_.matches.filter(player_b__isnull=False):
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    services.close_round(round_=round_, by_user=staff)
    assert wait_for(
        lambda: StandingsSnapshot.objects.filter(
            event=event, round_number=1, published=True
        ).exists()
    )
    snapshot = StandingsSnapshot.objects.get(event=event, round_number=1)
    assert len(snapshot.rows) == 6
    assert sum(r["points"] for r in snapshot.rows) == 9
    state = StandingsState.objects.get(event=event)
    assert wait_for(lambda: StandingsState.objects.get(event=event).computed == state.requested)


def test_rabbitmq_works_as_the_broker_too():
    """A second worker on RabbitMQ answers a task sent through RabbitMQ."""
    import uuid

    from tests.conftest import send_ping, start_worker

    amqp_url = os.environ.get("TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672//")
    queue = f"test-amqp-{uuid.uuid4().hex[:8]}"
    proc = start_worker(
        database_name=connection.settings_dict["NAME"], queue=queue, broker_url=amqp_url
    )
    try:
        answer = send_ping(amqp_url, queue).get(timeout=20)
        assert answer["pong"] is True and answer["pid"] == proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_publishing_pairings_mails_every_player_once_through_the_worker(
    make_event, staff, celery_worker_process
):
    """Publishing a round: one e-mail and one inbox entry per player, delivered by the real
    worker; sending again (the notification and the task) delivers nothing more."""
    from notifications.models import EmailStatus, Notification
    from notifications.tasks import send_emails
    from tests.notifications.test_worker import messages_to

    event, regs = make_event(players=7)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    users = [reg.player.user for reg in regs]
    notes = Notification.objects.filter(kind="pairings_published", recipient__in=users)
    assert notes.count() == 7 and all(u.notifications.count() == 1 for u in users)
    assert wait_for(lambda: not notes.exclude(email_status=EmailStatus.SENT).exists())
    mail_dir = celery_worker_process.mail_dir
    assert [messages_to(mail_dir, u.email) for u in users] == [1] * 7
    bye = round_.matches.get(player_b__isnull=True).player_a.player.user
    assert "bye" in notes.get(recipient=bye).body

    from matches import notify

    assert notify.pairings_published(round_) == 0  # the same round published again
    result = send_emails.delay(list(notes.values_list("pk", flat=True))).get(timeout=30)
    assert result["sent"] == []
    assert [messages_to(mail_dir, u.email) for u in users] == [1] * 7
