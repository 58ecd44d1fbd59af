"""Own pages: a signed-in viewer's own answer, kept per user and version, served above the
session.

A public round page is one body for every viewer (`matches.public_pages`); an *own page*
is one viewer's: `me.json`, and the pages registered below. `OwnPageMiddleware` sits right
after `PublicPageMiddleware`, above the session, locale, common, CSRF, authentication and
messages middleware. The first time a viewer asks for an own page, the whole stack answers
and the middleware keeps the answer (plain, gzip and Brotli, with its ETag) when it is
safe to; the next time, it answers from the cache with two round trips to it, no query,
no session loaded, no template, no compression.

**Who is this, from the cache alone** (`league.user_cache`, the recipe `get_user` uses):
the session cookie names the session's entry in the cache (`cached_db` or `cache`
sessions only); its user row is read at `user_cache.user_key`, never from the database.
Nothing kept is served, and the normal stack answers, when the session's entry or the row
is missing, the session sets its own expiry or holds a message (the fallback message
storage), its backend is not one of `AUTHENTICATION_BACKENDS`, the user is inactive, or
the session's hash is not the user's current one exactly (a password changed; a
secret-key fallback: Django then moves the session to a new key).

**The key** of a kept answer: the view and its URL arguments, the query string (any
parameters, sorted; longer than `MAX_QUERY`: never kept), the event's page version
(`page_cache`), the user, the league's staff version (`permissions.staff_version`), the
language (as `public_pages.language_of` finds it), a digest of the CSRF cookie's secret
(the masked tokens in a kept page stay valid for that cookie; a page that needs a token
and has no cookie sets one, so it is never kept) and the accepted encoding. Kept inside
the entry and compared on a hit: the token of the cached user row
(`user_cache_token`, new whenever the row is read again: a saved, renamed, deactivated
account) and the generation of the user's unread notifications
(`notifications.services`). An anonymous viewer (no session cookie) has entries of their
own (no user, no staff version).

**When an answer is kept**: a GET with no `Authorization` header and no `messages` cookie,
answered 200 (not streamed) for the user the cache named (or nobody), with the session
neither changed nor moved, no message added or read, no cookie set but the renewal of the
CSRF cookie the request sent, no CSP nonce used (a nonce is one response's), and no
`Vary` but Cookie, Accept-Language and Accept-Encoding. Its headers are kept with it
(`Cache-Control: private, no-store` for `me.json`: a kept copy is the viewer's own, never
a shared cache's). Kept `TIMEOUT` seconds only: pages show what time changes without
any write (a deck deadline passed, a clock), so nothing older than that is served.

Per page (`register_matches_pages`), what is kept and why it is safe:

- **`me.json`** (`event-me`): everything in it follows the key: the event's part
  (staff, links, registration, match) the page version and staff version, the name the
  user row, the unread count its generation, the CSRF token the cookie. Its server time
  is the HTTP `Date` header (no `now` in the body, which `me.js` never read). Kept for
  staff too (their links follow the staff version).
- **The event page** (`event-detail`, `matches.views.events.event_detail`): the event,
  its league, season, format and rules edition; the rounds, counts, standings, published
  lists, structure; the viewer's registration (status, division, late entry, drop), their
  current decklist (version, legality) and their match card. The event's rows, rounds,
  matches, registrations, players and standings bump the version (`matches.signals`), and
  so do decklists, the league, the season and the format (`_OWN_PAGE_ROWS` there); a
  player's row also drops its account's cached row (a new player profile shows
  "Register"); the header's name and inbox badge follow the user row and the unread
  generation. Time: the match card's clock counts down to the moment time is called
  (`data-ends-at`, the phone's own clock, as the projector's), and the page is kept no
  later than that moment, never after it (the overtime clock's text is of its second:
  `match_tags.my_match` calls `keep_until`, `not_kept`); before the deck deadline it is
  kept no later than the deadline (`keep_until`: "(passed)", "View your deck"). An edition edited in the admin shows
  within `TIMEOUT`. Never kept for the event's staff: their page has the TOM panel (TOM
  uploads bump nothing) and staff actions.
- **The match page** (`match-detail`, `matches.views.results.match_detail`; its event from
  the match, kept in the process): the match, its reports, games and history, the rule
  edition's forms, the table's time extension (saved on the match), its penalties and the
  viewer's judge call (`floor/_match_floor.html`). Matches, reports, games and result
  changes bump (`matches.signals`); judge calls and penalties too (`floor.signals`, and
  `floor.services.take_call` for its conditional UPDATE). The query string
  (`?sudden_death=`, `?ways=`, `?time=`) is in the key. Times on it are absolute ("time
  is called at 14:05"). Never kept for staff (the result form, the change history).
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import brotli
from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.cache import cc_delim_re

from league import user_cache
from league.models import Event
from league.permissions import staff_key
from notifications.services import unread_generation, unread_generation_key

from . import page_cache, row_events
from .public_pages import MESSAGE_COOKIE, language_of
from .public_pages import _accepted as accepted_encoding

#: How long a kept answer is served (seconds): see the module's docstring.
TIMEOUT = 60
#: A longer query string is never kept (the cache keeps a bounded number of answers).
MAX_QUERY = 200
#: Every own page's path starts so (any other request skips the URL lookup).
PREFIXES = ("/events/", "/matches/")
#: A kept answer's `Vary` may name only these (the key covers them).
KEYED_VARY = {"cookie", "accept-language", "accept-encoding"}
#: Headers set again on every answer from the cache, never kept.
_NOT_KEPT = {"content-length", "content-encoding", "etag", "set-cookie"}


@dataclass(frozen=True)
class OwnPage:
    """An own page: how to find its event from the URL's arguments, and whether the
    answers of the event's staff are kept too (their pages show more than the key covers:
    the TOM panel, the change history)."""

    event_of: Callable[[dict], int | None] = lambda kwargs: kwargs.get("event_id")
    staff: bool = True


PAGES: dict[str, OwnPage] = {}


def register(view_name: str, page: OwnPage) -> None:
    """Keep the answers of the URL named `view_name` per viewer (see the docstring)."""
    PAGES[view_name] = page


_LEAGUES: dict[int, int] = {}


def league_of(event_id: int) -> int | None:
    """The event's league (kept in the process: an event never moves to another league)."""
    if event_id not in _LEAGUES:
        league_id = (
            Event.objects.filter(pk=event_id).values_list("season__league_id", flat=True).first()
        )
        if league_id is None:
            return None
        if len(_LEAGUES) > 50_000:
            _LEAGUES.clear()
        _LEAGUES[event_id] = league_id
    return _LEAGUES[event_id]


