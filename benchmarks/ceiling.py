"""The ceiling of `bench_load.py`: the site's own settings and full middleware stack, the
same gunicorn configuration and the same cache, serving one bare view that returns bytes
read from the cache, compressed once. Nothing a page can do is faster on this machine, so
every page's throughput is printed as a share of this one, measured in the same run.

    DJANGO_SETTINGS_MODULE=ceiling gunicorn ceiling:application   (PYTHONPATH: site, benchmarks/)

`GET /ceiling/load/?url=<a page of the site>` fetches that page once, gzipped as a phone asks
for it, and keeps its bytes in the cache; `GET /ceiling/` then answers them from there.
Works for any checkout of the site (`bench_load.py --root`), since it imports only
`config.settings`.
"""

from __future__ import annotations

import urllib.request

from config.settings import *  # noqa: F403  (the site's settings, every middleware)

ROOT_URLCONF = "ceiling"
KEY = "bench-ceiling-body"


def ceiling(request):
    from django.core.cache import cache
    from django.http import HttpResponse

    body = cache.get(KEY)
    response = HttpResponse(body, content_type="text/html; charset=utf-8")
    response["Content-Encoding"] = "gzip"
    response["Vary"] = "Accept-Encoding"
    return response


def load(request):
    from django.core.cache import cache
    from django.http import HttpResponse

    req = urllib.request.Request(
        request.GET["url"], headers={"Accept-Encoding": "gzip", "X-Forwarded-Proto": "https"}
    )
    with urllib.request.urlopen(req) as answer:
        body = answer.read()
        encoding = answer.headers.get("Content-Encoding")
    if encoding != "gzip":
        import gzip

        body = gzip.compress(body)
    cache.set(KEY, body, timeout=None)
    return HttpResponse(f"{len(body)} bytes", content_type="text/plain")


from django.urls import path  # noqa: E402

urlpatterns = [path("ceiling/", ceiling), path("ceiling/load/", load)]


def application(environ, start_response):
    """The WSGI entry (built on the first request, after the settings above exist)."""
    global _APP
    if _APP is None:
        from django.core.wsgi import get_wsgi_application

        _APP = get_wsgi_application()
    return _APP(environ, start_response)


_APP = None
