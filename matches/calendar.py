"""Calendar feeds (iCalendar, RFC 5545, written with the `icalendar` library): a league's
events, and a user's own events with the published rounds' start times while an event
runs. Times are written in UTC (every calendar app shows them in its own zone); an event's
end is not known ahead, so it is shown as a day of `EVENT_HOURS` hours a day."""

from __future__ import annotations

import datetime as dt

import icalendar
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import Event

from .models import Round
from .selectors import visible_rounds

EVENT_HOURS = 8
PRODID = "-//Pokémon TCG League//Event calendar//EN"


def _calendar(name: str) -> icalendar.Calendar:
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    return cal


def _event_entry(event: Event, url: str, host: str) -> icalendar.Event:
    entry = icalendar.Event()
    entry.add("uid", f"event-{event.pk}@{host}")
    entry.add("dtstamp", timezone.now())
    entry.add("summary", event.name)
    entry.add("dtstart", event.starts_at)
    entry.add("dtend", event.starts_at + dt.timedelta(hours=EVENT_HOURS * (event.days or 1)))
    entry.add("url", url)
    where = ", ".join(
        part for part in (event.venue_name, " ".join(event.venue_address.split())) if part
    )
    if where:
        entry.add("location", where)
    about = [event.description, f"{event.season.league.name} · {event.get_status_display()}", url]
    entry.add("description", "\n\n".join(part for part in about if part))
    return entry


def _round_entry(round_: Round, event: Event, url: str, host: str) -> icalendar.Event:
    start = round_.clock_started_at or round_.published_at
    entry = icalendar.Event()
    entry.add("uid", f"round-{round_.pk}@{host}")
    entry.add("dtstamp", timezone.now())
    entry.add(
        "summary", _("%(event)s: round %(number)s") % {"event": event.name, "number": round_.number}
    )
    entry.add("dtstart", start)
    entry.add("dtend", round_.ends_at or start + dt.timedelta(minutes=event.round_minutes))
    entry.add("url", url)
    return entry


def build_calendar(name: str, events, *, url_of, host: str, rounds_of=None) -> bytes:
    """The feed: one entry per event (`url_of(event)` its page), and for each event
    `rounds_of(event)` gives (the published rounds with a start), one entry per round."""
    cal = _calendar(name)
    for event in events:
        cal.add_component(_event_entry(event, url_of(event), host))
        for round_ in rounds_of(event) if rounds_of else ():
            cal.add_component(_round_entry(round_, event, url_of(event), host))
    return cal.to_ical()


def running_rounds(event: Event) -> list[Round]:
    """A running event's published rounds with a start time (the clock, else publication)."""
    if event.status not in (Event.Status.RUNNING, Event.Status.TOP_CUT):
        return []
    return [
        r
        for r in visible_rounds(event, staff=False).order_by("number")
        if r.clock_started_at or r.published_at
    ]
