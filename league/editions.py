"""Which rule edition an event runs by, and why (`league.RuleEdition` rows read as
`rules.editions.Edition`).

An event takes the edition its organiser picked (`Event.rule_edition`), else the edition in
force on the event's date; a database without editions (a test that flushed the seeded
rows) runs by the site's older rules (`edition_seeds.SITE_RULES`), as events always did.
The editions are read once into the shared cache (a handful of rows, on every page with a
round clock) and dropped from it whenever a row is saved or deleted; each process keeps its
copy while the cache's version of them stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from notifications import versions
from rules.editions import Edition, in_force_on

from .edition_seeds import SITE_RULES
from .models import Event, RuleEdition


@dataclass(frozen=True)
class EventEdition:
    edition: Edition
    why: str  # in words, for the event page


@dataclass(frozen=True)
class DivisionYears:
    """The birth years that decide an event's age divisions, and whose they are."""

    junior_from: int  # born this year or later: Juniors
    senior_from: int  # born this year or later (and not Juniors): Seniors
    from_edition: bool  # the edition's years; False: the season's

    @property
    def masters_until(self) -> int:
        return self.senior_from - 1

    @property
    def senior_until(self) -> int:
        return self.junior_from - 1


CACHE_KEY = "league:rule-editions:v1"
#: A number the shared cache keeps, moved on whenever an edition changes: each process
#: keeps the editions it read for that number (a report asks twice; unpickling them from
#: the cache each time cost more than the rest of the check).
VERSION_KEY = "league:rule-editions:version"
_local: dict[int, dict[int, Edition]] = {}


def editions_version() -> int:
    """The editions' version now: a page that shows an edition keys its copy by it."""
    return versions.current(VERSION_KEY)


def all_editions() -> dict[int, Edition]:
    """Every stored edition by row id: this process's copy while the shared cache's
    version stands, else from the shared cache, else from the database."""
    version = editions_version()
    editions = _local.get(version)
    if editions is not None:
        return editions
    editions = cache.get(CACHE_KEY)
    if editions is None:
        editions = {row.pk: row.to_edition() for row in RuleEdition.objects.all()}
        cache.set(CACHE_KEY, editions, timeout=3600)
    _local.clear()
    _local[version] = editions
    return editions


def forget_editions() -> None:
    """Drop every copy of the editions: the shared cache's and, by a new version, each
    process's."""
    cache.delete(CACHE_KEY)
    versions.bump(VERSION_KEY)


@receiver(post_save, sender=RuleEdition)
@receiver(post_delete, sender=RuleEdition)
def _forget_editions(**kwargs) -> None:
    # Now, and again once committed (a read in between saw the old rows).
    forget_editions()
    transaction.on_commit(forget_editions)


def _day(event: Event):
    return timezone.localdate(event.starts_at) if event.starts_at else timezone.localdate()


def event_edition(event: Event) -> EventEdition:
    """The edition `event` runs by, with the reason in words. Cached on the instance."""
    cached = getattr(event, "_edition_cache", None)
    if cached is not None:
        return cached
    day = _day(event)
    if event.rule_edition_id:
        # Loaded with the event (select_related), else from the shared cache: no query.
        if Event.rule_edition.is_cached(event):
            edition = event.rule_edition.to_edition()
        else:
            edition = all_editions().get(event.rule_edition_id) or event.rule_edition.to_edition()
        why = _("Chosen by the organiser (the event is on %(day)s).") % {
            "day": date_format(day, "j F Y")
        }
    else:
        edition = in_force_on(list(all_editions().values()), day)
        if edition is None:
            edition = SITE_RULES
            why = _("No edition is stored for this date: the site's older rules apply.")
        else:
            why = _("In force on the event's date, %(day)s (from %(since)s).") % {
                "day": date_format(day, "j F Y"),
                "since": date_format(edition.in_force_from, "j F Y"),
            }
    result = EventEdition(edition, why)
    event._edition_cache = result
    return result


def division_years(event: Event) -> DivisionYears:
    """The cut-off years of `event`'s age divisions. The edition in force is the rule the
    organiser runs the event by, so its years decide when it gives them; the season's years
    (`Season.junior_from_year`, `senior_from_year`) apply when it gives none, as for the
    site's older rules."""
    ages = event_edition(event).edition.age_divisions
    if ages.junior_from is not None and ages.senior_from is not None:
        return DivisionYears(ages.junior_from, ages.senior_from, from_edition=True)
    season = event.season
    return DivisionYears(season.junior_from_year, season.senior_from_year, from_edition=False)
