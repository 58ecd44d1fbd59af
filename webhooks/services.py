"""Webhook services: registering endpoints, recording deliveries, sending them.

`emit` is called by the services whose change an event reports (`matches` directly, the
league's "registration opened" through `league.signals`), inside their transaction: it
writes one `WebhookDelivery` per endpoint that wants the event and dispatches
`webhooks.deliver` for each after commit (`notifications.outbox.dispatch`: a broker that is
down costs a log line; `relay` dispatches later). `deliver` sends one delivery, at most
one attempt at a time (a lease), and says when to try again; the task retries with
exponential backoff. Every attempt carries the same `Webhook-Id`, so delivery is at least
once and receivers drop copies.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import timedelta

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from league import permissions
from league.models import League
from notifications import outbox
from notifications.delivery import absolute_url
from notifications.models import NotificationKind
from notifications.services import NotificationItem, notify
from rules.errors import DomainError

from . import events as webhook_events
from . import signing, targets
from .models import DeliveryStatus, WebhookDelivery, WebhookEndpoint

logger = logging.getLogger(__name__)

RESPONSE_KEPT_CHARS = 500


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


# --- Endpoints ----------------------------------------------------------------------


def _check_staff(user, league: League) -> None:
    if not permissions.is_league_organiser(user, league):
        raise DomainError(
            "not-allowed", "Only the league's organisers can manage its webhooks.", status=403
        )


def _check_events(names) -> list[str]:
    names = list(dict.fromkeys(names or []))
    unknown = [n for n in names if n not in webhook_events.NAMES]
    if unknown or not names:
        raise DomainError(
            "webhook-events-invalid",
            "Choose at least one event"
            + (f"; unknown: {', '.join(map(str, unknown))}." if unknown else "."),
        )
    return [name for name, _ in webhook_events.EVENTS if name in names]


@transaction.atomic
def create_endpoint(
    *, league: League, by_user, url: str, events: list[str], description: str = ""
) -> WebhookEndpoint:
    """Register `url` for `events` of `league` (its organisers). Writes one endpoint with a
    new secret. Raises `not-allowed`, `webhook-url-invalid`, `webhook-target-refused`
    (a private or loopback address, unless `WEBHOOK_ALLOW_PRIVATE_TARGETS`),
    `webhook-events-invalid`."""
    _check_staff(by_user, league)
    url = (url or "").strip()
    targets.check_url(url)
    return WebhookEndpoint.objects.create(
        league=league,
        url=url,
        events=_check_events(events),
        description=(description or "").strip()[:120],
        created_by=by_user if getattr(by_user, "pk", None) else None,
    )


@transaction.atomic
def update_endpoint(
    *, endpoint: WebhookEndpoint, by_user, events: list[str] | None = None, description=None
) -> WebhookEndpoint:
    """Change which events an endpoint wants, or its description."""
    _check_staff(by_user, endpoint.league)
    if events is not None:
        endpoint.events = _check_events(events)
    if description is not None:
        endpoint.description = description.strip()[:120]
    endpoint.save(update_fields=["events", "description"])
    return endpoint


@transaction.atomic
def delete_endpoint(*, endpoint: WebhookEndpoint, by_user) -> None:
    _check_staff(by_user, endpoint.league)
    endpoint.delete()


@transaction.atomic
def rotate_secret(*, endpoint: WebhookEndpoint, by_user) -> WebhookEndpoint:
    """A new secret; attempts from now on are signed with it."""
    from .models import new_secret

    _check_staff(by_user, endpoint.league)
    endpoint.secret = new_secret()
    endpoint.save(update_fields=["secret"])
    return endpoint


@transaction.atomic
def resume_endpoint(*, endpoint: WebhookEndpoint, by_user) -> int:
    """Unpause an endpoint and dispatch its pending deliveries after commit. Returns how
    many were waiting."""
    _check_staff(by_user, endpoint.league)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        paused_at=None, paused_reason="", consecutive_failures=0
    )
    endpoint.refresh_from_db()
    waiting = list(
        endpoint.deliveries.filter(status=DeliveryStatus.PENDING).values_list("pk", flat=True)
    )
    endpoint.deliveries.filter(pk__in=waiting).update(next_attempt_at=None, leased_until=None)
    for pk in waiting:
        _dispatch_on_commit(pk)
    return len(waiting)


# --- Recording ----------------------------------------------------------------------


def subscribed(*, season_id: int, event: str) -> bool:
    """Whether any endpoint of the season's league wants `event` (one query): callers skip
    building the event's facts when none does."""
    wanted = WebhookEndpoint.objects.filter(league__seasons=season_id).values_list(
        "events", flat=True
    )
    return any(event in names for names in wanted)


