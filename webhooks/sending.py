"""Sending webhook deliveries: leased work of the kind `DELIVERIES` (`notifications.leases`).

`deliver` makes one attempt on one delivery: claim it with a lease (the attempt recorded
before sending; a delivery in a live attempt is skipped, so a copy from "send again" or the
relay never sends it twice at once), POST it under a total deadline (`transport.post`,
shorter than the lease, so the attempt ends before anyone else may claim the row), and
record the answer only while the row still carries this attempt's lease.

A failure is counted on the endpoint in its own short transaction, by one conditional
UPDATE that also pauses the endpoint when the count reaches `WEBHOOK_PAUSE_AFTER_FAILURES`.
No row lock on the endpoint is ever taken here: a transaction that records deliveries
(`services.emit`, which holds a key-share lock on the endpoint through the foreign key
until it commits) and a worker recording a failure cannot wait for each other, so they
cannot deadlock.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from django.db.models import Case, F, JSONField, Q, Value, When
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from notifications import leases
from notifications.language import for_each_recipient
from notifications.models import NotificationKind
from notifications.services import NotificationItem, notify
from rules.errors import DomainError
from rules.i18n import Text, ngettext, say, verbatim

from . import events as webhook_events
from . import signing, targets, transport
from .models import DeliveryStatus, WebhookDelivery, WebhookEndpoint

logger = logging.getLogger(__name__)

RESPONSE_KEPT_CHARS = 500

DELIVERIES = leases.register(
    leases.Kind(
        name="webhooks",
        model=WebhookDelivery,
        task="webhooks.deliver",
        # Deliveries of a paused endpoint wait until it is resumed.
        pending=Q(status=DeliveryStatus.PENDING, endpoint__paused_at__isnull=True),
        due_field="next_attempt_at",
        lease_field="leased_until",
        attempts_field="attempts",
        dispatched_field="dispatched_at",
        lease_setting="WEBHOOK_LEASE_SECONDS",
        lease_default=60,
        base_setting="WEBHOOK_RETRY_BASE_SECONDS",
        base_default=30,
        cap_setting="WEBHOOK_RETRY_MAX_SECONDS",
        cap_default=3600,
    )
)


@dataclass
class Attempt:
    outcome: str  # "delivered", "retry", "failed", "skipped", "paused", "gone"
    retry_in: float = 0


def backoff_seconds(attempts: int) -> float:
    """Exponential: base × 2^(attempts−1), capped (`leases.backoff`)."""
    return DELIVERIES.backoff(attempts)


def deadline_seconds() -> float:
    """The whole attempt, from connecting to the end of the answer: `WEBHOOK_DEADLINE_SECONDS`,
    and never more than two thirds of the lease (the rest is for recording the answer)."""
    return max(
        0.5,
        min(
            leases.setting("WEBHOOK_DEADLINE_SECONDS", 10),
            DELIVERIES.lease_seconds() * 2 / 3,
        ),
    )


def body_for(delivery: WebhookDelivery) -> bytes:
    """The bytes POSTed: our JSON, or for a Discord webhook URL a message Discord takes
    (`content` and one embed). The same bytes on every attempt."""
    endpoint, payload = delivery.endpoint, delivery.payload
    if targets.is_discord(endpoint.url):
        embed = {
            "title": str(webhook_events.LABELS.get(delivery.event, delivery.event))[:256],
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


def _post(delivery: WebhookDelivery) -> transport.Answer:
    """One POST to the addresses the target check approves now."""
    endpoint = delivery.endpoint
    try:
        target = targets.resolve_url(endpoint.url)
    except DomainError as exc:
        error = verbatim(f"{exc.code}: {exc.message}")
        return transport.Answer(None, "", str(error), error)
    body = body_for(delivery)
    headers = signing.headers(
        secret=endpoint.secret,
        delivery_id=str(delivery.delivery_id),
        event=delivery.event,
        body=body,
    )
    return transport.post(
        target,
        body=body,
        headers=headers,
        deadline_seconds=deadline_seconds(),
        connect_timeout=leases.setting("WEBHOOK_CONNECT_TIMEOUT_SECONDS", 3),
    )


def deliver(delivery_pk: int) -> Attempt:
    """Send one pending delivery once: claim it with a lease (recording the attempt before
    sending), POST it, record the answer. A 2xx delivers it and resets the endpoint's
    failure count; anything else counts a failure (pausing the endpoint after
    `WEBHOOK_PAUSE_AFTER_FAILURES` in a row and telling the organisers) and makes the
    delivery due again after `backoff_seconds`, or `failed` after `WEBHOOK_MAX_ATTEMPTS`.
    A delivery (or endpoint) deleted during the attempt is "gone": nothing to record."""
    started = timezone.now()
    delivery = leases.claim(DELIVERIES, delivery_pk, select_related=("endpoint__league",))
    if delivery is None:
        return Attempt("skipped")
    answer = _post(delivery)
    fields = {
        "last_attempt_at": started,
        "last_status_code": answer.status,
        "last_response": answer.text[:RESPONSE_KEPT_CHARS],
        "last_error": answer.error,
        "last_error_text": answer.error_text.to_dict() if answer.error_text else None,
    }
    if not answer.error:
        if not leases.finish(
            DELIVERIES,
            delivery,
            status=DeliveryStatus.DELIVERED,
            delivered_at=timezone.now(),
            **fields,
        ):
            return Attempt("gone")
        # Conditional: a row already at 0 is neither written nor waited for.
        WebhookEndpoint.objects.filter(pk=delivery.endpoint_id, consecutive_failures__gt=0).update(
            consecutive_failures=0
        )
        return Attempt("delivered")
    logger.warning(
        "webhook delivery %s to %s failed (attempt %d): %s",
        delivery.delivery_id,
        delivery.endpoint.url,
        delivery.attempts,
        answer.error,
    )
    if delivery.attempts >= leases.setting("WEBHOOK_MAX_ATTEMPTS", 8):
        retry_in = None
        recorded = leases.finish(DELIVERIES, delivery, status=DeliveryStatus.FAILED, **fields)
    else:
        retry_in = leases.retry_later(DELIVERIES, delivery, **fields)
        recorded = retry_in is not None
    if not recorded:
        return Attempt("gone")
    paused = count_failure(delivery.endpoint, answer.error_text or verbatim(answer.error))
    if retry_in is None:
        return Attempt("failed")
    return Attempt("paused" if paused else "retry", retry_in)


def count_failure(endpoint: WebhookEndpoint, error: Text | str) -> bool:
    """Count one failed attempt on `endpoint` and pause it when the count reaches
    `WEBHOOK_PAUSE_AFTER_FAILURES`: one conditional UPDATE, in its own transaction, with no
    lock taken before it (see the module docstring). Tells the organisers when this call
    paused it. Returns whether the endpoint is paused (False if it was deleted)."""
    limit = int(leases.setting("WEBHOOK_PAUSE_AFTER_FAILURES", 10))
    now = timezone.now()
    why = say(
        ngettext(
            "%(count)s failed attempt in a row; the last: %(error)s",
            "%(count)s failed attempts in a row; the last: %(error)s",
            limit,
        ),
        count=limit,
        error=error,
    )
    reason, reason_text = str(why)[:300], why.to_dict()
    # The SET expressions read the row as it was: `consecutive_failures` before the + 1.
    reaches = When(paused_at__isnull=True, consecutive_failures__gte=limit - 1, then=Value(now))
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        consecutive_failures=F("consecutive_failures") + 1,
        paused_at=Case(reaches, default=F("paused_at")),
        paused_reason=Case(
            When(paused_at__isnull=True, consecutive_failures__gte=limit - 1, then=Value(reason)),
            default=F("paused_reason"),
        ),
        paused_reason_text=Case(
            When(
                paused_at__isnull=True,
                consecutive_failures__gte=limit - 1,
                then=Value(reason_text, output_field=JSONField()),
            ),
            default=F("paused_reason_text"),
        ),
    )
    paused_at = (
        WebhookEndpoint.objects.filter(pk=endpoint.pk).values_list("paused_at", flat=True).first()
    )
    if paused_at is not None and paused_at == now:
        endpoint.paused_at, endpoint.paused_reason = paused_at, reason
        endpoint.paused_reason_text = reason_text
        _tell_organisers(endpoint)
    return paused_at is not None


def _tell_organisers(endpoint: WebhookEndpoint) -> None:
    league = endpoint.league
    link = reverse("webhook-endpoint", args=[league.slug, endpoint.pk])
    stamp = int(endpoint.paused_at.timestamp())
    notify(
        kind=NotificationKind.WEBHOOK_PAUSED,
        items=for_each_recipient(
            league.organisers.select_related("player").order_by("pk"),
            None,
            lambda user: NotificationItem(
                recipient_id=user.pk,
                key=f"webhook-paused:{endpoint.pk}:{stamp}:user:{user.pk}",
                subject=_("Webhook paused: %(endpoint)s") % {"endpoint": endpoint},
                body=_(
                    "%(league)s: the webhook to %(url)s kept failing and is paused "
                    "(%(reason)s). Its deliveries wait until you resume it."
                )
                % {"league": league.name, "url": endpoint.url, "reason": endpoint.worded_pause},
                url=link,
            ),
        ),
    )
