"""A table's judge tools: extend its time, issue a penalty (with both players' penalty
history across events, repeated infractions marked), and check its decks against the
registered lists in the order of the deck registration sheet."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from decks.printing import SECTIONS, sheet_lines
from decks.services import card_index
from league import permissions
from league import selectors as league_selectors
from league.editions import event_edition
from league.view_helpers import require_visible, show_error
from league.wording import full_stop
from matches.models import Match
from matches.presenters import names_of
from rules.errors import DomainError

from .. import selectors, services, tardiness
from ..forms import DeckCheckForm, ExtensionForm, PenaltyForm
from ..models import DeckCheck


def _load(request, match_id: int, action: str) -> Match:
    match = get_object_or_404(
        Match.objects.select_related(
            "round__event__season__league", "player_a__player", "player_b__player"
        ),
        pk=match_id,
    )
    require_visible(request, match.round.event)
    if not permissions.can(request.user, match.round.event, action):
        raise PermissionDenied(_("Only the event's judges can see this page."))
    return match


@login_required
def match_floor(request, match_id: int):
    """GET: the table's tools; POST `action=extend`, `action=penalty` or `action=late`
    (`side`, `never_arrived`: tardiness as the rule edition has it)."""
    match = _load(request, match_id, "penalties")
    names = names_of(match, full=True)
    extension_form = ExtensionForm()
    penalty_form = (
        PenaltyForm(names=names, initial=request.GET.dict()) if not match.is_bye else None
    )
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "extend":
            extension_form = ExtensionForm(request.POST)
            if extension_form.is_valid():
                try:
                    match = services.extend_time(
                        match=match, by_user=request.user, **extension_form.cleaned_data
                    )
                except DomainError as exc:
                    show_error(request, exc, form=extension_form)
                else:
                    messages.success(
                        request,
                        _("Table %(table)s: +%(minutes)s min (+%(total)s min in all).")
                        % {
                            "table": match.table,
                            "minutes": extension_form.cleaned_data["minutes"],
                            "total": match.extra_minutes,
                        },
                    )
                    return redirect("floor-match", match.pk)
        elif action == "penalty" and penalty_form is not None:
            penalty_form = PenaltyForm(request.POST, names=names)
            if penalty_form.is_valid():
                data = penalty_form.cleaned_data
                try:
                    made = services.issue_penalty(match=match, by_user=request.user, **data)
                except DomainError as exc:
                    show_error(request, exc, form=penalty_form)
                else:
                    text = full_stop(
                        _("%(penalty)s for %(player)s")
                        % {"penalty": made.label, "player": made.player.name}
                    )
                    if made.penalty in ("game-loss", "match-loss", "disqualification"):
                        text += " " + (
                            _("The result was updated.")
                            if made.result_changed
                            else _("The result is unchanged: enter the game loss with the result.")
                        )
                    messages.success(request, text)
                    return redirect("floor-match", match.pk)
        elif action == "late" and request.POST.get("side") in ("a", "b"):
            try:
                made = tardiness.mark_late(
                    match=match,
                    side=request.POST["side"],
                    by_user=request.user,
                    never_arrived=bool(request.POST.get("never_arrived")),
                )
            except DomainError as exc:
                show_error(request, exc)
            else:
                messages.success(
                    request,
                    _("%(penalty)s for %(player)s: %(note)s.")
                    % {"penalty": made.label, "player": made.player.name, "note": made.worded_note},
                )
                return redirect("floor-match", match.pk)
        status = 400
    players = [r.player for r in (match.player_a, match.player_b) if r is not None]
    history = selectors.penalty_history(players, viewer=request.user)
    return render(
        request,
        "floor/match_floor.html",
        {
            "match": match,
            "event": match.round.event,
            "round": match.round,
            "names": names,
            "extension_form": extension_form,
            "penalty_form": penalty_form,
            "tardiness": event_edition(match.round.event).edition.tardiness,
            "minutes_late": tardiness.minutes_late(match),
            "extensions": match.time_extensions.select_related("granted_by"),
            "histories": [{"player": p, "rows": history[p.pk]} for p in players],
            "checks": match.deck_checks.select_related("registration__player", "checked_by"),
        },
        status=status,
    )


def _sheet(registration) -> dict:
    """The registered list in the order of the deck registration sheet."""
    deck = league_selectors.public_decklist(registration)
    sections: dict[str, list] = {s: [] for s in SECTIONS}
    if deck is not None:
        for line in sheet_lines(deck.text, card_index()):
            sections.setdefault(line.section, []).append(line)
    return {
        "deck": deck,
        "sections": [
            {"name": name, "lines": lines, "total": sum(x.count for x in lines)}
            for name, lines in sections.items()
        ],
    }


@login_required
def deck_check(request, match_id: int):
    """GET: both players' registered lists; POST: one player's outcome. A mismatch goes
    straight on to the penalty form, filled in with a Deck/Decklist problem."""
    match = _load(request, match_id, "deck-checks")
    if match.is_bye:
        messages.error(request, _("A bye has no table to check."))
        return redirect("floor-match", match.pk)
    names = names_of(match, full=True)
    forms = {side: DeckCheckForm(initial={"side": side}, auto_id=f"id_{side}_%s") for side in "ab"}
    status = 200
    if request.method == "POST":
        side = request.POST.get("side")
        form = DeckCheckForm(request.POST, auto_id=f"id_{side}_%s")
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.record_deck_check(match=match, by_user=request.user, **data)
            except DomainError as exc:
                show_error(request, exc, form=form)
            else:
                if data["outcome"] == DeckCheck.Outcome.MISMATCH:
                    messages.warning(
                        request,
                        _("Deck check: mismatch for %(player)s.") % {"player": names[data["side"]]},
                    )
                    query = urlencode(
                        {
                            "side": data["side"],
                            "infraction": "deck-decklist",
                            "penalty": "game-loss",
                            "note": _("Deck check: %(note)s") % {"note": data["note"]},
                        }
                    )
                    return redirect(f"{reverse('floor-match', args=[match.pk])}?{query}#penalty")
                messages.success(
                    request,
                    _("Deck check: %(player)s's deck is OK.") % {"player": names[data["side"]]},
                )
                return redirect("floor-deck-check", match.pk)
        if side in forms:
            forms[side] = form
        status = 400
    players = [
        {"side": side, "name": names[side], "reg": reg, "sheet": _sheet(reg), "form": forms[side]}
        for side, reg in (("a", match.player_a), ("b", match.player_b))
    ]
    return render(
        request,
        "floor/deck_check.html",
        {
            "match": match,
            "event": match.round.event,
            "round": match.round,
            "players": players,
            "checks": match.deck_checks.select_related("registration__player", "checked_by"),
        },
        status=status,
    )
