"""Webhook deliveries sent by real Celery worker processes (started here, with webhook
settings of their own: the receiver on 127.0.0.1 allowed, backoff and leases in seconds)
to a real HTTP receiver: retries with backoff, and a worker killed (SIGKILL) while the
receiver holds its request, whose delivery a new worker sends with the same id."""

import json
import os
import signal
import threading
import time
import uuid

import pytest
from django.db import connection, transaction

from config.celery import app
from tests.conftest import start_worker
from tests.notifications.faults import wait_for
from webhooks import events, services
from webhooks.models import DeliveryStatus, WebhookDelivery

from .receiver import RawReceiver, Receiver, trickle

pytestmark = pytest.mark.worker

WORKER_ENV = {
    "WEBHOOK_ALLOW_PRIVATE_TARGETS": "1",
    "WEBHOOK_RETRY_BASE_SECONDS": "0.5",
    "WEBHOOK_RETRY_MAX_SECONDS": "2",
    "WEBHOOK_LEASE_SECONDS": "3",
    "WEBHOOK_READ_TIMEOUT_SECONDS": "30",
    "LOG_LEVEL": "WARNING",
}


class Workers:
    """Workers of our own on one queue, which this test's dispatches go to."""

    def __init__(self):
        self.queue = f"test-webhooks-{uuid.uuid4().hex[:8]}"
        self.procs = []

    def start(self, **env):
        proc = start_worker(
            database_name=connection.settings_dict["NAME"],
            queue=self.queue,
            broker_url=app.conf.broker_url,
            extra_env={**WORKER_ENV, **env},
        )
        self.procs.append(proc)
        return proc

    def stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except Exception:
                    proc.kill()


@pytest.fixture
def workers(transactional_db, allow_local, celery_worker_process):
    # Requests the session's worker first: it points the app at its queue when it starts.
    own = Workers()
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = own.queue
    yield own
    app.conf.task_default_queue = previous
    own.stop()


def record(league, url):
    endpoint = services.create_endpoint(
        league=league,
        by_user=league.organisers.first(),
        url=url,
        events=[events.ROUND_PUBLISHED],
    )
    with transaction.atomic():
        services.emit(
            league=league,
            event=events.ROUND_PUBLISHED,
            summary="Round 1 pairings are up.",
            data={"round": {"number": 1}},
        )
    return endpoint, WebhookDelivery.objects.get(endpoint=endpoint)


def test_the_worker_delivers_on_the_third_try_after_two_failures(workers, league):
    workers.start()
    with Receiver(fail_first=2) as receiver:
        endpoint, delivery = record(league, receiver.url)
        wait_for(
            lambda: WebhookDelivery.objects.get(pk=delivery.pk).status == DeliveryStatus.DELIVERED,
            60,
        )
    assert [r.answered for r in receiver.requests] == [500, 500, 200]
    assert {r.delivery_id for r in receiver.requests} == {str(delivery.delivery_id)}
    assert all(r.verifies(endpoint.secret) for r in receiver.requests)
    delivery.refresh_from_db()
    assert delivery.attempts == 3 and delivery.last_status_code == 200


def test_a_worker_killed_mid_delivery_still_delivers_with_the_same_id(workers, league, settings):
    settings.NOTIFICATION_RELAY_GRACE_SECONDS = 0
    first = workers.start()
    with Receiver(hold_first=True) as receiver:
        endpoint, delivery = record(league, receiver.url)
        assert receiver.first_arrived.wait(30), "the worker never sent the delivery"
        os.kill(first.pid, signal.SIGKILL)  # the receiver still holds its request
        first.wait(timeout=10)
        receiver.release()
        delivery.refresh_from_db()
        assert delivery.status == DeliveryStatus.PENDING and delivery.attempts == 1
        workers.start()
        # The dead worker's lease runs out; the relay (the beat job) dispatches it again.
        wait_for(lambda: services.relay() > 0, 30, 0.5)
        wait_for(
            lambda: WebhookDelivery.objects.get(pk=delivery.pk).status == DeliveryStatus.DELIVERED,
            60,
        )
    assert len(receiver.requests) == 2
    held, copy = receiver.requests
    assert held.delivery_id == copy.delivery_id == str(delivery.delivery_id)
    assert copy.verifies(endpoint.secret) and copy.answered == 200
    assert json.loads(copy.body)["id"] == str(delivery.delivery_id)
    delivery.refresh_from_db()
    assert delivery.attempts == 2


def test_a_trickling_receiver_does_not_stall_the_worker(workers, league):
    """Issue 27: a receiver sending one byte a second held the workers for hours (per-read
    timeouts). With a 2 s deadline the one worker (solo pool) is free after it: the other
    URL's delivery of the same event arrives, the slow one fails at the deadline, is tried
    again later, and is delivered once the receiver answers."""
    workers.start(WEBHOOK_DEADLINE_SECONDS="2", WEBHOOK_RETRY_BASE_SECONDS="1")
    answers = threading.Event()
    with RawReceiver(trickle(1.0, until=answers)) as slow, Receiver() as quick:
        owner = league.organisers.first()
        stalled = services.create_endpoint(
            league=league, by_user=owner, url=slow.url, events=[events.ROUND_PUBLISHED]
        )
        services.create_endpoint(
            league=league, by_user=owner, url=quick.url, events=[events.ROUND_PUBLISHED]
        )
        start = time.monotonic()
        with transaction.atomic():  # the slow URL's delivery first: it reaches the worker first
            services.emit(league=league, event=events.ROUND_PUBLISHED, summary="Round 1", data={})
        wait_for(lambda: len(quick.requests) == 1, 30)
        print(
            f"\n[trickling receiver] the other URL got its delivery after {time.monotonic() - start:.1f} s"
        )
        slow_delivery = WebhookDelivery.objects.get(endpoint=stalled)
        wait_for(lambda: WebhookDelivery.objects.get(pk=slow_delivery.pk).attempts >= 2, 30)
        slow_delivery.refresh_from_db()
        assert slow_delivery.status == DeliveryStatus.PENDING
        assert slow_delivery.last_error == "No complete answer within 2 s."
        answers.set()
        wait_for(
            lambda: (
                WebhookDelivery.objects.get(pk=slow_delivery.pk).status == DeliveryStatus.DELIVERED
            ),
            60,
        )
    assert WebhookDelivery.objects.filter(status=DeliveryStatus.DELIVERED).count() == 2
