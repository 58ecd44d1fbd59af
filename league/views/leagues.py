"""Leagues and events: the home page, a league's page, creating and editing an event."""

from __future__ import annotations

import zoneinfo
from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import DomainError

from .. import permissions, services
from ..forms import EventForm
from ..models import Event, League, SeasonStanding
from ..public_record import zone_name
from ..view_helpers import get_event, require, show_error

PUBLIC_STATUSES = (Event.Status.REGISTRATION, Event.Status.RUNNING, Event.Status.TOP_CUT)


def form_time_zone(request, event: Event | None):
    """The event form's times are read and shown in the event's time zone (the one posted,
    else the event's, else the site's)."""
    posted = request.POST.get("time_zone") if request.method == "POST" else None
    name = zone_name(posted or (event.time_zone if event else None))
    return timezone.override(zoneinfo.ZoneInfo(name))


def home(request):
    """Every league with its events that are open for registration or running."""
    leagues = list(League.objects.all())
    events = defaultdict(list)
    for event in (
        Event.objects.filter(status__in=PUBLIC_STATUSES)
        .select_related("season__league", "format")
        .order_by("starts_at")
    ):
        events[event.season.league_id].append(event)
    rows = [{"league": league, "events": events[league.pk]} for league in leagues]
    return render(request, "league/home.html", {"rows": rows})


def league_detail(request, slug: str):
    """A league's seasons, their events and each season's leaderboard."""
    league = get_object_or_404(League, slug=slug)
    staff = permissions.is_league_organiser(request.user, league)
    events = permissions.visible_events(
        request.user, Event.objects.select_related("format").order_by("starts_at")
    )
    seasons = league.seasons.prefetch_related(
        Prefetch("events", queryset=events),
        Prefetch(
            "leaderboard", queryset=SeasonStanding.objects.select_related("player").order_by("rank")
        ),
    )
    return render(
        request, "league/league_detail.html", {"league": league, "seasons": seasons, "staff": staff}
    )


@login_required
def event_create(request, slug: str):
    """League staff: a new event in the league's current season."""
    league = get_object_or_404(League, slug=slug)
    if not permissions.is_league_organiser(request.user, league):
        raise PermissionDenied
    season = league.seasons.order_by("-starts_on").first()
    if season is None:
        messages.error(request, _("Create a season first (in the admin)."))
        return redirect("league-detail", league.slug)
    with form_time_zone(request, None):
        form = EventForm(request.POST or None, initial={"status": Event.Status.REGISTRATION})
        if request.method == "POST" and form.is_valid():
            try:
                event = services.create_event(
                    season=season, by_user=request.user, **form.cleaned_data
                )
            except DomainError as exc:
                show_error(request, exc, form=form)
            else:
                messages.success(request, _("%(event)s created.") % {"event": event.name})
                return redirect("event-detail", event.pk)
        return render(
            request, "league/event_form.html", {"form": form, "league": league, "season": season}
        )


@login_required
def event_edit(request, event_id: int):
    """Event staff: change the event's settings."""
    event = get_event(event_id)
    require(request, event, "manage-event")
    with form_time_zone(request, event):
        form = EventForm(request.POST or None, instance=event)
        if request.method == "POST" and form.is_valid():
            try:
                services.update_event(event=event, by_user=request.user, **form.cleaned_data)
            except DomainError as exc:
                show_error(request, exc, form=form)
            else:
                messages.success(request, _("Event settings saved."))
                return redirect("event-detail", event.pk)
        return render(
            request,
            "league/event_form.html",
            {"form": form, "league": event.season.league, "event": event},
        )
