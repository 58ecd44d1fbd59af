"""The anonymous deck check's limit, shared by the API (`decks.api.check_deck`) and the page
(`decks.views.deck_check`), which count together."""

from django.utils.translation import gettext as _
from rest_framework.exceptions import Throttled
from rest_framework.throttling import AnonRateThrottle


class AnonymousDeckCheckThrottle(AnonRateThrottle):
    """Anonymous callers of the public deck check, on the API and the page together: `rate`
    requests per client address (signed-in users are not limited). The address is the
    client's as the proxy configuration defines it: DRF reads `REMOTE_ADDR`, which
    `config.client_address` has set from `TRUSTED_PROXY_COUNT`, never a forged
    `X-Forwarded-For`. A check of the largest accepted paste costs a few milliseconds; the
    limit keeps one client from occupying the web workers all the same. Counts live in
    Django's default cache (Redis in production: shared by every web process)."""

    scope = "deck-check"
    rate = "30/min"

    def allow_request(self, request, view):
        if super().allow_request(request, view):
            return True
        # DRF adds "Expected available in N seconds." and the Retry-After header.
        raise Throttled(
            wait=self.wait(),
            detail=_(
                "Too many deck checks from this address: at most %(count)s a minute without "
                "signing in (signed-in players are not limited)."
            )
            % {"count": self.num_requests},
        )
