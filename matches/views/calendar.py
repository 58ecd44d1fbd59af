"""Calendar feeds: a league's events (public), and a user's own events at a secret
address (`league.CalendarFeed`; a wrong or revoked token is "not found")."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _

from league import permissions
from league.models import CalendarFeed, Event, League, Registration

from ..calendar import build_calendar, running_rounds

CONTENT_TYPE = "text/calendar; charset=utf-8"
#: What the private feed lists: the events one holds a place at (or waits for).
OWN = (
    Registration.Status.REGISTERED,
    Registration.Status.CHECKED_IN,
    Registration.Status.WAITLISTED,
    Registration.Status.DROPPED,
)


def _feed(request, name: str, events, *, rounds: bool, filename: str) -> HttpResponse:
    body = build_calendar(
        name,
        events,
        url_of=lambda e: request.build_absolute_uri(reverse("event-detail", args=[e.pk])),
        host=request.get_host().split(":")[0] or "league",
        rounds_of=running_rounds if rounds else None,
    )
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=300"
    return response


def league_calendar(request, slug: str):
    """Every announced event of the league (drafts never), newest first."""
    league = get_object_or_404(League, slug=slug)
    events = (
        permissions.visible_events(AnonymousUser(), Event.objects.filter(season__league=league))
        .select_related("season__league")
        .order_by("-starts_at")[:500]
    )
    return _feed(request, league.name, events, rounds=False, filename=f"{league.slug}.ics")


def my_calendar(request, token: str):
    """The events the token's owner is registered for, with their running rounds."""
    feed = CalendarFeed.objects.filter(token=token).select_related("user").first()
    if feed is None:
        raise Http404(_("No such calendar."))
    events = (
        Event.objects.filter(registrations__player__user=feed.user, registrations__status__in=OWN)
        .exclude(status=Event.Status.DRAFT)
        .select_related("season__league")
        .order_by("-starts_at")[:500]
    )
    return _feed(request, _("My events"), events, rounds=True, filename="my-events.ics")
