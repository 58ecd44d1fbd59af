"""The viewer's own part of an event's public pages: `GET /events/<id>/me.json`.

The public round pages are one body for every viewer (`matches.public_pages`); what is
personal comes from here, fetched by `matches/static/matches/me.js`:

- `version`: the event's page version now, as a string (a nanosecond clock is more than a
  JavaScript number holds exactly; a page that names an older one is stale);
- `user`: null for an anonymous viewer, else the name, the unread count (the inbox badge),
  the links of the signed-in menu and a CSRF token for its "Log out" form;
- `staff`: whether the viewer sees what staff see, and `links` (dashboard, results grid,
  the round's paper, the live staff view of the page: `?live=1`);
- `registration`, `match`: the viewer's entry and, with `?round=N`, their match of that
  round ("your table": table, division, opponent, a link to the match).

Answered with `Cache-Control: private, no-store`: no shared cache and no service worker may
keep it, since it is one user's. The whole answer is kept per viewer and versions by
`matches.own_pages` (a repeated one is served before the session is read); the server's
time is its `Date` header. The part that depends on the event (staff, links,
registration, match) is kept in the cache per user, version of the event and version of
the league's staff (`permissions.staff_version`: a new role shows at once). A repeated
answer makes no query: the event is kept per version, the user per account
(`league.user_cache`), the unread count per generation of the user's notifications
(`notifications.services.unread_count`).
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Q
from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from league.models import Registration
from league.params import parse_number
from league.permissions import staff_version
from league.public_record import public_name
from league.view_helpers import get_event, is_staff, require_visible
from notifications.services import request_unread_count

from .. import page_cache
from ..models import Round


def _round_number(request) -> int | None:
    raw = request.GET.get("round", "")
    return parse_number(raw, lo=1, hi=99_999)


def _event_part(request, event, number: int | None) -> dict:
    """Staff, their links, the viewer's registration and their match of round `number`."""
    user = request.user
    staff = is_staff(request, event)
    links = []
    if staff:
        links.append({"label": _("Dashboard"), "url": reverse("event-dashboard", args=[event.pk])})
    round_ = None
    if number is not None:
        round_ = Round.objects.filter(event=event, number=number).first()
        if round_ is not None and not (round_.is_public or staff):
            round_ = None
    if staff and round_ is not None:
        n = round_.number
        links += [
            {"label": _("Results grid"), "url": reverse("round-results", args=[event.pk, n])},
            {
                "label": _("Print pairings (PDF)"),
                "url": reverse("round-paper", args=[event.pk, n, "by-table"]),
            },
            {
                "label": _("Match slips (PDF)"),
                "url": reverse("round-paper", args=[event.pk, n, "slips"]),
            },
        ]
    if staff:
        links.append({"label": _("Staff view"), "url": "?live=1"})
    registration = (
        Registration.objects.filter(event=event, player__user=user)
        .values("pk", "player__name", "player__player_id")
        .first()
    )
    match = None
    if registration and round_ is not None:
        found = (
            round_.matches.filter(
                Q(player_a_id=registration["pk"]) | Q(player_b_id=registration["pk"])
            )
            .select_related("player_a__player", "player_b__player")
            .first()
        )
        if found is not None:
            other = found.player_b if found.player_a_id == registration["pk"] else found.player_a
            match = {
                "round": round_.number,
                "table": found.table,
                "division": found.division,
                "opponent": public_name(other.player) if other else None,
                "url": reverse("match-detail", args=[found.pk]),
            }
    return {
        "staff": staff,
        "links": links,
        "registration": {"id": registration["pk"], "name": registration["player__name"]}
        if registration
        else None,
        "match": match,
    }


def _words() -> dict:
    """The words `me.js` writes into the page, in the reader's language (no words live in
    the static script)."""
    return {
        "inbox": _("Inbox"),
        "unread": pgettext("inbox badge", "unread"),
        "log_out": _("Log out"),
        "my_events": _("My events"),
        "profile": _("Profile"),
        "signed_in_as": _("Signed in as %(name)s"),
        "your_table": _("Your table: "),
        "bye": pgettext("no opponent", "BYE"),
        "newer": _("Newer results are in since this page was made. "),
        "reload": _("Reload"),
    }


def event_me(request, event_id: int):
    version = page_cache.version(event_id)
    # The event as it is at this version (every save of it bumps the version).
    event = page_cache.cached(event_id, "event", lambda: get_event(event_id), at=version)
    require_visible(request, event)
    data = {
        "version": str(version),
        "user": None,
        "staff": False,
        "links": [],
        "registration": None,
        "match": None,
        "words": _words(),
    }
    user = request.user
    if user.is_authenticated:
        number = _round_number(request)
        # The labels are in the reader's language: one cached part per language; the
        # staff part follows the league's staff version.
        staff = staff_version(event.season.league_id)
        key = f"event-pages:{event.pk}:{version}:me:{user.pk}:{number}:{get_language()}:{staff}"
        part = cache.get(key)
        if part is None:
            part = _event_part(request, event, number)
            cache.set(key, part, timeout=page_cache.FRAGMENT_TIMEOUT)
        data.update(part)
        data["user"] = {
            "name": user.get_username(),
            "unread": request_unread_count(request),
            "csrf": get_token(request),
            "links": {
                "my_events": reverse("my-events"),
                "profile": reverse("profile"),
                "inbox": reverse("inbox"),
                "logout": reverse("logout"),
            },
        }
    response = JsonResponse(data)
    response["Cache-Control"] = "private, no-store"
    return response
