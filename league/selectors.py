"""Read queries of the league app shared by its services, the pages and the API."""

from __future__ import annotations

from django.db.models import Count

from .models import DeckSubmission, Event, Registration

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
