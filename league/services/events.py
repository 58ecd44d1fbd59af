"""Creating and changing events."""

from __future__ import annotations

from django.db import transaction
from django.utils.text import get_text_list, slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.errors import DomainError
from rules.i18n import gettext_noop, say

from .. import permissions, signals
from ..event_log import EventLogEntry
from ..models import FORMAT_REQUIRED, Event, Registration, Season
from . import eventlog
from .registrations import division_of

EVENT_FIELDS = (
    "name", "kind", "full_finishing_order", "format", "starts_at", "best_of", "round_minutes", "deck_deadline", "capacity",
    "division_mode", "sudden_death_prizes", "swiss_rounds", "top_cut", "require_check_in", "status",
    "sudden_death_style",
    "decklists_open", "rule_edition", "days", "day1_rounds",
    "venue_name", "venue_address", "time_zone", "entry_fee", "description", "contact",
    "language",
)  # fmt: skip


#: The settings fixed once an event has started, in the organiser's words.
FIXED_ONCE_STARTED = {
    "kind": gettext_lazy("the kind of event"),
    "best_of": gettext_lazy("best of 1 or 3"),
    "format": gettext_lazy("the format"),
    "division_mode": gettext_lazy("how the divisions are paired (together or separately)"),
}


def _check_event_fields(fields: dict, event: Event | None = None) -> None:
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise DomainError(
            "invalid-event",
            _("Unknown event fields: %(fields)s.") % {"fields": ", ".join(sorted(unknown))},
        )
    kind = fields.get("kind") or (event.kind if event else Event.Kind.TOURNAMENT)
    if kind == Event.Kind.BOARD_GAME:
        fields["format"] = None  # a board-game night has no deck format
    elif not fields.get("format", event.format if event else None):
        raise DomainError("invalid-event", str(FORMAT_REQUIRED))
    deadline, starts = (
        fields.get("deck_deadline"),
        fields.get("starts_at") or (event and event.starts_at),
    )
    if deadline and starts and deadline > starts:
        raise DomainError("invalid-event", _("The deck deadline must be before the event starts."))
    fmt = fields.get("format") or (event.format if event is not None else None)
    sudden = fields.get("sudden_death_prizes") or (event and event.sudden_death_prizes) or 1
    if fmt is not None and sudden > fmt.prizes:
        raise DomainError(
            "invalid-event",
            # Translators: "Prize cards" is the official TCG term (fr "cartes Récompense", de
            # "Preiskarten", es "cartas de Premio", it "carte Premio", pt "cartas de Prêmio");
            # "sudden death" too (fr "mort subite", de "Sudden Death", es "muerte súbita").
            ngettext(
                "%(format)s is played with %(prizes)s Prize card: sudden death cannot have "
                "%(sudden)s. Choose 1 Prize card.",
                "%(format)s is played with %(prizes)s Prize cards: sudden death cannot have "
                "%(sudden)s. Choose 1 Prize card.",
                fmt.prizes,
            )
            % {"format": fmt.name, "prizes": fmt.prizes, "sudden": sudden},
        )
    started = (Event.Status.RUNNING, Event.Status.TOP_CUT, Event.Status.FINISHED)
    if event is not None and event.status in started:
        fixed = [
            k
            for k in ("kind", "best_of", "format", "division_mode")
            if k in fields
            and fields[k] != getattr(event, k)
            # How divisions are paired matters from round 1 on (its pods), not before.
            and not (k == "division_mode" and not event.swiss_rounds_paired)
        ]
        if fixed:
            listed = get_text_list([str(FIXED_ONCE_STARTED[k]) for k in fixed], _("and"))
            message = _("%(settings)s cannot change once the event has started.") % {
                "settings": listed
            }
            raise DomainError("event-started", message[:1].upper() + message[1:], status=409)


@transaction.atomic
def create_event(*, season: Season, by_user, **fields) -> Event:
    """A new event in `season`, by the league's staff. Writes one `Event` with a slug made
    unique in the season. Raises `not-allowed`, `invalid-event`."""
    if not permissions.is_league_organiser(by_user, season.league):
        raise DomainError(
            "not-allowed", _("Only the league's organisers can create events."), status=403
        )
    _check_event_fields(fields)
    base = slugify(fields.get("name", "")) or "event"
    slug, n = base, 2
    while Event.objects.filter(season=season, slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    event = Event.objects.create(season=season, slug=slug, **fields)
    signals.event_saved.send(sender=Event, event=event, previous_status=None)
    return event


@transaction.atomic
def update_event(*, event: Event, by_user, **fields) -> Event:
    """Change an event's settings (staff). Best-of, format and kind are fixed once the event
    has started; how the divisions are paired, once round 1 is paired. Raises `not-allowed`, `invalid-event`, `event-started`."""
    event = Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
    if not permissions.can(by_user, event, "manage-event"):
        raise DomainError(
            "not-allowed", _("Only the event's organisers can change its settings."), status=403
        )
    _check_event_fields(fields, event)
    previous_status = event.status
    changed = {k: (getattr(event, k), v) for k, v in fields.items() if getattr(event, k) != v}
    for name, value in fields.items():
        setattr(event, name, value)
    event.save()
    if {"rule_edition", "starts_at"} & set(changed):
        _redivide(event)
    if changed and previous_status in (Event.Status.RUNNING, Event.Status.TOP_CUT):
        eventlog.record(
            event=event,
            kind=EventLogEntry.Kind.SETTINGS,
            by_user=by_user,
            summary=say(
                gettext_noop("Settings changed during play: %(fields)s."),
                fields=", ".join(sorted(changed)),
            ),
            before={k: _plain(v[0]) for k, v in changed.items()},
            after={k: _plain(v[1]) for k, v in changed.items()},
        )
    signals.event_saved.send(sender=Event, event=event, previous_status=previous_status)
    return event


def _redivide(event: Event) -> None:
    """Before round 1, the registrations' age divisions follow the event's edition (its
    cut-off years, `editions.division_years`) when the organiser picks another edition or
    moves the event's date; once the event has started, divisions stay as they were paired."""
    if event.swiss_rounds_paired or event.status not in (
        Event.Status.DRAFT,
        Event.Status.REGISTRATION,
    ):
        return
    event._edition_cache = None
    moved = []
    for registration in Registration.objects.filter(event=event).select_related("player"):
        division = division_of(registration.player, event)
        if registration.division != division:
            registration.division = division
            moved.append(registration)
    if moved:
        Registration.objects.bulk_update(moved, ["division"])


def _plain(value):
    """A setting's value as JSON: a format by its key, a date as text."""
    if hasattr(value, "key"):
        return value.key
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value
