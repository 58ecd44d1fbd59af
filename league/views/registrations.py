"""Registering for an event, checking in and dropping."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules.errors import DomainError

from .. import permissions, services
from ..models import Registration
from ..view_helpers import back, can, get_event, get_registration, require_visible, show_error


@login_required
@require_POST
def event_register(request, event_id: int):
    event = get_event(event_id)
    require_visible(request, event)
    player = getattr(request.user, "player", None)
    if player is None:
        messages.error(
            request,
            _("You have no player profile yet: add your Play! Pokémon ID and birth date first."),
        )
        return redirect(f"{reverse('profile')}?next={reverse('event-detail', args=[event.pk])}")
    try:
        registration = services.register(event=event, player=player, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        if registration.status == Registration.Status.WAITLISTED:
            messages.warning(
                request,
                _("%(event)s is full: you are on the waiting list.") % {"event": event.name},
            )
        elif registration.late_entry_round:
            messages.success(
                request,
                _("You are registered as a late entrant: you play from round %(round)s.")
                % {"round": registration.late_entry_round},
            )
        else:
            messages.success(
                request, _("You are registered for %(event)s.") % {"event": event.name}
            )
    return redirect("event-detail", event.pk)


@login_required
@require_POST
def registration_drop(request, event_id: int, registration_id: int):
    registration = get_registration(event_id, registration_id)
    try:
        registration = services.drop(registration=registration, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        if registration.status == Registration.Status.WITHDRAWN:
            messages.success(
                request,
                _("%(player)s withdrew from the event.") % {"player": registration.player.name},
            )
        else:
            messages.success(
                request,
                # Translators: "dropped" is the TCG term for leaving an event (drop).
                _("%(player)s dropped after round %(round)s.")
                % {"player": registration.player.name, "round": registration.dropped_after_round},
            )
    return back(request, "event-detail", event_id)


@login_required
@require_POST
def registration_check_in(request, event_id: int, registration_id: int):
    registration = get_registration(event_id, registration_id)
    if not (
        permissions.owns_registration(request.user, registration)
        or can(request, registration.event, "pair-rounds")
    ):
        raise PermissionDenied(_("This is not your registration."))
    try:
        services.check_in(registration=registration, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(
            request, _("%(player)s is checked in.") % {"player": registration.player.name}
        )
    return back(request, "event-detail", event_id)
