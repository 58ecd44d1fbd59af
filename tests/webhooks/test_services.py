"""Webhooks through the services, delivered in-process (eager tasks) to a real HTTP
receiver on a free port: signing, the hooks in the league's and matches' services, the
same-transaction recording, pausing, "send again", Discord's format and refused targets."""

import json
from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league import services as league_services
from league.models import Event
from matches import services as match_services
from notifications.models import Notification
from rules.errors import DomainError
from tests.factories import UserFactory
from tests.notifications.helpers import hold_lock_elsewhere
from webhooks import events, services, signing, targets
from webhooks.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint

pytestmark = pytest.mark.django_db(transaction=True)


def endpoint_for(league, staff, url, names=None):
    return services.create_endpoint(
        league=league, by_user=staff, url=url, events=names or sorted(events.NAMES)
    )


def pair_public(event, staff):
    """Pair the next round and publish it: webhooks announce a round once it is public."""
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    return match_services.publish_round(round_=round_, by_user=staff)


def test_a_published_round_arrives_signed_and_verifiable(make_event, staff, receiver, allow_local):
    event, _ = make_event(players=4)
    endpoint = endpoint_for(event.season.league, staff, receiver.url)
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    match_services.publish_round(round_=round_, by_user=staff)

    names = [r.headers["Webhook-Event"] for r in receiver.requests]
    assert names == [events.ROUND_PAIRED, events.ROUND_PUBLISHED]
    published = receiver.requests[1]
    assert published.verifies(endpoint.secret)
    assert not published.verifies("another secret")
    body = json.loads(published.body)
    assert body["event"] == "round-published"
    assert body["id"] == published.delivery_id
    assert body["league"]["slug"] == event.season.league.slug
    assert len(body["data"]["pairings"]) == 2
    assert body["url"].endswith(reverse("round-pairings", args=[event.pk, 1]))
    delivery = WebhookDelivery.objects.get(delivery_id=published.delivery_id)
    assert delivery.status == DeliveryStatus.DELIVERED
    assert delivery.attempts == 1 and delivery.last_status_code == 200


def test_a_tampered_or_stale_request_does_not_verify():
    body = b'{"a":1}'
    now = 1_700_000_000
    headers = signing.headers(secret="s", delivery_id="d", event="e", body=body, now=now)
    check = {"secret": "s", "timestamp": headers["Webhook-Timestamp"]}
    assert signing.verify(
        **check, body=body, signature_header=headers["Webhook-Signature"], now=now
    )
    assert not signing.verify(
        **check, body=b'{"a":2}', signature_header=headers["Webhook-Signature"], now=now
    )
    late = now + signing.REPLAY_WINDOW_SECONDS + 1
    assert not signing.verify(
        **check, body=body, signature_header=headers["Webhook-Signature"], now=late
    )


def test_every_event_is_recorded_by_the_service_that_causes_it(make_event, staff):
    event, _ = make_event(players=4, swiss_rounds=1, top_cut=0)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.DRAFT)
    league = event.season.league
    endpoint = WebhookEndpoint.objects.create(  # paused: recorded, not sent
        league=league,
        url="https://hooks.example.org/x",
        events=sorted(events.NAMES),
        paused_at=timezone.now(),
    )
    WebhookEndpoint.objects.create(  # another league's endpoint hears nothing
        league=type(league).objects.create(name="Other", slug="other"),
        url="https://hooks.example.org/y",
        events=sorted(events.NAMES),
        paused_at=timezone.now(),
    )
    league_services.update_event(event=event, by_user=staff, status=Event.Status.REGISTRATION)
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    match_services.publish_round(round_=round_, by_user=staff)
    for m in round_.matches.filter(player_b__isnull=False):
        match_services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    match_services.close_round(round_=round_, by_user=staff)
    recorded = list(endpoint.deliveries.order_by("pk").values_list("event", flat=True))
    assert recorded == [
        events.REGISTRATION_OPENED,
        events.ROUND_PAIRED,
        events.ROUND_PUBLISHED,
        events.RESULT_FINAL,
        events.RESULT_FINAL,
        events.EVENT_FINISHED,  # closing the last round finishes the event at once
        events.STANDINGS_PUBLISHED,  # the recompute that publishes runs after commit
    ]
    assert WebhookDelivery.objects.count() == len(recorded)


