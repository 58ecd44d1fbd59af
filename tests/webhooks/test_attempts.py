"""One attempt at a time, under a total deadline, against real sockets (issue 27): a
receiver that trickles one byte at a time, answers cut off after `HTTP/1.1 200 OK`, a
webhook deleted while its attempt waits, "send again" during a live attempt, and the
lock pair between a transaction that records deliveries and a worker counting a failure.
"""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from rules.errors import DomainError
from webhooks import events, services, tasks
from webhooks.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint

from .receiver import RawReceiver, Receiver, cut_off, trickle

pytestmark = pytest.mark.django_db(transaction=True)


def endpoint_for(league, staff, url):
    return services.create_endpoint(
        league=league, by_user=staff, url=url, events=[events.ROUND_PUBLISHED]
    )


def a_delivery(endpoint):
    return WebhookDelivery.objects.create(
        endpoint=endpoint, event=events.ROUND_PUBLISHED, payload={"summary": "Round 1"}
    )


def in_thread(target):
    """Run `target()` in a thread with its own connection; `.result` once joined."""
    box = {}

    def run():
        try:
            box["result"] = target()
        except BaseException as exc:  # re-raised by the test
            box["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.box = box
    thread.start()
    return thread


def test_a_trickling_receiver_is_cut_off_at_the_deadline_and_retried_later(
    league, staff, allow_local, settings
):
    """The receiver sends `HTTP/1.1 200 OK` and then one byte a second, for hours: per-read
    timeouts never fire. The attempt ends at the 2 s deadline, the delivery is due again
    after the backoff, and the next try (the receiver now answers) delivers it."""
    settings.WEBHOOK_DEADLINE_SECONDS = 2
    settings.WEBHOOK_RETRY_BASE_SECONDS = 30
    answers_at_once = threading.Event()
    with RawReceiver(trickle(1.0, until=answers_at_once)) as receiver:
        endpoint = endpoint_for(league, staff, receiver.url)
        delivery = a_delivery(endpoint)
        started = time.monotonic()
        attempt = services.deliver(delivery.pk)
        took = time.monotonic() - started
        print(f"\n[trickling receiver] the attempt ended after {took:.2f} s (deadline 2 s)")
        assert attempt.outcome == "retry" and attempt.retry_in == 30
        assert took < 10  # the trickle goes on for hours; the deadline ended it
        delivery.refresh_from_db()
        assert delivery.status == DeliveryStatus.PENDING and delivery.attempts == 1
        assert delivery.last_error == "No complete answer within 2 s."
        assert delivery.leased_until is None
        assert delivery.next_attempt_at > timezone.now() + timedelta(seconds=20)
        # Later: due again, the receiver answers at once.
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=DeliveryStatus.PENDING, next_attempt_at=timezone.now()
        )
        answers_at_once.set()
        assert services.deliver(delivery.pk).outcome == "delivered"
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.last_status_code == 200


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 200 OK\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
    ],
    ids=["after-status-line", "in-headers", "short-body", "short-chunk"],
)
def test_an_answer_cut_off_after_200_ok_is_not_a_delivery(
    league, staff, allow_local, settings, answer
):
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    with RawReceiver(cut_off(answer)) as receiver:
        endpoint = endpoint_for(league, staff, receiver.url)
        delivery = a_delivery(endpoint)
        assert services.deliver(delivery.pk).outcome == "failed"
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.FAILED and delivery.delivered_at is None
    assert delivery.last_status_code is None
    assert "cut off" in delivery.last_error


