"""The metagame page, a player's rounds, naming a list's archetype, the league's rules."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from league import permissions
from league.models import League, Registration
from league.view_helpers import get_event, is_staff, require_visible, show_error
from rules.archetypes import format_rules
from rules.errors import DomainError

from .. import charts, selectors, services


def event_metagame(request, event_id: int):
    """Shares, records and match-ups of the archetypes, once lists are public (staff see a
    preview before)."""
    event = get_event(event_id)
    require_visible(request, event)
    shown = selectors.metagame_shown(request.user, event)
    context = {"event": event, "shown": shown, "public": permissions.decklists_are_public(event)}
    if shown:
        meta, archetypes = selectors.event_metagame(event)
        names = meta.archetypes
        players = (
            Registration.objects.filter(pk__in=archetypes)
            .select_related("player")
            .order_by("player__name")
        )
        context.update(
            meta=meta,
            share_rows=[(s, meta.records[s.archetype]) for s in meta.shares],
            matchup_rows=[(x, [meta.matchups[x][y] for y in names]) for x in names],
            share_svg=charts.share_chart(meta) if names else "",
            matchup_svg=charts.matchup_chart(meta) if names else "",
            players=[(reg, archetypes[reg.pk]) for reg in players],
        )
    return render(request, "insights/metagame.html", context)


def player_rounds(request, event_id: int, registration_id: int):
    """A player's standing round by round (published standings; staff see the live ones)."""
    event = get_event(event_id)
    require_visible(request, event)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, event=event
    )
    rows = selectors.player_rounds(registration, published_only=not is_staff(request, event))
    players = event.registrations.exclude(status__in=["waitlisted", "withdrawn"]).count()
    archetype = ""
    if permissions.can_view_decklist(request.user, registration):
        rules = selectors.league_rules(event.season.league)
        deck = selectors.latest_decks_of([registration]).get(registration.pk)
        archetype = selectors.archetype_of(registration, deck, rules) if deck else ""
    can_name = permissions.owns_registration(request.user, registration) or permissions.can(
        request.user, event, "deck-checks"
    )
    return render(
        request,
        "insights/player_rounds.html",
        {
            "event": event,
            "registration": registration,
            "rows": rows,
            "chart": charts.standing_chart(rows, players) if any(r["rank"] for r in rows) else "",
            "archetype": archetype,
            "can_name": can_name,
        },
    )


@login_required
@require_POST
def archetype_edit(request, event_id: int, registration_id: int):
    event = get_event(event_id)
    require_visible(request, event)
    registration = get_object_or_404(Registration, pk=registration_id, event=event)
    try:
        services.set_archetype(
            user=request.user,
            registration=registration,
            archetype=request.POST.get("archetype", ""),
        )
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(request, _("Archetype saved."))
    return redirect("player-rounds", event.pk, registration.pk)


@login_required
@require_http_methods(["GET", "POST"])
def archetype_rules(request, slug: str):
    """The league's organisers edit the ordered rules that suggest archetypes."""
    league = get_object_or_404(League, slug=slug)
    if not permissions.is_league_organiser(request.user, league):
        raise PermissionDenied(_("Only the league's organisers edit its archetype rules."))
    text = format_rules(selectors.league_rules(league))
    if request.method == "POST":
        text = request.POST.get("rules", "")
        try:
            services.save_archetype_rules(user=request.user, league=league, text=text)
        except DomainError as exc:
            show_error(request, exc)
        else:
            messages.success(request, _("Archetype rules saved."))
            return redirect("archetype-rules", league.slug)
    return render(request, "insights/archetype_rules.html", {"league": league, "text": text})