def test_a_rolled_back_change_records_no_delivery(make_event, staff):
    event, _ = make_event(players=4)
    WebhookEndpoint.objects.create(
        league=event.season.league,
        url="https://hooks.example.org/x",
        events=[events.ROUND_PAIRED],
        paused_at=timezone.now(),
    )
    with pytest.raises(RuntimeError), transaction.atomic():
        # Announced when the round is public (a paired round is staff's only).
        round_ = match_services.pair_next_round(event=event, by_user=staff)
        match_services.publish_round(round_=round_, by_user=staff)
        assert WebhookDelivery.objects.count() == 1
        raise RuntimeError("the change fails after the hook")
    assert WebhookDelivery.objects.count() == 0


def test_only_the_chosen_events_are_sent(make_event, staff):
    event, _ = make_event(players=4)
    endpoint = WebhookEndpoint.objects.create(
        league=event.season.league,
        url="https://hooks.example.org/x",
        events=[events.EVENT_FINISHED],
    )
    match_services.pair_next_round(event=event, by_user=staff)
    assert not endpoint.deliveries.exists()


def test_a_receiver_that_fails_twice_gets_it_on_the_third_try(
    make_event, staff, allow_local, settings
):
    settings.WEBHOOK_PAUSE_AFTER_FAILURES = 5
    from .receiver import Receiver

    event, _ = make_event(players=4)
    with Receiver(fail_first=2) as receiver:
        endpoint_for(event.season.league, staff, receiver.url, [events.ROUND_PAIRED])
        pair_public(event, staff)
    assert [r.answered for r in receiver.requests] == [500, 500, 200]
    assert len({r.delivery_id for r in receiver.requests}) == 1
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.attempts == 3
    assert delivery.endpoint.consecutive_failures == 0


def test_a_url_that_keeps_failing_is_paused_and_the_organisers_told(
    make_event, staff, allow_local, settings
):
    settings.WEBHOOK_PAUSE_AFTER_FAILURES = 3
    settings.WEBHOOK_MAX_ATTEMPTS = 10
    from .receiver import Receiver

    event, _ = make_event(players=4)
    with Receiver(always_fail=True) as receiver:
        endpoint = endpoint_for(event.season.league, staff, receiver.url, [events.ROUND_PAIRED])
        round_ = pair_public(event, staff)
        assert len(receiver.requests) == 3
        endpoint.refresh_from_db()
        assert endpoint.is_paused and "3 failed attempts" in endpoint.paused_reason
        note = Notification.objects.get(recipient=staff, kind="webhook_paused")
        assert note.url == reverse("webhook-endpoint", args=[endpoint.league.slug, endpoint.pk])
        # Deliveries of a paused URL wait; "send again" is refused until it is resumed.
        match_services.publish_round(round_=round_, by_user=staff)
        assert len(receiver.requests) == 3
        delivery = endpoint.deliveries.get()
        assert delivery.status == DeliveryStatus.PENDING
        with pytest.raises(DomainError) as err:
            services.send_again(delivery=delivery, by_user=staff)
        assert err.value.code == "webhook-endpoint-paused"
        receiver.always_fail = False
        assert services.resume_endpoint(endpoint=endpoint, by_user=staff) == 1
    assert receiver.requests[-1].answered == 200
    assert len({r.delivery_id for r in receiver.requests}) == 1
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED


