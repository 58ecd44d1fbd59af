"""One body for every viewer: the public pages of a round, served whole from the cache.

A *public page* is a URL whose answer is the same for everyone who may see it: the pairings
by table and by name (and per division), the projector, the standings, the top-cut bracket,
the round's and the standings' JSON, and the stream overlay's feed. For each version of the
event (`matches.page_cache.version`) such a page is built once, as an anonymous visitor
would see it, and kept in the shared cache as complete responses: the plain body, gzip and
Brotli, each with its ETag. `PublicPageMiddleware` sits above the session, authentication,
CSRF and messages middleware: on a hit it answers with two cache reads (the version, then
the body in the encoding the client accepts), no database query, no template, no
compression, and it never reads the session, so a signed-in player costs what an anonymous
one does and keeps their session (nothing is written to it).

What is personal comes from one small answer per user, `GET /events/<id>/me.json`
(`matches.views.me`, `Cache-Control: private, no-store`), which `matches/static/matches/
me.js` fetches and fills in. Per page:

- **Pairings** (by table, by name, a division): "your table" (the card above the list and
  the highlighted row), the inbox badge and the signed-in menu, the staff's links
  (dashboard, results grid) come from `me.json`. `?find=` (a search) is answered per
  request by the view, so "find my table" works without JavaScript.
- **Projector**: nothing personal; the clock runs in the page from the round's end time.
- **Standings, bracket**: the published ones for everyone. The staff's live, unpublished
  standings and a paired but unpublished top cut are per-user pages at `?live=1`, linked
  from `me.json` for staff: they must stay server-rendered per user because nobody else may
  see them.
- **JSON** (round, standings, overlay): the public answer for everyone; the standings JSON
  is answered per request to a client with credentials (a session or a token), since staff
  see the live, unpublished standings there; a client asking for HTML (the browsable API)
  is answered per request.
- A round not yet published, or a draft event, is not public: the anonymous build answers
  404, nothing is stored, and the view answers per request (the staff's preview).

Any query parameter a page does not list, or a value it does not accept, sends the request
to the view as before, so the cache keeps a bounded number of bodies per version. So does a
request with a flash message waiting (the `messages` cookie, after a form), so the message
is shown; the staff's corrections panel (`matches.views.corrections`) is on their `?live=1`
view, where its forms lead back.

Languages: a body is built once per version *and language*. `PublicPageMiddleware` runs
above the session and `LocaleMiddleware`, so it asks for the reader's language as
`LocaleMiddleware` does (`translation.get_language_from_request`: the language cookie,
else Accept-Language, else the site's; never the session), keys the body by it, builds it
with that language active, and answers with `Content-Language` and `Vary:
Accept-Language` as `LocaleMiddleware` would. A shared cache keys by the language the same
way (`deploy/nginx/micro-cache.conf` maps the cookie and Accept-Language to one of the
site's languages).

A page names its version (`X-Event-Version`, and `data-event-version` on the HTML), and its
body is built from what the database held at that version or later (the version is read
before the build, and every change bumps it after its commit), so a copy served stale by a
proxy never shows a result older than the version it names; `me.js` compares it with the
version `me.json` reports and offers the newer page.
"""

from __future__ import annotations

import copy
import gzip
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from importlib import import_module

import brotli
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation

from . import page_cache, row_events

#: How long a shared cache (nginx, a CDN) may hold a public page. Phones revalidate every
#: time (max-age=0) and get 304s. "Serve stale while revalidating" is said to shared caches
#: only (nginx: `proxy_cache_use_stale updating`; a CDN: `CDN-Cache-Control`, RFC 9213): a
#: phone's own cache must not show a stale copy as if it were fresh, offline or not (the
#: venue's service worker marks its offline copies).
SHARED_MAX_AGE = 3
STALE_WHILE_REVALIDATE = 30
CACHE_CONTROL = f"public, max-age=0, s-maxage={SHARED_MAX_AGE}"
CDN_CACHE_CONTROL = f"max-age={SHARED_MAX_AGE}, stale-while-revalidate={STALE_WHILE_REVALIDATE}"

ENCODINGS = ("br", "gzip", "")
#: The cookie of Django's message storage (`CookieStorage.cookie_name`).
MESSAGE_COOKIE = "messages"


@dataclass(frozen=True)
class Page:
    """A public page: which query parameters pick a variant (name → accepted values), how
    to find its event from the URL, and whether it is JSON."""

    params: dict[str, Callable[[str], bool]] = field(default_factory=dict)
    event_of: Callable[[dict], int | None] = lambda kwargs: kwargs.get("event_id")
    json: bool = False
    #: Answered per request to a client with credentials (a session or a token): the
    #: standings JSON, where staff also see the live, unpublished standings.
    own_answer_when_signed_in: bool = False


PAGES: dict[str, Page] = {}
#: Every public page's path starts so (any other request skips the URL lookup).
PREFIXES = ("/events/", "/api/rounds/", "/api/events/")


def register(view_name: str, page: Page) -> None:
    """Serve the URL named `view_name` (with its namespace) as a public page."""
    PAGES[view_name] = page


def one_of(*values: str) -> Callable[[str], bool]:
    return lambda value: value in values


_NUMBER = re.compile(r"^\d{1,6}$")
_KEY = re.compile(r"^[a-z+]{1,12}$")


def number(value: str) -> bool:
    return bool(_NUMBER.match(value))


def division_key(value: str) -> bool:
    return bool(_KEY.match(value))


def _entry_key(
    event_id: int, version: int, name: str, variant: str, encoding: str, language: str
) -> str:
    plain = encoding or "plain"
    return f"event-pages:{event_id}:{version}:page:{name}:{variant}:{language}:{plain}"


