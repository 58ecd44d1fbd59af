"""The client's address, as the proxy configuration defines it: one function, one setting.

Behind `TRUSTED_PROXY_COUNT` proxies (1 behind the TLS proxy in production, 0 when nothing
stands in front of the site), that many entries from the right of `X-Forwarded-For` are the
proxies' own view, and the entry before them is the client. Anything further left is what
the client claimed and is not trusted: a client that sends `X-Forwarded-For: 1.2.3.4` gets
`1.2.3.4, <its address>` from the proxy, and is counted under its address.

`ClientAddressMiddleware` (first in `MIDDLEWARE`) resolves it once and writes it into
`REMOTE_ADDR`, keeping the proxy's own address in `PROXY_ADDR`. So every throttle counts
the same address: logins (django-axes, `AXES_CLIENT_IP_CALLABLE` = `client_ip`), the API's
DRF throttles (`REST_FRAMEWORK["NUM_PROXIES"] = 0`: DRF reads `REMOTE_ADDR`, never the
header) and the pages' (`decks.throttle`).
"""

from __future__ import annotations

from django.conf import settings

RESOLVED = "CLIENT_ADDR_RESOLVED"


def client_ip(request) -> str | None:
    """The client's address behind `TRUSTED_PROXY_COUNT` proxies (see the module)."""
    meta = request.META
    if meta.get(RESOLVED):
        return meta.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return meta.get("REMOTE_ADDR")


class ClientAddressMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        meta = request.META
        if not meta.get(RESOLVED):
            address = client_ip(request)
            meta["PROXY_ADDR"] = meta.get("REMOTE_ADDR")
            if address:
                meta["REMOTE_ADDR"] = address
            meta[RESOLVED] = True
        return self.get_response(request)