def test_send_again_from_the_page_resends_a_failed_delivery_with_the_same_id(
    make_event, staff, client, allow_local, settings
):
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    from .receiver import Receiver

    event, _ = make_event(players=4)
    league = event.season.league
    with Receiver(fail_first=2) as receiver:
        endpoint = endpoint_for(league, staff, receiver.url, [events.ROUND_PAIRED])
        pair_public(event, staff)
        delivery = endpoint.deliveries.get()
        assert delivery.status == DeliveryStatus.FAILED and delivery.last_status_code == 500
        client.force_login(staff)
        page = client.get(reverse("webhook-endpoint", args=[league.slug, endpoint.pk]))
        assert b"Send again" in page.content and b"HTTP 500" in page.content
        client.post(reverse("webhook-send-again", args=[league.slug, endpoint.pk, delivery.pk]))
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED
    assert [r.answered for r in receiver.requests] == [500, 500, 200]
    assert {r.delivery_id for r in receiver.requests} == {str(delivery.delivery_id)}


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://0.0.0.0/hook",
    ],
)
def test_private_and_loopback_targets_are_refused_at_registration(league, staff, url):
    with pytest.raises(DomainError) as err:
        services.create_endpoint(
            league=league, by_user=staff, url=url, events=[events.ROUND_PAIRED]
        )
    assert err.value.code == "webhook-target-refused"
    assert not WebhookEndpoint.objects.exists()


