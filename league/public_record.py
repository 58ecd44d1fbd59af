"""The public record's settings and helpers: an event's details (venue, address, time
zone, entry fee, description, contact), a league's roster setting, a player's page
setting, the private calendar feed's secret, and the name the public pages show.

The fields are abstract bases of `League`, `Event` and `Player` (`league.models`), kept
here so that the record's columns sit together; `CalendarFeed` is its own table.
"""

from __future__ import annotations

import datetime as dt
import secrets
import zoneinfo
from urllib.parse import quote

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

from .languages import EventLanguageField, PlayerLanguageField

#: Every time zone the IANA database knows, for the event form's list.
TIME_ZONES = sorted(zoneinfo.available_timezones())

#: The age from which a player's full name is shown on public pages. Source: the
#: Play! Pokémon privacy practice of showing minors by first name and initial (as the
#: published standings of events do), and the age of majority in most countries (18).
ADULT_AGE = 18

#: A map search of an address: a plain link, no third-party script on our pages.
MAP_SEARCH = "https://www.openstreetmap.org/search?query={}"


def validate_time_zone(value: str) -> None:
    if value and value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("%(value)s is not a time zone (for example Europe/London).") % {"value": value}
        )


def zone_name(value: str | None) -> str:
    """`value` if it names a time zone, else the site's (settings.TIME_ZONE)."""
    if value and value in zoneinfo.available_timezones():
        return value
    return settings.TIME_ZONE


class LeagueRecordFields(models.Model):
    roster_public = models.BooleanField(
        "Public rosters",
        default=True,
        help_text="Show who is registered for the league's events to everyone (names as "
        "the public pages show them, with division). Off: staff only.",
    )

    class Meta:
        abstract = True


class PlayerRecordFields(PlayerLanguageField):
    page_hidden = models.BooleanField(
        "Hide my player page",
        default=False,
        help_text="Your public page lists your events, places and public archetypes.",
    )

    class Meta:
        abstract = True

    @property
    def shown_name(self) -> str:
        """The name public pages show (`public_name`: a minor's first name and initial)."""
        return public_name(self)


class EventDetailsFields(EventLanguageField):
    venue_name = models.CharField("Venue", max_length=120, blank=True)
    venue_address = models.TextField(
        "Address", max_length=300, blank=True, help_text="The event page links to a map of it."
    )
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        validators=[validate_time_zone],
        help_text="The event's times are shown in it (empty: the site's time zone).",
    )
    entry_fee = models.CharField(
        max_length=40, blank=True, help_text="Informational, paid at the venue (e.g. €5)."
    )
    description = models.TextField(max_length=4000, blank=True)
    contact = models.CharField(
        max_length=200, blank=True, help_text="An e-mail address or a phone number for questions."
    )

    class Meta:
        abstract = True

    @property
    def zone(self) -> str:
        return zone_name(self.time_zone)

    @property
    def map_url(self) -> str:
        address = " ".join(self.venue_address.split())
        return MAP_SEARCH.format(quote(address)) if address else ""


class CalendarFeed(models.Model):
    """A user's private calendar address: the events they are registered for. The token
    is the secret in the URL; a new token revokes the old address."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"calendar of {self.user}"

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(32)


def is_minor(birth_date: dt.date, today: dt.date | None = None) -> bool:
    today = today or timezone.localdate()
    age = (
        today.year
        - birth_date.year
        - ((today.month, today.day) < (birth_date.month, birth_date.day))
    )
    return age < ADULT_AGE


def public_name(player, today: dt.date | None = None) -> str:
    """The name public pages show for `player`: their display name, or for a minor the
    first name and the initial of the last ("Brock Harrison" → "Brock H.")."""
    if not is_minor(player.birth_date, today):
        return player.name
    words = player.name.split()
    if len(words) < 2:
        return words[0] if words else ""
    return f"{words[0]} {words[-1][0].upper()}."
