"""Decklists: the player's own list (paste, check, submit, versions), the staff's list of
every player's deck, and one player's list with its verdict line by line."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from decks.reading import readable_list
from decks.services import card_index, check_decklist
from decks.views import verdict_context, verdict_dict
from rules.errors import DomainError

from .. import permissions, services
from ..forms import DecklistForm, PublishDecklistsForm
from ..models import DeckSubmission, Registration
from ..params import parse_number
from ..public_record import public_name
from ..view_helpers import (
    can,
    get_event,
    get_registration,
    own_registration,
    require,
    require_visible,
    show_error,
)


def _versions(registration: Registration) -> list[DeckSubmission]:
    return list(registration.deck_submissions.select_related("submitted_by").order_by("-version"))


def _shown_version(request, versions: list[DeckSubmission]) -> DeckSubmission | None:
    wanted = request.GET.get("version")
    if wanted:
        number = parse_number(wanted, lo=1)
        for submission in versions:
            if submission.version == number:
                return submission
        raise Http404(_("No such version."))
    return versions[0] if versions else None


def _submission_verdict(submission: DeckSubmission | None) -> dict | None:
    if submission is None:
        return None
    return verdict_context(submission.text, submission.verdict, submission.card_count)


def _deck_form_post(request, registration: Registration, form: DecklistForm):
    """Handle a POSTed list: check only, or store a new version. Returns `(redirect, None)`
    when a version was stored, else `(None, verdict of the check or None after an error)`."""
    text = form.cleaned_data["decklist_text"]
    if "check" in request.POST:
        verdict = check_decklist(text=text, fmt=registration.event.format)
        return None, verdict_context(text, verdict_dict(verdict))
    try:
        submission = services.submit_deck(
            registration=registration, text=text, by_user=request.user
        )
    except DomainError as exc:
        show_error(request, exc)
        return None, None
    if submission.legal:
        messages.success(
            request,
            ngettext(
                "Version %(version)s saved: legal (%(count)s card).",
                "Version %(version)s saved: legal (%(count)s cards).",
                submission.card_count,
            )
            % {"version": submission.version, "count": submission.card_count},
        )
    else:
        errors = len(submission.verdict.get("errors", []))
        messages.warning(
            request,
            ngettext(
                "Version %(version)s saved, but it is not legal (%(count)s error): fix the list "
                "before the deck deadline.",
                "Version %(version)s saved, but it is not legal (%(count)s errors): fix the list "
                "before the deck deadline.",
                errors,
            )
            % {"version": submission.version, "count": errors},
        )
    return redirect(request.path), None


@login_required
def deck_submit(request, event_id: int):
    """The player's own list: paste or edit, check, submit; the verdict line by line."""
    event = get_event(event_id)
    require_visible(request, event)
    registration = own_registration(request.user, event)
    if registration is None:
        messages.error(request, _("Register for this event before you submit a deck."))
        return redirect("event-detail", event.pk)
    registration.event = event
    versions = _versions(registration)
    checked = None
    if request.method == "POST":
        form = DecklistForm(request.POST)
        if form.is_valid():
            done, checked = _deck_form_post(request, registration, form)
            if done:
                return done
    else:
        form = DecklistForm(initial={"decklist_text": versions[0].text if versions else ""})
    shown = _shown_version(request, versions)
    return render(
        request,
        "decks/deck_submit.html",
        {
            "event": event,
            "registration": registration,
            "form": form,
            "locked": services.deck_lock(event, registration),
            "checked": checked,
            "shown": shown,
            "verdict": _submission_verdict(shown),
            "versions": versions,
        },
    )


@login_required
def event_decks(request, event_id: int):
    """Staff who check decks: every registration's latest list and its verdict;
    organisers also publish the lists by hand."""
    event = get_event(event_id)
    require(request, event, "deck-checks")
    if request.method == "POST":
        form = PublishDecklistsForm(request.POST)
        if form.is_valid():
            published = form.cleaned_data["published"]
            try:
                services.publish_decklists(event=event, by_user=request.user, published=published)
            except DomainError as exc:
                show_error(request, exc)
            else:
                messages.success(
                    request,
                    _("Decklists are now public.")
                    if published
                    else _("Decklists are private again."),
                )
        return redirect("event-decks", event.pk)
    latest_first = DeckSubmission.objects.order_by("-version").defer("text")
    registrations = (
        Registration.objects.filter(event=event)
        .exclude(status=Registration.Status.WITHDRAWN)
        .select_related("player")
        .prefetch_related(Prefetch("deck_submissions", queryset=latest_first))
        .order_by("player__name")
    )
    rows, summary = [], {"legal": 0, "illegal": 0, "missing": 0}
    for registration in registrations:
        latest = next(iter(registration.deck_submissions.all()), None)
        if latest is None:
            summary["missing"] += 1
        else:
            summary["legal" if latest.legal else "illegal"] += 1
        rows.append(
            {
                "registration": registration,
                "latest": latest,
                "error_count": len(latest.verdict.get("errors", [])) if latest else 0,
                "warning_count": len(latest.verdict.get("warnings", [])) if latest else 0,
            }
        )
    # What needs the staff's attention first: illegal lists, then missing ones, then legal.
    rows.sort(
        key=lambda r: 2 if r["latest"] and r["latest"].legal else 1 if r["latest"] is None else 0
    )
    return render(
        request,
        "decks/event_decks.html",
        {
            "event": event,
            "rows": rows,
            "summary": summary,
            "locked": services.deck_lock(event),
            "public": permissions.decklists_are_public(event),
            "can_publish": can(request, event, "manage-event"),
        },
    )


def event_deck_detail(request, event_id: int, registration_id: int):
    """One player's list with its verdict line by line. The player and the event staff see
    it (with the version history); everyone does once the organiser published the lists.
    Staff can store a new version for the player here, even after the deadline."""
    registration = get_registration(event_id, registration_id)
    event = registration.event
    require_visible(request, event)
    if not permissions.can_view_decklist(request.user, registration):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("Decklists are private until the organiser publishes them."))
    staff = can(request, event, "deck-checks")
    private = staff or permissions.owns_registration(request.user, registration)
    versions = _versions(registration)
    checked, form = None, None
    if request.method == "POST":
        if not staff:
            raise PermissionDenied(_("Only the event's staff can change a player's list here."))
        form = DecklistForm(request.POST)
        if form.is_valid():
            done, checked = _deck_form_post(request, registration, form)
            if done:
                return done
    elif staff:
        form = DecklistForm(initial={"decklist_text": versions[0].text if versions else ""})
    shown = _shown_version(request, versions) if private else (versions[0] if versions else None)
    return render(
        request,
        "decks/deck_detail.html",
        {
            "event": event,
            "registration": registration,
            "staff": staff,
            "form": form,
            "checked": checked,
            "shown": shown,
            "verdict": _submission_verdict(shown),
            "versions": versions if private else [],
            "locked": services.deck_lock(event, registration),
            "public": permissions.decklist_is_public(registration),
            "reading": readable_list(shown.text, card_index()) if shown else None,
            "name": registration.player.name if private else public_name(registration.player),
        },
    )


def event_deck_tcg_live(request, event_id: int, registration_id: int):
    """The list that counts as text TCG Live imports, for whoever may read the list."""
    registration = get_registration(event_id, registration_id)
    require_visible(request, registration.event)
    if not permissions.can_view_decklist(request.user, registration):
        raise Http404(_("No public list."))
    deck = registration.current_deck
    if deck is None:
        raise Http404(_("No deck submitted."))
    text = readable_list(deck.text, card_index()).tcg_live_text()
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
