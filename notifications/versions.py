"""A version in the shared cache: a number that moves on whenever what it stands for
changes (an event's pages, a league's staff, a user's notifications, the rule editions).
Whatever is kept under it is simply never asked for again after a bump, and expires.

A missing number (a cache flush, an expired key) starts again from the clock, so it is
always past any number handed out before: no old entry can be mistaken for a new one.
The one recipe for `matches.page_cache`, `league.permissions.staff_version`,
`notifications.services`' unread generations and `league.editions`.
"""

from __future__ import annotations

import time

from django.core.cache import cache


def current(key: str, *, timeout: int | None = None) -> int:
    """The number at `key` (one cache read), started from the clock when missing."""
    value = cache.get(key)
    if value is None:
        cache.add(key, time.time_ns(), timeout=timeout)
        value = cache.get(key)
    return value


def bump(key: str, *, timeout: int | None = None) -> None:
    """A new number now (started from the clock when missing)."""
    try:
        cache.incr(key)
    except ValueError:
        cache.add(key, time.time_ns(), timeout=timeout)
