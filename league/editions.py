"""Which rule edition an event runs by, and why (`league.RuleEdition` rows read as
`rules.editions.Edition`).

An event takes the edition its organiser picked (`Event.rule_edition`), else the edition in
force on the event's date; a database without editions (a test that flushed the seeded
rows) runs by the site's older rules (`edition_seeds.SITE_RULES`), as events always did.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from rules.editions import Edition, in_force_on

from .edition_seeds import SITE_RULES
from .models import Event, RuleEdition


@dataclass(frozen=True)
class EventEdition:
    edition: Edition
    why: str  # in words, for the event page


def _day(event: Event):
    return timezone.localdate(event.starts_at) if event.starts_at else timezone.localdate()


def event_edition(event: Event) -> EventEdition:
    """The edition `event` runs by, with the reason in words. Cached on the instance."""
    cached = getattr(event, "_edition_cache", None)
    if cached is not None:
        return cached
    day = _day(event)
    if event.rule_edition_id:
        edition = event.rule_edition.to_edition()
        why = f"Chosen by the organiser (the event is on {day:%-d %B %Y})."
    else:
        editions = [row.to_edition() for row in RuleEdition.objects.all()]
        edition = in_force_on(editions, day)
        if edition is None:
            edition = SITE_RULES
            why = "No edition is stored for this date: the site's older rules apply."
        else:
            why = (
                f"In force on the event's date, {day:%-d %B %Y} "
                f"(from {edition.in_force_from:%-d %B %Y})."
            )
    result = EventEdition(edition, why)
    event._edition_cache = result
    return result