def test_a_loopback_target_is_refused_again_at_send_time(make_event, staff, receiver, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    event, _ = make_event(players=4)
    endpoint = endpoint_for(event.season.league, staff, receiver.url, [events.ROUND_PAIRED])
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    pair_public(event, staff)
    assert receiver.requests == []
    delivery = endpoint.deliveries.get()
    assert delivery.status == DeliveryStatus.FAILED
    assert delivery.last_error.startswith("webhook-target-refused")


def test_a_redirect_is_not_followed(make_event, staff, allow_local, settings):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    from .receiver import Receiver

    settings.WEBHOOK_MAX_ATTEMPTS = 1
    with Receiver() as inner:

        class Redirect(BaseHTTPRequestHandler):
            def do_POST(self):
                self.send_response(307)
                self.send_header("Location", inner.url)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
        Thread(target=server.serve_forever, daemon=True).start()
        try:
            event, _ = make_event(players=4)
            url = f"http://127.0.0.1:{server.server_address[1]}/"
            endpoint = endpoint_for(event.season.league, staff, url, [events.ROUND_PAIRED])
            pair_public(event, staff)
        finally:
            server.shutdown()
            server.server_close()
    assert inner.requests == []
    delivery = endpoint.deliveries.get()
    assert delivery.status == DeliveryStatus.FAILED and delivery.last_status_code == 307


def test_bad_urls_and_events_and_other_users_are_refused(league, staff, allow_local):
    with pytest.raises(DomainError) as err:
        services.create_endpoint(
            league=league, by_user=staff, url="ftp://example.org/", events=[events.ROUND_PAIRED]
        )
    assert err.value.code == "webhook-url-invalid"
    with pytest.raises(DomainError) as err:
        services.create_endpoint(
            league=league, by_user=staff, url="https://example.org/", events=["round-eaten"]
        )
    assert err.value.code == "webhook-events-invalid"
    with pytest.raises(DomainError) as err:
        services.create_endpoint(
            league=league, by_user=UserFactory(), url="https://example.org/", events=[]
        )
    assert err.value.code == "not-allowed" and err.value.status == 403


@pytest.mark.parametrize(
    ("url", "discord"),
    [
        ("https://discord.com/api/webhooks/123456/abcDEF_-xyz", True),
        ("https://discordapp.com/api/webhooks/123456/abc", True),
        ("https://ptb.discord.com/api/v10/webhooks/1/a?wait=true", True),
        ("http://discord.com/api/webhooks/123456/abc", False),
        ("https://discord.com.evil.example/api/webhooks/1/a", False),
        ("https://example.org/api/webhooks/1/a", False),
    ],
)
def test_discord_webhook_urls_are_recognised(url, discord):
    assert targets.is_discord(url) is discord


def test_a_discord_target_gets_a_message_discord_accepts(make_event, staff, settings, receiver):
    """Discord takes `content` (at most 2,000 characters) and/or `embeds`; the body is
    built for the Discord URL, and sent (here to our receiver standing in for Discord)."""
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    event, _ = make_event(players=4)
    endpoint = WebhookEndpoint.objects.create(
        league=event.season.league,
        url="https://discord.com/api/webhooks/123456/abcDEF",
        events=[events.ROUND_PUBLISHED],
    )
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    with transaction.atomic():
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(paused_at=event.starts_at)
        match_services.publish_round(round_=round_, by_user=staff)
    delivery = endpoint.deliveries.get()
    body = json.loads(services.body_for(delivery))
    assert set(body) == {"content", "embeds", "allowed_mentions"}
    assert body["content"] == f"{event.name}: round 1 pairings are up (2 tables)."
    assert len(body["content"]) <= 2000 and len(body["embeds"]) == 1
    assert body["embeds"][0]["title"] == "Round published"
    assert body["embeds"][0]["url"].endswith(reverse("round-pairings", args=[event.pk, 1]))
    assert str(delivery.delivery_id) in body["embeds"][0]["footer"]["text"]
    # Sent for real: the receiver standing in for Discord gets exactly these bytes, signed.
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(url=receiver.url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(targets, "is_discord", lambda url: True)
        services.resume_endpoint(endpoint=endpoint, by_user=staff)
    assert json.loads(receiver.requests[0].body) == body
    assert receiver.requests[0].verifies(endpoint.secret)


def test_the_api_lists_deliveries_and_sends_again_for_organisers_only(
    make_event, staff, client, allow_local, settings
):
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    from .receiver import Receiver

    event, _ = make_event(players=4)
    with Receiver(fail_first=1) as receiver:
        endpoint = endpoint_for(event.season.league, staff, receiver.url, [events.ROUND_PAIRED])
        pair_public(event, staff)
        delivery = endpoint.deliveries.get()
        client.force_login(UserFactory())
        assert client.get(f"/api/webhooks/{endpoint.pk}/").status_code == 404
        assert client.post(f"/api/webhook-deliveries/{delivery.pk}/send-again/").status_code == 404
        client.force_login(staff)
        listed = client.get("/api/webhooks/").json()["results"]
        assert [e["id"] for e in listed] == [endpoint.pk] and "secret" not in listed[0]
        rows = client.get(f"/api/webhooks/{endpoint.pk}/deliveries/").json()["results"]
        assert rows[0]["status"] == "failed" and rows[0]["last_status_code"] == 500
        answer = client.post(f"/api/webhook-deliveries/{delivery.pk}/send-again/")
    assert answer.status_code == 200 and answer.json()["delivery_id"] == str(delivery.delivery_id)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED
    assert [r.answered for r in receiver.requests] == [500, 200]


def _dispatcher_marks_it_dispatched(delivery):
    # What `_send_task` does just after publishing: the worker often claims meanwhile.
    WebhookDelivery.objects.filter(pk=delivery.pk).update(dispatched_at=timezone.now())


def _another_delivery_fails_on_the_endpoint(delivery):
    # `_pause_if_failing` for another delivery of the same URL.
    WebhookEndpoint.objects.select_for_update().get(pk=delivery.endpoint_id)


@pytest.mark.parametrize(
    "lock", [_dispatcher_marks_it_dispatched, _another_delivery_fails_on_the_endpoint]
)
def test_a_delivery_locked_a_moment_by_other_work_is_sent_not_skipped(
    league, staff, receiver, allow_local, lock
):
    endpoint = endpoint_for(league, staff, receiver.url)
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, event=events.ROUND_PUBLISHED, payload={"summary": "Round 1"}
    )
    holder = hold_lock_elsewhere(lambda: lock(delivery), 0.5)
    attempt = services.deliver(delivery.pk)
    holder.join()
    assert attempt.outcome == "delivered"
    assert [r.delivery_id for r in receiver.requests] == [str(delivery.delivery_id)]
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.attempts == 1


def test_a_copy_that_waits_for_a_live_attempt_s_claim_then_skips(
    league, staff, receiver, allow_local
):
    endpoint = endpoint_for(league, staff, receiver.url)
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, event=events.ROUND_PUBLISHED, payload={"summary": "Round 1"}
    )

    def claim_by_another_worker():
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            attempts=1, leased_until=timezone.now() + timedelta(minutes=1)
        )

    holder = hold_lock_elsewhere(claim_by_another_worker, 0.5)
    assert services.deliver(delivery.pk).outcome == "skipped"
    holder.join()
    assert receiver.requests == []
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.PENDING and delivery.attempts == 1
