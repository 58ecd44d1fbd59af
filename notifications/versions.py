"""A version in the shared cache: a number that moves on whenever what it stands for
changes (an event's pages, a league's staff, a user's notifications, the rule editions).
Whatever is kept under it is simply never asked for again after a bump, and expires.

A missing number (a cache flush, an expired key) starts again from the clock, so it is
always past any number handed out before: no old entry can be mistaken for a new one.
The one recipe for `matches.page_cache`, `matches.report_frame`,
`league.permissions.staff_version`, `notifications.services`' unread generations and
`league.editions`; `bump_on_commit` moves a number once its transaction commits.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db import transaction


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


def bump_on_commit(key: str) -> None:
    """Bump `key` once the current transaction commits (at once outside one), so no reader
    keeps the state before the change under the new number. Once per key and transaction:
    a report saves its report, match, games and history, one bump says it (a bump waiting
    in a savepoint since rolled back is gone from the list, so it is asked again)."""
    if pending(key):
        return

    def after_commit():
        after_commit.bumps_key = None  # done: a later write asks again
        bump(key)

    after_commit.bumps_key = key
    transaction.on_commit(after_commit)


def pending(key: str) -> bool:
    """Whether the current transaction has a bump of `key` waiting for its commit (it
    wrote what the number stands for)."""
    connection = transaction.get_connection()
    return connection.in_atomic_block and any(
        getattr(func, "bumps_key", None) == key for _, func, *_ in connection.run_on_commit
    )
