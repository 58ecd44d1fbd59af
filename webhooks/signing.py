"""Signing a delivery, and checking one (what a receiver does; the organiser page shows
the same in a snippet).

Every delivery is a POST of a JSON body with these headers:

- `Webhook-Id`: the delivery's id, a UUID that stays the same for every attempt and every
  "send again". Delivery is at least once: a receiver that has seen an id drops the copy.
- `Webhook-Event`: the event's name (`webhooks.events`).
- `Webhook-Timestamp`: when this attempt was signed, in Unix seconds.
- `Webhook-Signature`: `sha256=` and the hex HMAC-SHA256, keyed with the endpoint's secret,
  of `<timestamp>.<body>` (the timestamp's digits, a full stop, the raw body bytes).

Replay window: a receiver accepts a request only when the signature matches and the
timestamp is within `REPLAY_WINDOW_SECONDS` (five minutes) of its own clock; each retry is
signed afresh, so a genuine late retry still passes. Within the window a captured request
could be replayed, which is what the delivery id is for.

Hand-written with `hmac` from the standard library: it is a dozen lines, and a library
(e.g. Standard Webhooks) would sign a different string than the issue asks for.
"""

from __future__ import annotations

import hashlib
import hmac
import time

REPLAY_WINDOW_SECONDS = 300
SIGNATURE_PREFIX = "sha256="


def signature(secret: str, timestamp: int | str, body: bytes) -> str:
    message = str(int(timestamp)).encode() + b"." + body
    return SIGNATURE_PREFIX + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def headers(*, secret: str, delivery_id: str, event: str, body: bytes, now: float | None = None):
    timestamp = int(now if now is not None else time.time())
    return {
        "Content-Type": "application/json",
        "User-Agent": "pokeleague-webhooks/1",
        "Webhook-Id": delivery_id,
        "Webhook-Event": event,
        "Webhook-Timestamp": str(timestamp),
        "Webhook-Signature": signature(secret, timestamp, body),
    }


def verify(
    *,
    secret: str,
    body: bytes,
    timestamp: str,
    signature_header: str,
    now: float | None = None,
    window: int = REPLAY_WINDOW_SECONDS,
) -> bool:
    """Whether a received request is genuine and fresh (the receiver's side)."""
    try:
        sent = int(timestamp)
    except (TypeError, ValueError):
        return False
    if abs((now if now is not None else time.time()) - sent) > window:
        return False
    return hmac.compare_digest(signature(secret, sent, body), signature_header or "")


#: Shown on the organiser's page: how a receiver checks a delivery (Python).
VERIFY_SNIPPET = """import hashlib, hmac, time

def verify(secret: str, body: bytes, headers) -> bool:
    ts = headers["Webhook-Timestamp"]
    if abs(time.time() - int(ts)) > 300:  # replay window: 5 minutes
        return False
    mac = hmac.new(secret.encode(), ts.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest("sha256=" + mac.hexdigest(), headers["Webhook-Signature"])

# Then drop any Webhook-Id you have already handled: delivery is at least once."""
