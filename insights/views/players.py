"""A player's public page: their events, places and (where the event's decklist phase
makes the list public) archetypes. A hidden page (`Player.page_hidden`) is "not found" to
everyone but the player; the name is the public one (a minor's first name and initial)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from league import permissions
from league.models import Event, Player, Registration
from league.public_record import public_name

from .. import selectors

SHOWN = (
    Registration.Status.REGISTERED,
    Registration.Status.CHECKED_IN,
    Registration.Status.DROPPED,
)


def player_page(request, player_id: int):
    player = get_object_or_404(Player, pk=player_id)
    own = request.user.is_authenticated and player.user_id == request.user.pk
    if player.page_hidden and not own:
        raise Http404(_("No such player page."))
    registrations = (
        Registration.objects.filter(player=player, status__in=SHOWN)
        .exclude(event__status=Event.Status.DRAFT)
        .select_related("event__season__league", "event__format", "placement")
        .order_by("-event__starts_at")[:200]
    )
    rows = []
    for reg in registrations:
        event = reg.event
        archetype = ""
        if permissions.decklist_is_public(reg):
            rules = selectors.league_rules(event.season.league)
            archetype = selectors.archetype_of(reg, reg.current_deck, rules)
        placement = getattr(reg, "placement", None)
        place = placement.place if placement else None
        rows.append(
            {
                "event": event,
                "registration": reg,
                "division": reg.get_division_display(),
                "place": place,
                "archetype": archetype,
            }
        )
    return render(
        request,
        "insights/player_page.html",
        {"name": public_name(player), "player": player, "own": own, "rows": rows},
    )
