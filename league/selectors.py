"""Read queries of the league app shared by its services, the pages and the API."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from .models import DeckSubmission, Event, Registration
from .public_record import public_name

#: Registrations that hold a place: registered or checked in.
ACTIVE = (Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)


def active_count(event: Event) -> int:
    """How many registrations of `event` hold a place (registered or checked in)."""
    return Registration.objects.filter(event=event, status__in=ACTIVE).count()


def registration_counts(event: Event) -> dict[str, int]:
    """How many registrations of `event` have each status (one query), with `active`:
    registered or checked in."""
    counts = dict(
        Registration.objects.filter(event=event)
        .order_by()
        .values_list("status")
        .annotate(n=Count("id"))
    )
    counts["active"] = sum(counts.get(status, 0) for status in ACTIVE)
    return counts


def public_decklist(registration: Registration) -> DeckSubmission | None:
    """The list that counts, which is all the public sees once decklists are published:
    the latest version (the one the deck check and the printed sheets use)."""
    return registration.deck_submissions.order_by("-version").first()


def public_names(registration_ids, today=None) -> dict[int, str]:
    """Each registration's public name (`public_record.public_name`: a minor's first name
    and initial), in one query: for rows that carry a registration id and a full name
    (standings snapshots, final places)."""
    today = today or timezone.localdate()
    return {
        pk: public_name(_Named(name, birth_date), today)
        for pk, name, birth_date in Registration.objects.filter(
            pk__in=set(registration_ids)
        ).values_list("pk", "player__name", "player__birth_date")
    }


class _Named:
    __slots__ = ("birth_date", "name")

    def __init__(self, name: str, birth_date) -> None:
        self.name, self.birth_date = name, birth_date


def with_public_names(rows: list[dict], *, key: str = "player") -> list[dict]:
    """`rows` (dicts with `registration` and the full name at `key`) with the public name at
    `key` instead: what a public page, its JSON and its CSV show."""
    names = public_names(row["registration"] for row in rows if row.get("registration"))
    return [
        {**row, key: names[row["registration"]]} if row.get("registration") in names else row
        for row in rows
    ]


#: On the roster: who holds a place, and who dropped during the event.
ROSTER = (*ACTIVE, Registration.Status.DROPPED)


def roster(event: Event) -> list[dict]:
    """The event's roster as the public sees it (ask `permissions.can_view_roster` first):
    each player's public name (`public_record.public_name`: a minor's first name and
    initial), division and status, sorted by name; no player id, no birth date."""
    today = timezone.localdate()
    rows = [
        {
            "name": public_name(reg.player, today),
            "division": reg.division,
            "division_name": reg.get_division_display(),
            "status": reg.status,
            "dropped": reg.status == Registration.Status.DROPPED,
            "page": None if reg.player.page_hidden else reg.player_id,
        }
        for reg in Registration.objects.filter(event=event, status__in=ROSTER).select_related(
            "player"
        )
    ]
    return sorted(rows, key=lambda row: (row["name"].casefold(), row["division"]))


def search_events(
    events: QuerySet[Event],
    *,
    text: str = "",
    league: str = "",
    format: str = "",
    date_from=None,
    date_to=None,
    status: str = "",
) -> QuerySet[Event]:
    """`events` (already narrowed to what the viewer may see: `permissions.visible_events`)
    filtered as the events search asks: words in the name, venue or league, the league's
    slug, the format's key, a date range (on the event's start, inclusive) and a status
    (`past` for finished events); upcoming first, then the most recent past."""
    if text:
        for word in text.split()[:6]:
            events = events.filter(
                Q(name__icontains=word)
                | Q(venue_name__icontains=word)
                | Q(venue_address__icontains=word)
                | Q(season__league__name__icontains=word)
            )
    if league:
        events = events.filter(season__league__slug=league)
    if format:
        events = events.filter(format__key=format)
    if date_from:
        events = events.filter(starts_at__date__gte=date_from)
    if date_to:
        events = events.filter(starts_at__date__lte=date_to)
    if status == "past":
        events = events.filter(status=Event.Status.FINISHED)
    elif status:
        events = events.filter(status=status)
    return events.select_related("season__league", "format").order_by("-starts_at", "-pk")