def emit(
    *, league: League | int, event: str, summary: str, data: dict, url: str = ""
) -> list[WebhookDelivery]:
    """Record `event` for every endpoint of `league` that wants it, in the caller's
    transaction, and dispatch each delivery after commit. `summary` is one human line
    (Discord shows it); `data` the event's facts; `url` a link into the site (made
    absolute). Paused endpoints get the delivery too; it waits until they are resumed."""
    if event not in webhook_events.NAMES:
        raise ValueError(f"unknown webhook event {event!r}")  # a caller's bug
    league_id = league if isinstance(league, int) else league.pk
    endpoints = [
        e for e in WebhookEndpoint.objects.filter(league_id=league_id) if event in e.events
    ]
    if not endpoints:
        return []
    payload = {
        "summary": summary[:1000],
        "url": absolute_url(url) if url else "",
        "data": data,
    }
    with transaction.atomic():
        rows = WebhookDelivery.objects.bulk_create(
            WebhookDelivery(endpoint=e, event=event, payload=payload) for e in endpoints
        )
        for row, endpoint in zip(rows, endpoints, strict=True):
            if not endpoint.is_paused:
                _dispatch_on_commit(row.pk)
    return rows


def _dispatch_on_commit(delivery_id: int, countdown: float = 0) -> None:
    outbox.on_commit_dispatch(
        lambda: _send_task(delivery_id, countdown), f"webhook delivery #{delivery_id}"
    )


def _send_task(delivery_id: int, countdown: float = 0) -> None:
    from celery import current_app

    from .tasks import deliver

    deliver.apply_async(args=[delivery_id], countdown=countdown or None)
    if not current_app.conf.task_always_eager:
        WebhookDelivery.objects.filter(pk=delivery_id).update(dispatched_at=timezone.now())


@transaction.atomic
def send_again(*, delivery: WebhookDelivery, by_user) -> WebhookDelivery:
    """ "Send again": the delivery is pending once more, with a fresh attempt budget and the
    same delivery id (a receiver that already handled it may drop it), dispatched after
    commit. Raises `not-allowed`, `webhook-endpoint-paused`."""
    endpoint = delivery.endpoint
    _check_staff(by_user, endpoint.league)
    if endpoint.is_paused:
        raise DomainError(
            "webhook-endpoint-paused",
            "This URL is paused after repeated failures: resume it first.",
            status=409,
        )
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.PENDING, attempts=0, next_attempt_at=None, leased_until=None
    )
    _dispatch_on_commit(delivery.pk)
    delivery.refresh_from_db()
    return delivery


# --- Sending ------------------------------------------------------------------------


def body_for(delivery: WebhookDelivery) -> bytes:
    """The bytes POSTed: our JSON, or for a Discord webhook URL a message Discord takes
    (`content` and one embed). The same bytes on every attempt."""
    endpoint, payload = delivery.endpoint, delivery.payload
    if targets.is_discord(endpoint.url):
        embed = {
            "title": webhook_events.LABELS.get(delivery.event, delivery.event)[:256],
            "description": payload.get("summary", "")[:4000],
            "footer": {"text": f"{delivery.event} · {delivery.delivery_id}"},
            "timestamp": delivery.created_at.isoformat(),
        }
        if payload.get("url"):
            embed["url"] = payload["url"]
        document = {
            "content": payload.get("summary", "")[:2000],
            "embeds": [embed],
            "allowed_mentions": {"parse": []},
        }
    else:
        document = {
            "id": str(delivery.delivery_id),
            "event": delivery.event,
            "created_at": delivery.created_at.isoformat(),
            "league": {"id": endpoint.league_id, "slug": endpoint.league.slug},
            "summary": payload.get("summary", ""),
            "url": payload.get("url", ""),
            "data": payload.get("data", {}),
        }
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode()


