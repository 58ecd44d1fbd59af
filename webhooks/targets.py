"""Which URLs a webhook may be sent to (no server-side request forgery), and Discord's.

A target must be `http` or `https` with a host name that resolves only to public
addresses: every address the host resolves to is checked with `ipaddress`, and a private,
loopback, link-local, multicast, reserved or unspecified one (IPv4 or IPv6, including
IPv4-mapped IPv6) refuses the URL. The check runs when the organiser registers the URL and
again before every attempt (DNS may change), and redirects are never followed.
`WEBHOOK_ALLOW_PRIVATE_TARGETS = True` lifts the address check (development, the tests'
own receiver). A host that re-resolves between the check and the connection (DNS
rebinding) is the remaining gap; the short timeouts and no redirects bound what it buys.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import urlsplit

from django.conf import settings

from rules.errors import DomainError

DISCORD_URL = re.compile(
    r"^https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/(?:v\d+/)?webhooks/\d+/[\w-]+/?(?:\?.*)?$"
)


def is_discord(url: str) -> bool:
    return bool(DISCORD_URL.match(url))


def private_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE_TARGETS", False))


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


def check_url(url: str, *, resolve: bool = True) -> None:
    """Raise `webhook-url-invalid` for a malformed URL, `webhook-target-refused` for one that
    points (or resolves) anywhere but the public internet."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DomainError("webhook-url-invalid", "Enter an http:// or https:// address.")
    if parts.username or parts.password:
        raise DomainError("webhook-url-invalid", "The address may not carry a user or password.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise DomainError("webhook-url-invalid", "The address has an invalid port.") from exc
    if private_allowed() or not resolve:
        return
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise DomainError(
            "webhook-target-refused", f"{parts.hostname} does not resolve to any address."
        ) from exc
    addresses = {info[4][0] for info in infos}
    refused = sorted(a for a in addresses if not _is_public(a))
    if refused or not addresses:
        raise DomainError(
            "webhook-target-refused",
            f"{parts.hostname} points to a private or local address ({', '.join(refused)}); "
            "webhooks go to public addresses only.",
        )