def language_of(request) -> str:
    """The reader's language, as `LocaleMiddleware` finds it (the language cookie, else
    Accept-Language, else `LANGUAGE_CODE`), without the session."""
    if not settings.USE_I18N:
        return settings.LANGUAGE_CODE
    return translation.get_language_from_request(request)


def _accepted(request) -> str:
    accept = request.META.get("HTTP_ACCEPT_ENCODING", "")
    if "br" in accept:
        return "br"
    if "gzip" in accept:
        return "gzip"
    return ""


def _response(entry: tuple, encoding: str, version: int, language: str) -> HttpResponse:
    etag, content_type, body = entry
    response = HttpResponse(body, content_type=content_type)
    if encoding:
        response["Content-Encoding"] = encoding
    response["Content-Length"] = str(len(body))
    response["ETag"] = etag
    response["Vary"] = "Accept-Encoding, Accept-Language"
    response["Content-Language"] = language
    response["Cache-Control"] = CACHE_CONTROL
    response["CDN-Cache-Control"] = CDN_CACHE_CONTROL
    response["X-Event-Version"] = str(version)
    response["X-Frame-Options"] = settings.X_FRAME_OPTIONS
    return response


def _anonymous(request, match, version: int):
    """The request as an anonymous visitor would make it: no cookies, no credentials."""
    anon = copy.copy(request)
    anon.META = {
        k: v
        for k, v in request.META.items()
        if k
        not in ("HTTP_COOKIE", "HTTP_AUTHORIZATION", "HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE")
    }
    anon.COOKIES = {}
    anon.user = AnonymousUser()
    anon.session = import_module(settings.SESSION_ENGINE).SessionStore()
    anon.resolver_match = match
    anon.public_body = True
    anon.event_version = version
    return anon


def build(request, match, page: Page, version: int, language: str) -> dict[str, tuple] | None:
    """The page as an anonymous visitor reading `language` sees it, in every encoding;
    None when it is not public (not found, not allowed, or any answer but a plain 200)."""
    anon = _anonymous(request, match, version)
    anon.LANGUAGE_CODE = language
    if page.json:
        anon.META["HTTP_ACCEPT"] = "application/json"
    try:
        with translation.override(language):
            response = match.func(anon, *match.args, **match.kwargs)
            if hasattr(response, "render") and callable(response.render):
                response = response.render()
    except (Http404, PermissionDenied):
        return None
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    if "CSRF_COOKIE" in anon.META or getattr(request, "_csp_nonce", None):
        # A CSRF token or a CSP nonce is one request's: such a body is never shared.
        return None
    plain = response.content
    content_type = response["Content-Type"]
    digest = hashlib.blake2b(plain, digest_size=12).hexdigest()
    return {
        "": (f'"{digest}"', content_type, plain),
        "gzip": (f'"{digest}-gz"', content_type, gzip.compress(plain, 6, mtime=0)),
        "br": (f'"{digest}-br"', content_type, brotli.compress(plain, quality=5)),
    }


def _variant(request, page: Page) -> str | None:
    """The query string's key, or None when it has anything the page does not accept."""
    parts = []
    for name, values in request.GET.lists():
        accept = page.params.get(name)
        if accept is None or len(values) != 1 or not accept(values[0]):
            return None
        parts.append(f"{name}={values[0]}")
    return "&".join(sorted(parts))


def lookup(request) -> tuple[int, str, str, Page, object] | None:
    """(event, name, variant, page, match) when the request asks for a public page."""
    if request.method not in ("GET", "HEAD") or not request.path_info.startswith(PREFIXES):
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    request.page_resolver_match = match  # `own_pages` asks the same of the same path
    page = PAGES.get(match.view_name)
    if page is None:
        return None
    if MESSAGE_COOKIE in request.COOKIES:
        return None  # a message waits for this viewer (after a form): their own page shows it
    if page.json and "text/html" in request.META.get("HTTP_ACCEPT", ""):
        return None  # the browsable API
    if page.own_answer_when_signed_in and (
        "HTTP_AUTHORIZATION" in request.META or settings.SESSION_COOKIE_NAME in request.COOKIES
    ):
        return None
    variant = _variant(request, page)
    if variant is None:
        return None
    event_id = page.event_of(match.kwargs)
    if not event_id:
        return None
    name = match.view_name + ":" + ":".join(f"{k}={v}" for k, v in sorted(match.kwargs.items()))
    return event_id, name, variant, page, match


class PublicPageMiddleware:
    """Answers a public page from the cache before the session, the user or the CSRF
    token are looked at; on a miss builds it once (anonymously) and keeps it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        found = lookup(request)
        if found is None:
            return self.get_response(request)
        event_id, name, variant, page, match = found
        encoding, language = _accepted(request), language_of(request)
        version = page_cache.version(event_id)
        key = partial(_entry_key, event_id, version, name, variant)
        entry = cache.get(key(encoding, language))
        if entry is None:
            built = build(request, match, page, version, language)
            if built is None:
                return self.get_response(request)
            cache.set_many(
                {key(e, language): v for e, v in built.items()},
                timeout=page_cache.FRAGMENT_TIMEOUT,
            )
            entry = built[encoding]
        return _response(entry, encoding, version, language)


def round_event(kwargs: dict) -> int | None:
    """The event of the round in an API URL."""
    return row_events.round_event(kwargs.get("pk", ""))


def register_matches_pages() -> None:
    by = one_of("name", "table")
    register("round-pairings", Page(params={"by": by, "division": division_key}))
    register("round-projector", Page())
    register("event-standings", Page(params={"round": number}))
    register("event-bracket", Page())
    register("api:round-detail", Page(event_of=round_event, json=True))
    register(
        "api:api-event-standings",
        Page(params={"round": number}, json=True, own_answer_when_signed_in=True),
    )