@dataclass
class Attempt:
    outcome: str  # "delivered", "retry", "failed", "skipped", "paused"
    retry_in: float = 0


def backoff_seconds(attempts: int) -> float:
    """Exponential: base × 2^(attempts−1), capped."""
    return min(
        _setting("WEBHOOK_RETRY_MAX_SECONDS", 3600),
        _setting("WEBHOOK_RETRY_BASE_SECONDS", 30) * 2 ** min(max(attempts - 1, 0), 20),
    )


def _claim(delivery_pk: int) -> WebhookDelivery | None:
    """Record an attempt (attempts + 1, a lease) and commit, if the delivery is pending,
    due and not leased by a live attempt; None otherwise.

    The lock waits, it never skips: the row is locked for a moment by work that is no
    attempt (`_send_task` marking it dispatched just after publishing, so the worker often
    arrives during that update), and skipping would drop the delivery until the relay.
    Only the delivery's row is locked (`of`), never its endpoint or league, which other
    deliveries and pages lock. A second copy of the task waits for the first claim to
    commit, then sees its lease."""
    now = timezone.now()
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update(of=("self",))
            .select_related("endpoint__league")
            .filter(pk=delivery_pk, status=DeliveryStatus.PENDING)
            .filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now))
            .first()
        )
        if delivery is None or delivery.endpoint.is_paused:
            return None
        delivery.attempts += 1
        delivery.last_attempt_at = now
        delivery.leased_until = now + timedelta(seconds=_setting("WEBHOOK_LEASE_SECONDS", 60))
        delivery.save(update_fields=["attempts", "last_attempt_at", "leased_until"])
    return delivery


def _post(delivery: WebhookDelivery) -> tuple[int | None, str, str]:
    """One POST: (status code or None, the start of the answer, an error or '')."""
    endpoint = delivery.endpoint
    try:
        targets.check_url(endpoint.url)
    except DomainError as exc:
        return None, "", f"{exc.code}: {exc.message}"
    body = body_for(delivery)
    headers = signing.headers(
        secret=endpoint.secret,
        delivery_id=str(delivery.delivery_id),
        event=delivery.event,
        body=body,
    )
    timeout = (
        _setting("WEBHOOK_CONNECT_TIMEOUT_SECONDS", 3),
        _setting("WEBHOOK_READ_TIMEOUT_SECONDS", 10),
    )
    try:
        with requests.post(
            endpoint.url,
            data=body,
            headers=headers,
            timeout=timeout,
            allow_redirects=False,
            stream=True,
        ) as response:
            text = response.raw.read(RESPONSE_KEPT_CHARS * 4, decode_content=True)
            text = text.decode(response.encoding or "utf-8", "replace")[:RESPONSE_KEPT_CHARS]
            error = "" if 200 <= response.status_code < 300 else f"HTTP {response.status_code}"
            if 300 <= response.status_code < 400:
                error += " (redirects are not followed)"
            return response.status_code, text, error
    except requests.RequestException as exc:
        return None, "", f"{type(exc).__name__}: {exc}"[:1000]