def test_a_whole_answer_closed_by_the_receiver_is_a_delivery(league, staff, allow_local):
    """HTTP/1.0 style: no length, the body ends when the connection closes."""
    with RawReceiver(cut_off(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nthanks")) as r:
        delivery = a_delivery(endpoint_for(league, staff, r.url))
        assert services.deliver(delivery.pk).outcome == "delivered"
    delivery.refresh_from_db()
    assert delivery.last_response == "thanks"


@pytest.mark.parametrize("answers", ["200", "500"])
def test_a_webhook_deleted_during_its_attempt_ends_the_task_quietly(
    league, staff, allow_local, answers
):
    with Receiver(hold_first=True, always_fail=answers == "500") as receiver:
        endpoint = endpoint_for(league, staff, receiver.url)
        delivery = a_delivery(endpoint)
        # The thread plays the worker: its wait is not inside a task.
        worker = in_thread(
            lambda: tasks.deliver.apply(args=[delivery.pk]).get(disable_sync_subtasks=False)
        )
        assert receiver.first_arrived.wait(10)
        services.delete_endpoint(endpoint=endpoint, by_user=staff)
        receiver.release()
        worker.join(20)
    assert "error" not in worker.box, worker.box.get("error")
    assert worker.box["result"] == "gone"
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()


def test_send_again_and_the_relay_never_start_a_second_attempt_during_a_live_one(
    league, staff, allow_local, settings
):
    settings.NOTIFICATION_RELAY_GRACE_SECONDS = 0
    with Receiver(hold_first=True) as receiver:
        endpoint = endpoint_for(league, staff, receiver.url)
        delivery = a_delivery(endpoint)
        worker = in_thread(lambda: services.deliver(delivery.pk))
        assert receiver.first_arrived.wait(10)
        with pytest.raises(DomainError) as err:
            services.send_again(delivery=delivery, by_user=staff)
        assert err.value.code == "webhook-delivery-sending" and err.value.status == 409
        assert services.relay() == 0 and not services.due_deliveries().exists()
        assert services.deliver(delivery.pk).outcome == "skipped"  # a copy of the task
        receiver.release()
        worker.join(20)
    assert worker.box["result"].outcome == "delivered"
    assert len(receiver.requests) == 1
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.attempts == 1


def test_a_failure_is_counted_while_a_transaction_recording_deliveries_is_open(
    league, league_event, staff, allow_local, settings
):
    """Issue 27: a TOM import locks its event with `select_related("season__league")`, so
    the league's row too, and records deliveries (a key-share lock on each endpoint row
    through the foreign key). The worker counting a failure used to lock the endpoint and
    its league for update: it took the endpoint, waited for the league, and the import's
    next delivery waited for the endpoint: a deadlock, one side rolled back. Now counting
    and pausing is one conditional UPDATE of the endpoint alone, which neither lock blocks:
    the worker records its failure and pauses the URL while the import is still open."""
    from league.models import Event

    settings.WEBHOOK_PAUSE_AFTER_FAILURES = 1  # the failure pauses the URL: the whole path
    with Receiver(always_fail=True) as receiver:
        endpoint = endpoint_for(league, staff, receiver.url)
        failing = a_delivery(endpoint)
        recorded, finish = threading.Event(), threading.Event()

        def importer():
            try:
                with transaction.atomic():
                    # As `tom.services` locks the event it imports into.
                    Event.objects.select_for_update().select_related("season__league").get(
                        pk=league_event.pk
                    )
                    for number in (1, 2):
                        services.emit(
                            league=league,
                            event=events.ROUND_PUBLISHED,
                            summary=f"Round {number} is up",
                            data={"round": number},
                        )
                        recorded.set()
                        time.sleep(1.5)  # the worker meanwhile fails and counts it
                    finish.wait(15)  # open until the worker is done
            finally:
                recorded.set()

        holder = in_thread(importer)
        assert recorded.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '10s'")  # a lock wait: an error, not a hang
        try:
            attempt = services.deliver(failing.pk)
            still_open = holder.is_alive() and not finish.is_set()
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
            finish.set()
            holder.join(30)
    assert "error" not in holder.box, holder.box.get("error")  # no deadlock on its side
    assert attempt.outcome == "paused" and still_open
    endpoint.refresh_from_db()
    assert endpoint.is_paused and "1 failed attempt in a row" in endpoint.paused_reason
    assert endpoint.deliveries.count() == 3  # the import's two, committed after


def test_the_tasks_retry_beyond_celerys_default_of_three(league, staff, allow_local, settings):
    """`retry(max_retries=None)` means "the task's limit", Celery's default 3: the fifth
    retry used to raise instead of retrying. The delivery's own attempt budget decides."""
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0
    assert tasks.deliver.max_retries is None
    with Receiver(fail_first=1) as receiver:
        delivery = a_delivery(endpoint_for(league, staff, receiver.url))
        assert tasks.deliver.apply(args=[delivery.pk], retries=5).get() == "delivered"
    assert [r.answered for r in receiver.requests] == [500, 200]


@pytest.fixture
def https_receiver(tmp_path):
    """A real HTTPS receiver for `localhost` with a certificate of its own (openssl)."""
    import shutil
    import ssl
    import subprocess
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make the receiver's certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    request = "req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost"
    request += " -addext subjectAltName=DNS:localhost"
    command = ["openssl", *request.split(), "-keyout", str(key), "-out", str(cert)]
    subprocess.run(command, check=True, capture_output=True)
    received = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            received.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    server.url = f"https://localhost:{server.server_address[1]}/hook"
    server.cert, server.received = cert, received
    yield server
    server.shutdown()
    server.server_close()


def test_https_checks_the_receivers_certificate_for_its_host_name(
    league, staff, allow_local, settings, https_receiver, monkeypatch
):
    import ssl

    from webhooks import transport

    settings.WEBHOOK_MAX_ATTEMPTS = 5
    delivery = a_delivery(endpoint_for(league, staff, https_receiver.url))
    assert services.deliver(delivery.pk).outcome == "retry"  # a certificate nobody vouches for
    delivery.refresh_from_db()
    assert "CERTIFICATE_VERIFY_FAILED" in delivery.last_error and not https_receiver.received

    trusted = ssl.create_default_context(cafile=str(https_receiver.cert))
    monkeypatch.setattr(transport, "_tls_context", lambda: trusted)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=None)
    assert services.deliver(delivery.pk).outcome == "delivered"
    assert len(https_receiver.received) == 1
