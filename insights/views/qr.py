"""QR codes: the event's poster for the door, a player's code for staff to scan, and the
registration card that code opens (check-in, deck check)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from league import permissions
from league.models import Event, Registration
from league.view_helpers import get_event, own_registration, require, require_visible

from .. import selectors
from ..qr import qr_svg

DURING = {Event.Status.RUNNING, Event.Status.TOP_CUT}


def event_poster(request, event_id: int):
    """An A4 page: a big code to the event's page, its name, date and venue; it says
    "register" before the event and "pairings" while it runs."""
    event = get_event(event_id)
    require_visible(request, event)
    url = request.build_absolute_uri(reverse("event-detail", args=[event.pk]))
    call = (
        pgettext("poster", "Pairings")
        if event.status in DURING
        else pgettext("poster", "Results")
        if event.status == Event.Status.FINISHED
        else pgettext("poster", "Register")
    )
    return render(
        request,
        "insights/poster.html",
        {"event": event, "url": url, "call": call, "qr": qr_svg(url, title=f"{event.name}: {url}")},
    )


@login_required
def my_code(request, event_id: int):
    """The player's code: staff scan it to open the registration card."""
    event = get_event(event_id)
    require_visible(request, event)
    registration = own_registration(request.user, event)
    if registration is None:
        raise Http404(_("You are not registered for this event."))
    url = request.build_absolute_uri(reverse("registration-card", args=[event.pk, registration.pk]))
    return render(
        request,
        "insights/my_code.html",
        {
            "event": event,
            "registration": registration,
            "url": url,
            "qr": qr_svg(url, title=_("Your check-in code")),
        },
    )


@login_required
def registration_card(request, event_id: int, registration_id: int):
    """Staff: the registration a player's code opens, with check-in and the deck check."""
    event = get_event(event_id)
    require(request, event, "view-private")
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, event=event
    )
    deck = selectors.latest_decks_of([registration]).get(registration.pk)
    # The list, its legality and archetype under the one decklist rule (a scorekeeper
    # learns only that a list is in).
    deck_shown = deck is not None and permissions.can_view_decklist(request.user, registration)
    archetype = ""
    if deck_shown:
        archetype = selectors.archetype_of(
            registration, deck, selectors.league_rules(event.season.league)
        )
    return render(
        request,
        "insights/registration_card.html",
        {
            "event": event,
            "registration": registration,
            "deck": deck,
            "deck_shown": deck_shown,
            "archetype": archetype,
        },
    )
