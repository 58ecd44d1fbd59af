"""A player's report from the match page (`match_report`): the form's payload, the match
read and locked by one query in the transaction that writes the report."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.view_helpers import show_error
from rules.errors import DomainError

from .. import services
from ..forms import BestOfThreeQuickForm, PlayerGamesForm, QuickReportForm
from ..models import Match
from ..presenters import match_result_text
from .results import _after_time, _load_match, _render_match, _rows, _rule_options, _side


def _report_message(request, match: Match) -> None:
    if match.status == Match.Status.FINAL:
        messages.success(
            request,
            _("Both reports agree: %(result)s. The result stands.")
            % {"result": match_result_text(match)},
        )
    elif match.status == Match.Status.DISPUTED:
        messages.warning(
            request,
            _("Your report differs from your opponent's: the staff will decide the result."),
        )
    else:
        messages.success(request, _("Reported. Your opponent is asked to confirm."))


@login_required
@require_POST
def match_report(request, match_id: int):
    """A player reports their match: one tap (best of 1), game by game, or confirming the
    opponent's report. The match is read and locked by one query, in the transaction the
    service writes the report in (`report_result(locked=True)`): no second read to lock
    it. What answers a refused report (the page again, with the form) is rendered after
    that transaction, never while it holds the match."""
    answer: dict = {}
    try:
        with transaction.atomic():
            match = _load_match(request, match_id, lock=True)
            answer = _report(request, match)
            if "payload" in answer:
                match = services.report_result(
                    match=match, by_user=request.user, payload=answer["payload"], locked=True
                )
    except DomainError as exc:
        show_error(request, exc)
        if "form" in answer:
            return _render_match(request, match, games_form=answer["form"])
        return redirect("match-detail", match.pk)
    if "invalid" in answer:
        return _render_match(request, match, games_form=answer["invalid"])
    if "refused" in answer:
        return answer["refused"]
    _report_message(request, match)
    return redirect("match-detail", match.pk)


def _report(request, match: Match) -> dict:
    """The report `request` posts for `match`: `{"payload": ..., "form": the form, if
    any}`, `{"refused": a redirect}` (a message says why), or `{"invalid": the form}`."""
    # The service's rule (a repeated report after the result stands is answered by it).
    if (refusal := services.report_refusal(match, request.user, retry=True)) is not None:
        show_error(request, refusal)
        return {"refused": redirect("match-detail", match.pk)}
    side = _side(request, match)
    mode = request.POST.get("mode", "games")
    if mode == "confirm":
        other = (
            match.reports.filter(side="b" if side == "a" else "a", superseded=False)
            .order_by("-id")
            .first()
        )
        if other is None:
            messages.error(request, _("Your opponent has not reported yet."))
            return {"refused": redirect("match-detail", match.pk)}
        keys = ("games", "at_time", "intentional_draw", "extra_turns")
        return {"payload": {key: other.payload.get(key) for key in keys}}
    if mode == "quick":
        quick = QuickReportForm(request.POST)
        if not quick.is_valid():
            for error in quick.errors.values():
                messages.error(request, error[0])
            return {"refused": redirect("match-detail", match.pk)}
        return {"payload": quick.payload(side)}
    if mode == "quick3":
        quick3 = BestOfThreeQuickForm(request.POST)
        if not quick3.is_valid():
            messages.error(request, _("Choose one of the result buttons."))
            return {"refused": redirect("match-detail", match.pk)}
        prizes = match.round.event.sudden_death_prizes
        return {"payload": quick3.payload(side, sudden_death_prizes=prizes)}
    form = PlayerGamesForm(
        request.POST,
        side=side,
        rows=_rows(match, request.POST),
        after_time=_after_time(match),
        **_rule_options(match.round.event),
    )
    if not form.is_valid():
        return {"invalid": form}
    return {"payload": form.payload(), "form": form}
