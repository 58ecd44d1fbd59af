"""The scorekeeper's corrections from the round page (staff with `pair-rounds`): undo the
round, swap two players, move a table, seat a late arrival, pair two players, give a bye;
fixed and feature tables. One form posts here with an `action`; a pairing that needs a
confirmation (a rematch, score groups, a second bye) answers with a page that names it and
asks again. The form itself is `{% corrections_panel %}` (`templatetags/match_tags.py`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from league import services as league_services
from league.models import Registration
from league.params import parse_id, parse_number
from league.view_helpers import get_event, require, show_error
from rules.errors import DomainError

from .. import services
from ..models import Round

WARNINGS = {
    "rematch": gettext_lazy("Pair them although they have met before"),
    "score-groups": gettext_lazy("Pair them across score groups"),
    "second-bye": gettext_lazy("Give a second bye"),
}


def _registration(event, value) -> Registration | None:
    pk = parse_id(str(value or ""))
    if pk is None:
        return None
    return get_object_or_404(Registration.objects.select_related("player"), event=event, pk=pk)


def _number(value) -> int:
    return parse_number(str(value or "")) or 0


def _run(action: str, event, round_: Round, post, user):
    """Call the service `action` names with the form's fields; returns what it did in words."""
    reason = post.get("reason", "")
    confirm = post.getlist("confirm")
    a, b = _registration(event, post.get("a")), _registration(event, post.get("b"))
    common = {"round_": round_, "by_user": user, "reason": reason}
    if action == "undo":
        services.undo_round(**common)
        return _("Round %(number)s is undone: pair it again from the dashboard.") % {
            "number": round_.number
        }
    if action in ("swap", "pair") and a and b:
        call = services.swap_players if action == "swap" else services.pair_players
        call(a=a, b=b, confirm=confirm, **common)
        names = {"a": a.player.name, "b": b.player.name}
        if action == "swap":
            return _("%(a)s and %(b)s swapped; their players are told.") % names
        return _("%(a)s and %(b)s paired; their players are told.") % names
    if action == "seat" and a:
        mode = post.get("mode", "")
        services.seat_player(
            registration=a,
            mode=mode,
            opponent=b if mode == "opponent" else None,
            confirm=confirm,
            **common,
        )
        return _("%(player)s is seated.") % {"player": a.player.name}
    if action == "bye" and a:
        services.give_bye(registration=a, confirm=confirm, **common)
        return _("%(player)s has a bye.") % {"player": a.player.name}
    if action == "move":
        table, to_table = _number(post.get("table")), _number(post.get("to_table"))
        services.move_match(
            table=table, to_table=to_table, division=post.get("division", ""), **common
        )
        return _("Table %(table)s moved to table %(to_table)s.") % {
            "table": table,
            "to_table": to_table,
        }
    if action == "seating" and a:
        table = _number(post.get("fixed_table")) or None
        league_services.set_seating(
            registration=a,
            by_user=user,
            fixed_table=table,
            reason=reason,
        )
        if table:
            return _("%(player)s: table %(table)s every round.") % {
                "player": a.player.name,
                "table": table,
            }
        return _("%(player)s: no fixed table.") % {"player": a.player.name}
    if action == "feature-tables":
        words = post.get("tables", "").replace(",", " ").split()
        tables = [n for n in (parse_number(w, lo=1) for w in words) if n is not None]
        league_services.set_feature_tables(event=event, by_user=user, tables=tables, reason=reason)
        if not tables:
            return _("Feature tables: none.")
        return _("Feature tables: %(tables)s.") % {"tables": ", ".join(map(str, tables))}
    return None


@login_required
@require_POST
def round_correction(request, event_id: int, number: int):
    event = get_event(event_id)
    require(request, event, "pair-rounds")
    round_ = get_object_or_404(Round, event=event, number=number)
    action = request.POST.get("action", "")
    try:
        done = _run(action, event, round_, request.POST, request.user)
    except DomainError as exc:
        if exc.code == "needs-confirmation":
            return _confirm_page(request, event, round_, exc)
        show_error(request, exc)
        return _staff_view(event, number)
    if done is None:
        return HttpResponseBadRequest(_("Choose the correction and the players."))
    messages.success(request, done)
    if action == "undo":
        return redirect("event-dashboard", event.pk)
    return _staff_view(event, number)


def _staff_view(event, number: int):
    """The round page as staff see it, with this panel (`?live=1`: the plain URL is the
    one public body for every viewer, `matches.public_pages`)."""
    return redirect(reverse("round-pairings", args=[event.pk, number]) + "?live=1")


def _confirm_page(request, event, round_, exc: DomainError):
    """The pairing needs a confirmation: say what, and post the same form again with it."""
    asked = set(request.POST.getlist("confirm"))
    fields = [
        (k, v)
        for k in request.POST
        if k not in ("csrfmiddlewaretoken", "confirm")
        for v in request.POST.getlist(k)
    ]
    wanted = [
        (code, text) for code, text in WARNINGS.items() if code in getattr(exc, "warnings", ())
    ]
    return render(
        request,
        "matches/correction_confirm.html",
        {
            "event": event,
            "round": round_,
            "message": exc.message,
            "fields": fields,
            "warnings": wanted,
            "asked": asked,
        },
        status=409,
    )
