"""The league's staff page: its organisers, judges and scorekeepers (league-wide or for one
event); organisers add an account by username with a role, and remove one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.errors import DomainError

from .. import permissions
from ..models import Event, League
from ..params import parse_id
from ..services import staff
from ..view_helpers import show_error


class AddStaffForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=staff.ROLES)
    event = forms.ModelChoiceField(
        queryset=Event.objects.none(),
        label=gettext_lazy("Event"),
        required=False,
        empty_label=gettext_lazy("The whole league"),
        help_text=gettext_lazy("Judges and scorekeepers can be staff of one event only."),
    )

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = Event.objects.filter(season__league=league).order_by(
            "-starts_at"
        )


@login_required
def league_staff(request, slug: str):
    """Organisers: the league's staff, with a form to add one and a button to remove."""
    league = get_object_or_404(League, slug=slug)
    if not permissions.is_league_organiser(request.user, league):
        raise PermissionDenied(_("Only the league's organisers manage its staff."))
    initial = {}
    if (event_id := parse_id(request.GET.get("event"))) is not None:
        initial["event"] = event_id
    form = AddStaffForm(request.POST or None, league=league, initial=initial)
    if request.method == "POST":
        try:
            if "remove_role" in request.POST or "remove_organiser" in request.POST:
                role_id, organiser_id = (
                    request.POST.get("remove_role", ""),
                    request.POST.get("remove_organiser", ""),
                )
                staff.remove_staff(
                    league=league,
                    by_user=request.user,
                    role_id=parse_id(role_id),
                    organiser_id=parse_id(organiser_id),
                )
                messages.success(request, _("Removed from the staff."))
                return redirect("league-staff", league.slug)
            if form.is_valid():
                member = staff.add_staff(league=league, by_user=request.user, **form.cleaned_data)
                names = {
                    "user": member.username,
                    "role": member.role_label,
                    "event": member.event_name,
                }
                messages.success(
                    request,
                    _("%(user)s is now %(role)s at %(event)s.") % names
                    if member.event_name
                    else _("%(user)s is now %(role)s.") % names,
                )
                return redirect("league-staff", league.slug)
        except DomainError as exc:
            show_error(request, exc, form=form if form.is_bound and form.is_valid() else None)
    return render(
        request,
        "league/staff.html",
        {
            "league": league,
            "members": staff.staff_of(league),
            "form": form,
            "role_actions": [
                (
                    label,
                    [
                        words
                        for action, words in permissions.ACTION_NAMES.items()
                        if action in permissions.ROLE_ACTIONS[key]
                    ],
                )
                for key, label in staff.ROLES
            ],
        },
    )