@dataclass
class Viewer:
    """Who asks, as the cache alone says: `user_id` None for an anonymous viewer (no
    session cookie); `token` and `unread` are compared with the kept entry's."""

    user_id: int | None = None
    token: str = ""
    unread: int = 0
    session: dict | None = None


def _lookup(request) -> tuple[str, OwnPage, int, str] | None:
    """(view and arguments, page, event, query) when the request asks for an own page."""
    if request.method != "GET" or not request.path_info.startswith(PREFIXES):
        return None
    if MESSAGE_COOKIE in request.COOKIES or "HTTP_AUTHORIZATION" in request.META:
        return None
    if settings.SESSION_SAVE_EVERY_REQUEST:
        return None
    query = request.META.get("QUERY_STRING", "")
    if len(query) > MAX_QUERY:
        return None
    match = getattr(request, "page_resolver_match", None)  # `public_pages.lookup`'s
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
    page = PAGES.get(match.view_name)
    if page is None:
        return None
    event_id = page.event_of(match.kwargs)
    if not event_id:
        return None
    name = match.view_name + ":" + ":".join(f"{k}={v}" for k, v in sorted(match.kwargs.items()))
    return name, page, event_id, "&".join(sorted(query.split("&")))


def _digest(value: str) -> str:
    return hashlib.blake2b(value.encode(), digest_size=12).hexdigest()


