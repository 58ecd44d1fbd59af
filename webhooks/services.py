"""Webhook services: registering endpoints, recording deliveries, sending them.

`emit` is called by the services whose change an event reports (`matches` directly, the
league's "registration opened" through `league.signals`), inside their transaction: it
writes one `WebhookDelivery` per endpoint that wants the event (locking no endpoint) and
dispatches `webhooks.deliver` for each after commit, by name, through the outbox
(`notifications.outbox.dispatch_after_commit`: a broker that is down costs a log line; the
one relay, `notifications.relay`, dispatches later). Deliveries are leased work of the
kind `sending.DELIVERIES`; `deliver` (in `sending`) makes one attempt at a time and says
when to try again; the task retries with exponential backoff. Every attempt carries the
same `Webhook-Id`, so delivery is at least once and receivers drop copies.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import permissions
from league.models import League
from notifications import leases, outbox
from notifications.delivery import absolute_url
from rules.errors import DomainError

from . import events as webhook_events
from . import targets
from .models import DeliveryStatus, WebhookDelivery, WebhookEndpoint, new_secret
from .sending import DELIVERIES, Attempt, backoff_seconds, body_for, deliver

__all__ = ["Attempt", "backoff_seconds", "body_for", "deliver"]  # re-exported: callers, tests

logger = logging.getLogger(__name__)


# --- Endpoints ----------------------------------------------------------------------


def _check_staff(user, league: League) -> None:
    if not permissions.is_league_organiser(user, league):
        raise DomainError(
            "not-allowed", _("Only the league's organisers can manage its webhooks."), status=403
        )


def _check_events(names) -> list[str]:
    names = list(dict.fromkeys(names or []))
    unknown = [n for n in names if n not in webhook_events.NAMES]
    if unknown or not names:
        raise DomainError(
            "webhook-events-invalid",
            _("Choose at least one event; unknown: %(unknown)s.")
            % {"unknown": ", ".join(map(str, unknown))}
            if unknown
            else _("Choose at least one event."),
        )
    return [name for name, _label in webhook_events.EVENTS if name in names]


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
    _check_staff(by_user, endpoint.league)
    endpoint.secret = new_secret()
    endpoint.save(update_fields=["secret"])
    return endpoint


@transaction.atomic
def resume_endpoint(*, endpoint: WebhookEndpoint, by_user) -> int:
    """Unpause an endpoint and dispatch its pending deliveries after commit (a delivery in
    a live attempt keeps its lease: its copy is skipped). Returns how many were waiting."""
    _check_staff(by_user, endpoint.league)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        paused_at=None, paused_reason="", consecutive_failures=0
    )
    endpoint.refresh_from_db()
    waiting = list(
        endpoint.deliveries.filter(status=DeliveryStatus.PENDING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    endpoint.deliveries.filter(pk__in=waiting).update(next_attempt_at=None)
    for pk in waiting:
        outbox.dispatch_after_commit(DELIVERIES, [pk])
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
                outbox.dispatch_after_commit(DELIVERIES, [row.pk])
    return rows


@transaction.atomic
def send_again(*, delivery: WebhookDelivery, by_user) -> WebhookDelivery:
    """ "Send again": the delivery is pending once more, with a fresh attempt budget and the
    same delivery id (a receiver that already handled it may drop it), dispatched after
    commit. Raises `not-allowed`, `webhook-endpoint-paused`, and `webhook-delivery-sending`
    while an attempt is under way (one attempt at a time: it is not interrupted)."""
    endpoint = delivery.endpoint
    _check_staff(by_user, endpoint.league)
    if endpoint.is_paused:
        raise DomainError(
            "webhook-endpoint-paused",
            _("This URL is paused after repeated failures: resume it first."),
            status=409,
        )
    # The lease is checked in the UPDATE itself: an attempt claimed a moment ago is seen.
    now = timezone.now()
    changed = (
        WebhookDelivery.objects.filter(pk=delivery.pk)
        .exclude(leased_until__gt=now)
        .update(status=DeliveryStatus.PENDING, attempts=0, next_attempt_at=None, leased_until=None)
    )
    if not changed:
        raise DomainError(
            "webhook-delivery-sending",
            _("This delivery is being sent right now; look again in a minute."),
            status=409,
        )
    outbox.dispatch_after_commit(DELIVERIES, [delivery.pk])
    delivery.refresh_from_db()
    return delivery


# --- The relay ----------------------------------------------------------------------


def due_deliveries(now=None):
    """Pending deliveries of unpaused endpoints that are due, not in a live attempt, and
    not dispatched within the grace period (`leases.due`)."""
    return leases.due(DELIVERIES, now)


def relay() -> int:
    """Dispatch the due deliveries now, through the one relay (`notifications.outbox.relay`,
    the beat job, dispatches them with the other kinds of work). Returns the count."""
    return outbox.relay(kinds=[DELIVERIES])[DELIVERIES.name]
