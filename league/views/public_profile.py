"""The profile's public side: hide or show one's player page; the private calendar
address (make one, replace it to revoke the old, or stop it)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..services import calendar


@login_required
@require_POST
def profile_public(request):
    what = request.POST.get("do", "")
    player = getattr(request.user, "player", None)
    if what in ("hide", "show") and player is not None:
        calendar.set_page_hidden(player=player, hidden=what == "hide")
        messages.success(
            request,
            _("Your player page is hidden.")
            if what == "hide"
            else _("Your player page is public."),
        )
    elif what == "calendar":
        calendar.calendar_token(user=request.user)
        messages.success(request, _("Your calendar address is ready: add it to your calendar app."))
    elif what == "calendar-new":
        calendar.renew_calendar_token(user=request.user)
        messages.success(request, _("A new calendar address: the old one no longer works."))
    elif what == "calendar-stop":
        calendar.stop_calendar(user=request.user)
        messages.success(request, _("Your calendar address no longer works."))
    return redirect("/accounts/profile/#public")