def _peek(request, event_id: int) -> tuple[Viewer, str] | None:
    """Who asks and the key of their kept answers (without the encoding), from the cache
    alone; None when the normal stack must answer."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
    version_key = page_cache.version_key(event_id)
    if not session_key:
        version = cache.get(version_key)
        if version is None:
            return None
        parts = (version, "-", "-")
        viewer = Viewer()
    else:
        session_cache_key = user_cache.session_cache_key(session_key)
        league_id = league_of(event_id)
        if session_cache_key is None or league_id is None:
            return None
        found = cache.get_many([session_cache_key, version_key, staff_key(league_id)])
        if len(found) == 2 and session_cache_key not in found:
            # A phone's first request since its session left the cache: bring the session
            # there now (the one query the session middleware would make), so this first
            # answer is kept too, not only the next one.
            user_cache.load_session(session_key)
            found.update(cache.get_many([session_cache_key]))
        if len(found) != 3:
            return None
        session = found[session_cache_key]
        if not isinstance(session, dict) or "_session_expiry" in session or "_messages" in session:
            return None
        named = user_cache.session_user_id(session)
        if named is None:
            return None
        parts = (found[version_key], named[0], found[staff_key(league_id)])
        viewer = Viewer(user_id=named[0], session=session)
    key = ":".join(
        str(part)
        for part in (
            "own-pages",
            event_id,
            *parts,
            language_of(request),
            _digest(csrf) if csrf else "-",
        )
    )
    return viewer, key


def _confirm(viewer: Viewer, row, unread) -> bool:
    """Whether the session signs in the cached user row exactly (as `get_user` would, with
    no change to the session)."""
    if row is None or unread is None or not getattr(row, "is_active", False):
        return False
    token = getattr(row, "user_cache_token", None)
    if token is None:
        return False
    user, verdict = user_cache.session_user(viewer.session, lambda backend, user_id: row)
    if verdict != user_cache.CURRENT or user.pk != viewer.user_id:
        return False
    viewer.token, viewer.unread = token, unread
    return True


def _first_read(viewer: Viewer) -> dict:
    """The user row and unread generation that are not in the cache yet, read as the stack
    would read them (the row from the database, the generation started now), so a first
    answer is kept: the stack then finds both in the cache."""
    backend_path = user_cache.session_user_id(viewer.session)[1]
    return {
        user_cache.user_key(viewer.user_id): user_cache.user_row(backend_path, viewer.user_id),
        unread_generation_key(viewer.user_id): unread_generation(viewer.user_id),
    }


def _entry_key(key: str, name: str, query: str, encoding: str) -> str:
    return f"{key}:{name}:{_digest(query)}:{encoding or 'plain'}"


def _serve(entry: tuple, encoding: str) -> HttpResponse:
    _token, _unread, etag, headers, body = entry
    response = HttpResponse(body)
    for header, value in headers:
        response[header] = value
    if encoding:
        response["Content-Encoding"] = encoding
    response["Content-Length"] = str(len(body))
    if etag:
        response["ETag"] = etag
    return response


def _keepable(request, response, viewer: Viewer, page: OwnPage, session_key: str | None) -> bool:
    if response.status_code != 200 or response.streaming or _timeout(request) <= 0:
        return False
    if not page.staff and any(request.__dict__.get("_staff_actions", {}).values()):
        return False  # `league.view_helpers.staff_actions`, asked by every page for staff
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
    for name, morsel in response.cookies.items():
        if name != settings.CSRF_COOKIE_NAME or morsel.value != csrf:
            return False  # a new session, CSRF cookie, message or language cookie
    if getattr(request, "_csp_nonce", None):
        return False
    storage = getattr(request, "_messages", None)
    if storage is not None and (storage.used or storage.added_new or storage._queued_messages):
        return False
    vary = {v.strip().lower() for v in cc_delim_re.split(response.get("Vary", "")) if v.strip()}
    if not vary <= KEYED_VARY:
        return False
    user = getattr(request, "user", None)
    if user is None:
        return False
    if viewer.user_id is None:
        return not user.is_authenticated
    session = getattr(request, "session", None)
    return (
        user.is_authenticated
        and user.pk == viewer.user_id
        and session is not None
        and session.session_key == session_key
        and not session.modified
    )


def _keep(request, response, viewer: Viewer, entry_key: Callable[[str], str]) -> None:
    plain = response.content
    headers = [(h, v) for h, v in response.items() if h.lower() not in _NOT_KEPT]
    no_store = "no-store" in response.get("Cache-Control", "")
    digest = hashlib.blake2b(plain, digest_size=12).hexdigest()

    def tag(suffix: str) -> str:
        return "" if no_store else f'"{digest}{suffix}"'

    owner = (viewer.token, viewer.unread)
    cache.set_many(
        {
            entry_key(""): (*owner, tag(""), headers, plain),
            entry_key("gzip"): (*owner, tag("-gz"), headers, gzip.compress(plain, 6, mtime=0)),
            entry_key("br"): (*owner, tag("-br"), headers, brotli.compress(plain, quality=5)),
        },
        timeout=_timeout(request),
    )


def not_kept(request) -> None:
    """This answer changes with time alone (an overtime clock's text): never keep it."""
    request._own_page_not_kept = True


def keep_until(request, when: datetime | None) -> None:
    """This answer changes at `when` (a deck deadline): keep it no later than that."""
    if when is None:
        return
    left = (when - timezone.now()).total_seconds()
    if left <= 0:
        return  # passed: the answer already says so
    if left < getattr(request, "_own_page_keep", TIMEOUT):
        request._own_page_keep = max(int(left), 0)


def _timeout(request) -> int:
    if getattr(request, "_own_page_not_kept", False):
        return 0
    return getattr(request, "_own_page_keep", TIMEOUT)


class OwnPageMiddleware:
    """Answers an own page from the cache before the session, the user or the CSRF token
    are read; on a miss lets the whole stack answer and keeps the answer when it may."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        found = _lookup(request)
        if found is None:
            return self.get_response(request)
        name, page, event_id, query = found
        peeked = _peek(request, event_id)
        if peeked is None:
            return self.get_response(request)
        viewer, key = peeked
        encoding = accepted_encoding(request)

        def entry_key(enc: str) -> str:
            return _entry_key(key, name, query, enc)

        if viewer.user_id is None:
            entry = cache.get(entry_key(encoding))
        else:
            row_key = user_cache.user_key(viewer.user_id)
            unread_key = unread_generation_key(viewer.user_id)
            got = cache.get_many([row_key, unread_key, entry_key(encoding)])
            if row_key not in got or unread_key not in got:
                got.update(_first_read(viewer))
            if not _confirm(viewer, got.get(row_key), got.get(unread_key)):
                return self.get_response(request)
            entry = got.get(entry_key(encoding))
        if entry is not None and entry[:2] == (viewer.token, viewer.unread):
            return _serve(entry, encoding)
        session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        response = self.get_response(request)
        if _keepable(request, response, viewer, page, session_key):
            _keep(request, response, viewer, entry_key)
        return response


def match_event(kwargs: dict) -> int | None:
    """The event of the match in a URL (kept in the process: `row_events`)."""
    return row_events.match_event(kwargs.get("match_id", ""))


def register_matches_pages() -> None:
    register("event-me", OwnPage())
    register("event-detail", OwnPage(staff=False))
    register("match-detail", OwnPage(event_of=match_event, staff=False))
