"""Render once, serve many: the public pages of a round (pairings by table and by name, the
projector's list, standings, the round's JSON) are built once per *version* of the event
and kept in the shared cache (Redis in production, so every web process sees the same).

An event's version is a number in the cache (`event-pages:<id>:v`). Anything that changes
what those pages show bumps it after its transaction commits: a round paired, published,
started or closed; a match's result (a report, a staff result or a correction); a game;
a new standings version; a registration (a drop) or a player's name. The signal handlers
are wired in `matches.apps`. Old entries are never deleted: they are simply never asked
for again and expire (`FRAGMENT_TIMEOUT`). A missing version key (a cache flush) restarts
from the clock, so no old entry can be mistaken for a new one.

Only what every viewer sees is cached, per language (the active one: a fragment holds the
words of the language it was built in); the page around it (who you are, your match, the
staff's links) is rendered per request, which is cheap.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.utils import translation

from notifications import versions

FRAGMENT_TIMEOUT = 6 * 3600


def version_key(event_id: int) -> str:
    return f"event-pages:{event_id}:v"


def version(event_id: int) -> int:
    """The event's current version (one cache read)."""
    return versions.current(version_key(event_id))


def bump(event_id: int) -> None:
    """A new version now: every cached page of the event is built again on its next read."""
    versions.bump(version_key(event_id))


def bump_on_commit(event_id: int | None) -> None:
    """Bump once the current transaction commits (at once outside one), once per event and
    transaction (`versions.bump_on_commit`)."""
    if event_id:
        versions.bump_on_commit(version_key(event_id))


def cached(event_id: int, name: str, build: Callable[[], object], *, at: int | None = None):
    """`build()`'s result for the event's current version (or version `at`, read by the
    caller before), built at most once per version and process race (two processes may
    both build on a miss; both store the same)."""
    at = version(event_id) if at is None else at
    # Per language too: a fragment holds the words of the language it was built in.
    key = f"event-pages:{event_id}:{at}:{translation.get_language()}:{name}"
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, timeout=FRAGMENT_TIMEOUT)
    return value


def etag(event_id: int, *parts) -> str:
    """A strong validator for a page of the event: its version and what else the caller
    says the page depends on (the viewer, the query string)."""
    raw = ":".join(
        str(p) for p in (event_id, version(event_id), translation.get_language(), *parts)
    )
    return hashlib.blake2b(raw.encode(), digest_size=12).hexdigest()
