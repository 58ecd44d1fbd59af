"""Writing to a person in their own language and the event's time zone.

A notification's subject and body are words written once, when it is created (the apps'
`notify.py`), and its e-mail is rendered later (`delivery.build_email`). Both happen under
`in_recipients_language(user, event)`: the recipient's profile language
(`league.Player.language`), else the event's (`Event.language`), else the site's
(settings.LANGUAGE_CODE); dates and times in the event's time zone (`Event.zone`), else the
site's. Read by attribute so this package needs nothing from the apps above it:

    with in_recipients_language(user, event):
        subject = _("%(event)s: round %(round)s pairings") % {...}
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils import timezone, translation


def _supported(code: str | None) -> str:
    if not code:
        return ""
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return ""


def for_user(user, event=None) -> str:
    """The language to write to `user` in: their profile's, else the event's, else the
    site's. `user` may be a user, their player profile (anything with `language`), or None
    (then the event's or the site's)."""
    profile = (getattr(user, "player", None) or user) if user is not None else None
    return (
        _supported(getattr(profile, "language", ""))
        or _supported(getattr(event, "language", ""))
        or settings.LANGUAGE_CODE
    )


def time_zone_of(event=None) -> zoneinfo.ZoneInfo:
    """The event's time zone (`Event.zone`), else the site's."""
    name = getattr(event, "zone", "") or settings.TIME_ZONE
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


@contextmanager
def in_recipients_language(user, event=None) -> Iterator[str]:
    """Words (gettext) in `for_user(user, event)` and times (`date`/`time` filters,
    `timezone.localtime`) in the event's time zone, inside the block. Yields the language."""
    language = for_user(user, event)
    with translation.override(language), timezone.override(time_zone_of(event)):
        yield language


@contextmanager
def in_event_language(event) -> Iterator[str]:
    """What is printed or sent to everyone at an event (match slips, deck sheets): in the
    event's language and time zone."""
    with in_recipients_language(None, event) as language:
        yield language


def for_each_recipient(recipients, event, make) -> list:
    """`make(recipient)` for each of `recipients` (users, player profiles, registrations:
    anything `for_user` reads, a registration by its `player`), each inside
    `in_recipients_language(recipient, event)`: the one way an app words a notification
    per recipient."""
    made = []
    for recipient in recipients:
        with in_recipients_language(getattr(recipient, "player", recipient), event):
            made.append(make(recipient))
    return made
