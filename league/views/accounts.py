"""A player's own account: sign-up and the player profile. (Their events and match
history are in `matches.views.players`.)"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules.divisions import division_for
from rules.errors import DomainError

from .. import notify, services
from ..forms import PasswordResetByWorkerForm, ProfileForm, SignupForm
from ..languages import set_language_cookie, supported
from ..models import CalendarFeed, Division, Season
from ..params import parse_id
from ..services import tokens
from ..view_helpers import safe_next, show_error

#: "Forgot your password?": Django's page, with the e-mail sent by the worker after the
#: response (`services.request_password_reset`), so known and unknown addresses answer alike.
password_reset = PasswordResetView.as_view(form_class=PasswordResetByWorkerForm)


def _with_next(name: str, next_url: str) -> str:
    url = reverse(name)
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def signup(request):
    """A new account, signed in at once and sent on to the profile step (keeping `next`,
    e.g. the event page the newcomer came from). An address another account already uses
    gets the same answer (no account enumeration); its owner is mailed about it."""
    next_url = safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if known := form.known_addresses():
            notify.signup_with_known_address(known)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(username)s! One more step: your player profile.")
            % {"username": user.get_username()},
        )
        return redirect(_with_next("profile", next_url))
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def _current_seasons(birth_date) -> list[dict]:
    """The seasons running today, with their division cut-offs and, given a birth date,
    the division it falls in."""
    today = timezone.localdate()
    seasons = (
        Season.objects.filter(starts_on__lte=today, ends_on__gte=today)
        .select_related("league")
        .order_by("league__name", "starts_on")
    )
    return [
        {
            "season": season,
            "division": Division(
                division_for(
                    birth_date.year,
                    junior_from=season.junior_from_year,
                    senior_from=season.senior_from_year,
                )
            ).label
            if birth_date
            else "",
        }
        for season in seasons
    ]


def _calendar_url(request) -> str:
    feed = CalendarFeed.objects.filter(user=request.user).first()
    return request.build_absolute_uri(reverse("my-calendar", args=[feed.token])) if feed else ""


def _chosen(request) -> str:
    """The language picked with the footer's switcher (the cookie), if any: the profile
    form starts from it, so saving the profile keeps it."""
    return supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


def _with_language(response, code: str):
    """The profile's language becomes the reader's now (the cookie); none: the browser's."""
    if supported(code):
        set_language_cookie(response, supported(code))
    else:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH)
    return response


@login_required
def profile(request, new_key: str = ""):
    """Create or edit the signed-in user's player profile (`services.save_profile`); shows
    the age division it gives in each season running today."""
    player = getattr(request.user, "player", None)
    next_url = safe_next(request)
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid():
            try:
                services.save_profile(user=request.user, **form.cleaned_data)
            except DomainError as exc:
                show_error(request, exc)
                if exc.code == "duplicate-player-id":
                    form.add_error("player_id", _("Another player already has this ID."))
            else:
                messages.success(
                    request,
                    _("Your profile is saved.")
                    if player
                    else _("Your player profile is ready: you can register for events now."),
                )
                return _with_language(
                    redirect(next_url or "profile"), form.cleaned_data["language"]
                )
    elif player is not None:
        form = ProfileForm(
            initial={"name": player.name, "player_id": player.player_id,
                     "birth_date": player.birth_date, "email": player.email or request.user.email,
                     "language": player.language or _chosen(request)}
        )  # fmt: skip
    else:
        form = ProfileForm(initial={"email": request.user.email, "language": _chosen(request)})
    return render(
        request,
        "league/profile.html",
        {
            "form": form,
            "player": player,
            "next": next_url,
            "seasons": _current_seasons(player.birth_date if player else None),
            "tokens": list(request.user.api_tokens.all()),
            "new_key": new_key,
            "calendar_url": _calendar_url(request),
        },
    )


@login_required
@require_POST
def profile_tokens(request):
    """Create a personal API token (its key is shown once, on this answer) or revoke one."""
    if "revoke" in request.POST:
        token_id = parse_id(request.POST["revoke"])
        if token_id is not None and tokens.revoke_api_token(user=request.user, token_id=token_id):
            messages.success(request, _("Token revoked: scripts using it are refused from now on."))
        return redirect("profile")
    try:
        _token, key = tokens.create_api_token(user=request.user, name=request.POST.get("name", ""))
    except DomainError as exc:
        show_error(request, exc)
        return redirect("profile")
    request.method = "GET"
    response = profile(request, new_key=key)
    # The key is on this answer only: no browser or proxy may keep a copy of it.
    add_never_cache_headers(response)
    return response
