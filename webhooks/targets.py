"""Which URLs a webhook may be sent to (no server-side request forgery), and Discord's.

A target must be `http` or `https` with a host name that resolves only to public unicast
addresses. The refused ranges are listed here explicitly (`REFUSED_NETWORKS`, from IANA's
IPv4 and IPv6 special-purpose address registries), not left to `ipaddress.is_global`,
which calls 6to4 (`2002::/16`), site-local (`fec0::/10`) and IPv4-compatible addresses
global. An IPv6 address that carries an IPv4 one (IPv4-mapped `::ffff:0:0/96`, 6to4
`2002::/16`, NAT64 `64:ff9b::/96`, Teredo `2001::/32`) is judged by the IPv4 address it
carries (both, for Teredo's server and client), so `2002:7f00:1::` is 127.0.0.1.

The check runs when the organiser registers the URL and again before every attempt (DNS
may change); the attempt then connects to the very addresses checked (`resolve`), so a host
that re-resolves between the check and the connection (DNS rebinding) gains nothing, and
redirects are never followed. `WEBHOOK_ALLOW_PRIVATE_TARGETS = True` lifts the address check
(development, the tests' own receiver); `manage.py check --deploy` warns when it is on in
production (`webhooks.W001`).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from rules.errors import DomainError

DISCORD_URL = re.compile(
    r"^https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/(?:v\d+/)?webhooks/\d+/[\w-]+/?(?:\?.*)?$"
)

#: Every range that is not public unicast (IANA special-purpose registries, multicast,
#: reserved). IPv6 ranges that embed an IPv4 address are judged by it instead (`_embedded`).
REFUSED_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        # IPv4
        "0.0.0.0/8",  # "this network"
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local (cloud metadata: 169.254.169.254)
        "172.16.0.0/12",  # private
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # documentation (TEST-NET-1)
        "192.31.196.0/24",  # AS112-v4
        "192.52.193.0/24",  # AMT
        "192.88.99.0/24",  # deprecated 6to4 relay anycast
        "192.168.0.0/16",  # private
        "192.175.48.0/24",  # direct delegation AS112 service
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation (TEST-NET-2)
        "203.0.113.0/24",  # documentation (TEST-NET-3)
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and 255.255.255.255 (limited broadcast)
        # IPv6
        "::/96",  # unspecified, loopback, deprecated IPv4-compatible addresses
        "::ffff:0:0/96",  # IPv4-mapped (judged by its IPv4 address before this)
        "64:ff9b:1::/48",  # local-use IPv4/IPv6 translation
        "100::/64",  # discard-only
        "2001::/23",  # IETF protocol assignments (Teredo judged by its IPv4 before this)
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation
        "5f00::/16",  # segment routing (SRv6) SIDs
        "fc00::/7",  # unique local
        "fe80::/10",  # link-local
        "fec0::/10",  # site-local (deprecated, still routed inside sites)
        "ff00::/8",  # multicast
    )
)

_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def is_discord(url: str) -> bool:
    return bool(DISCORD_URL.match(url))


def private_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE_TARGETS", False))


def _embedded(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (mapped, 6to4, NAT64, Teredo)."""
    if ip.ipv4_mapped:
        return [ip.ipv4_mapped]
    if ip.sixtofour:
        return [ip.sixtofour]
    if ip.teredo:
        return list(ip.teredo)
    if ip in _NAT64:
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    return []


def is_public_address(address: str) -> bool:
    """Whether a webhook may connect to `address` (an IPv4 or IPv6 literal, with or without
    a `%zone`): public unicast, and for an address carrying an IPv4 one, that one too."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        carried = _embedded(ip)
        if carried:
            return all(is_public_address(str(v4)) for v4 in carried)
    if any(ip in network for network in REFUSED_NETWORKS):
        return False
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


@dataclass(frozen=True)
class Target:
    """A checked URL: where to connect (`addresses`, in the resolver's order) and what to ask
    for there."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]


def check_url(url: str, *, resolve: bool = True) -> None:
    """Raise `webhook-url-invalid` for a malformed URL, `webhook-target-refused` for one that
    points (or resolves) anywhere but the public internet."""
    if resolve and not private_allowed():
        resolve_url(url)
    else:
        _parse(url)


def _parse(url: str):
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DomainError("webhook-url-invalid", _("Enter an http:// or https:// address."))
    if parts.username or parts.password:
        raise DomainError("webhook-url-invalid", _("The address may not carry a user or password."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise DomainError("webhook-url-invalid", _("The address has an invalid port.")) from exc
    return parts, port


def resolve_url(url: str) -> Target:
    """Check `url` and resolve its host: the addresses an attempt connects to, every one
    public (unless `WEBHOOK_ALLOW_PRIVATE_TARGETS`). Raises as `check_url`."""
    parts, port = _parse(url)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise DomainError(
            "webhook-target-refused",
            _("%(host)s does not resolve to any address.") % {"host": parts.hostname},
        ) from exc
    addresses = tuple(dict.fromkeys(info[4][0] for info in infos))
    refused = sorted(a for a in addresses if not is_public_address(a))
    if not addresses or (refused and not private_allowed()):
        raise DomainError(
            "webhook-target-refused",
            _(
                "%(host)s points to a private or local address (%(addresses)s); "
                "webhooks go to public addresses only."
            )
            % {"host": parts.hostname, "addresses": ", ".join(refused)},
        )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, addresses)