def deliver(delivery_pk: int) -> Attempt:
    """Send one pending delivery once: claim it with a lease (recording the attempt before
    sending), POST it, record the answer. A 2xx delivers it and resets the endpoint's
    failure count; anything else counts a failure, pauses the endpoint after
    `WEBHOOK_PAUSE_AFTER_FAILURES` in a row (telling the organisers), and makes the delivery
    due again after `backoff_seconds`, or `failed` after `WEBHOOK_MAX_ATTEMPTS`."""
    delivery = _claim(delivery_pk)
    if delivery is None:
        return Attempt("skipped")
    code, text, error = _post(delivery)
    now = timezone.now()
    fields = {"last_status_code": code, "last_response": text, "last_error": error}
    if not error:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=DeliveryStatus.DELIVERED, delivered_at=now, leased_until=None, **fields
        )
        WebhookEndpoint.objects.filter(pk=delivery.endpoint_id).update(consecutive_failures=0)
        return Attempt("delivered")
    logger.warning(
        "webhook delivery %s to %s failed (attempt %d): %s",
        delivery.delivery_id,
        delivery.endpoint.url,
        delivery.attempts,
        error,
    )
    with transaction.atomic():
        WebhookEndpoint.objects.filter(pk=delivery.endpoint_id).update(
            consecutive_failures=F("consecutive_failures") + 1
        )
        paused = _pause_if_failing(delivery.endpoint_id, error)
        if delivery.attempts >= _setting("WEBHOOK_MAX_ATTEMPTS", 8):
            WebhookDelivery.objects.filter(pk=delivery.pk).update(
                status=DeliveryStatus.FAILED, leased_until=None, **fields
            )
            return Attempt("failed")
        retry_in = backoff_seconds(delivery.attempts)
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            leased_until=None, next_attempt_at=now + timedelta(seconds=retry_in), **fields
        )
    return Attempt("paused" if paused else "retry", retry_in)


def _pause_if_failing(endpoint_pk: int, error: str) -> bool:
    endpoint = (
        WebhookEndpoint.objects.select_for_update().select_related("league").get(pk=endpoint_pk)
    )
    limit = int(_setting("WEBHOOK_PAUSE_AFTER_FAILURES", 10))
    if endpoint.is_paused:
        return True
    if endpoint.consecutive_failures < limit:
        return False
    endpoint.paused_at = timezone.now()
    endpoint.paused_reason = f"{limit} failed attempts in a row; the last: {error}"[:300]
    endpoint.save(update_fields=["paused_at", "paused_reason"])
    _tell_organisers(endpoint)
    return True


def _tell_organisers(endpoint: WebhookEndpoint) -> None:
    from django.urls import reverse

    league = endpoint.league
    link = reverse("webhook-endpoint", args=[league.slug, endpoint.pk])
    stamp = int(endpoint.paused_at.timestamp())
    notify(
        kind=NotificationKind.WEBHOOK_PAUSED,
        items=[
            NotificationItem(
                recipient_id=user_id,
                key=f"webhook-paused:{endpoint.pk}:{stamp}:user:{user_id}",
                subject=f"Webhook paused: {endpoint}",
                body=(
                    f"{league.name}: the webhook to {endpoint.url} kept failing and is paused "
                    f"({endpoint.paused_reason}). Its deliveries wait until you resume it."
                ),
                url=link,
            )
            for user_id in league.organisers.values_list("pk", flat=True)
        ],
    )


# --- The relay ----------------------------------------------------------------------


def due_deliveries(now=None):
    """Pending deliveries of unpaused endpoints that are due, not in a live attempt, and
    not dispatched within the grace period."""
    now = now or timezone.now()
    grace = now - timedelta(seconds=_setting("NOTIFICATION_RELAY_GRACE_SECONDS", 20))
    return WebhookDelivery.objects.filter(
        status=DeliveryStatus.PENDING, endpoint__paused_at__isnull=True
    ).filter(
        Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now),
        Q(leased_until__isnull=True) | Q(leased_until__lt=now),
        Q(dispatched_at__isnull=True) | Q(dispatched_at__lt=grace),
    )


def relay() -> int:
    """Dispatch every due delivery (whose dispatch failed, whose message was lost, or whose
    worker died): the beat job. Stops at the first broker failure. Returns the count."""
    count = 0
    for pk in due_deliveries().order_by("pk").values_list("pk", flat=True)[:1000]:
        if not outbox.dispatch(lambda pk=pk: _send_task(pk), f"webhook delivery #{pk}"):
            break
        count += 1
    if count:
        logger.info("webhook relay dispatched %d deliveries", count)
    return count
