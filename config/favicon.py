"""The site icon at /favicon.ico and /favicon.svg (`static/`), so a browser's first visit
gets an icon instead of a 404. Served by Django, cached for a week: no web-server rule
needed in any set-up."""

from pathlib import Path

from django.http import HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

STATIC = Path(__file__).resolve().parents[1] / "static"
ICONS = {"favicon.ico": "image/x-icon", "favicon.svg": "image/svg+xml"}


@require_GET
@cache_control(max_age=7 * 24 * 3600, public=True)
def favicon(request, name: str = "favicon.ico"):
    return HttpResponse((STATIC / name).read_bytes(), content_type=ICONS[name])
