"""The progressive web app: the service worker at `/sw.js` (its scope is the whole site, so
it is served from the root, not from /static/), the web manifest, and the `X-Viewer`
header the service worker uses to keep copies per account.

`X-Viewer` is a digest of the signed-in account (an HMAC with the site's secret, so it
names nobody) or "anon". The service worker wipes every kept page when it changes: a
copy of one player's pages is never shown to the next account on that phone."""

from __future__ import annotations

from pathlib import Path

from django.http import HttpResponse, JsonResponse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

STATIC = Path(__file__).resolve().parents[1] / "static"
SERVICE_WORKER = STATIC / "pwa" / "sw.js"


#: The words of the venue script and the service worker (no words in static JS): base.html
#: renders them as JSON (`<script id="venue-words" type="application/json">`), the script
#: reads them and hands them to the service worker for its offline page. `%(name)s` is
#: filled in by the script; the HTML in them is part of the sentence.
VENUE_WORDS = {
    "offline_live": gettext_lazy(
        "<strong>Offline:</strong> this page as fetched at %(time)s. It may be out of date; "
        "results you enter are kept on this phone and sent when the network is back."
    ),
    "offline_copy": gettext_lazy(
        "<strong>Offline:</strong> this is the copy fetched at %(time)s. It may be out of "
        "date; it is fetched again when the network is back."
    ),
    "offline_title": gettext_lazy("Offline"),
    "no_network": gettext_lazy("No network"),
    "no_copy": gettext_lazy(
        "This page was not opened on this phone before the network went, so there is no copy "
        "of it. The pages you opened (your match, the pairings, the standings) can be read "
        "offline: go back to them."
    ),
    "home": gettext_lazy("Home"),
    "table": gettext_lazy("Table %(table)s"),
    "match": gettext_lazy("Match"),
    "needs_network": gettext_lazy("This needs the network: try again when it is back."),
    "your_report": gettext_lazy("your report"),
    "staff_result": gettext_lazy("staff result"),
    "answer": gettext_lazy("answer %(status)s"),
    "waiting": gettext_lazy(
        "<strong>Waiting to be sent (%(count)s):</strong> kept on this phone, sent when the "
        "network is back."
    ),
    "kept": gettext_lazy("%(label)s: %(kind)s, kept at %(time)s"),
    "sent": gettext_lazy(
        "Sent: %(label)s (%(kind)s) at %(time)s. <a href='%(url)s'>Reload</a> to see it."
    ),
    "refused": gettext_lazy("Not accepted: %(label)s (%(kind)s): %(detail)s"),
}


def venue_words(request) -> dict:
    """Context processor: the venue script's words, in the request's language."""
    return {"venue_words": VENUE_WORDS}


def viewer_of(user) -> str:
    if user is None or not user.is_authenticated:
        return "anon"
    return salted_hmac("pwa-viewer", str(user.pk)).hexdigest()[:20]


class ViewerMiddleware:
    """Adds `X-Viewer` to every answer (after the authentication middleware)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response["X-Viewer"] = viewer_of(getattr(request, "user", None))
        return response


@require_safe
def service_worker(request):
    """Always revalidated, so a new version reaches phones at their next visit."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def manifest(request):
    """The web manifest. A HEAD answers with the headers only: the venue script asks it for
    the current `X-Viewer` before sending what waits on the phone."""
    if request.method == "HEAD":
        return HttpResponse(content_type="application/manifest+json")
    response = JsonResponse(
        {
            "name": "Pokémon TCG League",
            "short_name": "League",
            "description": _(
                "Pairings, your match, standings and reporting: offline at the venue."
            ),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#1d2430",
            "icons": [{"src": "/favicon.svg", "sizes": "any", "type": "image/svg+xml"}],
        },
        json_dumps_params={"ensure_ascii": False},
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "public, max-age=86400"
    return response
