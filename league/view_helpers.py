"""Helpers every page shares: loading an event, who may see it and do what (`can`,
`require`: `permissions.can`, asked once per request), the player's own registration, the
redirect back, and `show_error`, the one way a `DomainError` becomes something on a page.

This is the shared page toolkit of every app with pages: `league`, `matches`, `floor`,
`insights`, `gamenights`, `tom` and `webhooks` import it (the layers let every app above
`league` do so). It holds only what pages of several apps need; a helper one app uses
stays in that app's `views/`.
"""

from __future__ import annotations

import functools

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from notifications.language import in_event_language
from rules.errors import DomainError

from . import permissions
from .models import Event, Registration


def show_error(request, exc: DomainError, *, form=None, prefix: str = "") -> None:
    """Show a service's `DomainError` on the page: a 403 error (not allowed) becomes the
    403 page, as in the API; otherwise its message is added to `form` as a non-field error
    when a form is given (the page shows the form again), else shown as a message, after
    `prefix` (e.g. "Table 4: ")."""
    if exc.status == 403:
        raise PermissionDenied(exc.message) from exc
    if form is not None:
        form.add_error(None, exc.message)
    else:
        messages.error(request, f"{prefix}{exc.message}")


def get_event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("season__league", "format"), pk=event_id)


def staff_actions(request, event: Event) -> frozenset[str]:
    """Every staff action (`permissions.ACTIONS`) the signed-in user may do at `event`,
    asked once per request and event (templates test `"pair-rounds" in can`)."""
    cache = request.__dict__.setdefault("_staff_actions", {})
    if event.pk not in cache:
        cache[event.pk] = permissions.actions_for(permissions.roles_of(request.user, event))
    return cache[event.pk]


def can(request, event: Event, action: str) -> bool:
    """`permissions.can` for the request's user, remembered for the request."""
    if action not in permissions.ACTIONS:
        raise ValueError(f"unknown staff action {action!r}")
    return action in staff_actions(request, event)


def is_staff(request, event: Event) -> bool:
    """Whether the user sees what only staff see (`can(..., "view-private")`)."""
    return can(request, event, "view-private")


def require(request, event: Event, action: str) -> None:
    """403 unless the user may do `action` at `event`; a draft stays "not found" to
    anyone who is not its staff."""
    if not can(request, event, action):
        require_visible(request, event)
        raise PermissionDenied(_("Your staff role at this event does not allow this."))


def require_visible(request, event: Event) -> None:
    """`permissions.can_view_event`: a draft event is not announced yet, only its staff
    see it; anyone else gets "not found", as in the API."""
    if event.status == Event.Status.DRAFT and not is_staff(request, event):
        raise Http404(_("No such event."))


def own_registration(user, event: Event) -> Registration | None:
    if not user.is_authenticated:
        return None
    return (
        Registration.objects.filter(event=event, player__user=user).select_related("player").first()
    )


def safe_next(request) -> str:
    """The `next` address (POSTed, or in the query string) when it is local, else ''."""
    target = request.POST.get("next") or request.GET.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def back(request, default: str, *args):
    """Redirect to the POSTed `next` when it is a local address, else to `default`."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default, *args)


def get_registration(event_id: int, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event__season__league", "event__format", "player"),
        pk=registration_id,
        event_id=event_id,
    )


def printed_in_event_language(view):
    """For a view that prints for everyone at an event (a PDF: match slips, deck sheets,
    wall lists), taking `event_id`: its words in the event's language and its times in the
    event's time zone (`notifications.language.in_event_language`), whoever asks. (A
    message it shows on the way is in that language too.)"""

    @functools.wraps(view)
    def in_language(request, *args, **kwargs):
        event = Event.objects.filter(pk=kwargs.get("event_id", args[0] if args else None))
        with in_event_language(event.only("language", "time_zone").first()):
            return view(request, *args, **kwargs)

    return in_language
