"""Pages for leagues, registrations and decklists.

Views are thin: they load rows, check who may look with `league.permissions`, call one
service and redirect with a message. A `DomainError` becomes `messages.error` with its
message; a form with bad input is shown again with what was typed.

The event page, the staff dashboard, pairings, standings and matches need rounds, so they
live in `matches.views` (apps depend one way: decks ← league ← matches).
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from decks.services import check_decklist
from decks.views import verdict_context, verdict_dict
from rules.errors import DomainError

from . import permissions, services
from .forms import DecklistForm, PublishDecklistsForm
from .models import DeckSubmission, Event, League, Registration, SeasonStanding

PUBLIC_STATUSES = (Event.Status.REGISTRATION, Event.Status.RUNNING, Event.Status.TOP_CUT)


# --- helpers shared with matches.views -------------------------------------------------


def get_event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("season__league", "format"), pk=event_id)


def is_staff(request, event: Event) -> bool:
    """`permissions.is_event_staff`, asked once per request and event."""
    cache = request.__dict__.setdefault("_event_staff", {})
    if event.pk not in cache:
        cache[event.pk] = permissions.is_event_staff(request.user, event)
    return cache[event.pk]


def require_staff(request, event: Event) -> None:
    if not is_staff(request, event):
        raise PermissionDenied("Only the event's staff can see this page.")


def require_visible(request, event: Event) -> None:
    """A draft event is not announced yet: only its staff see it."""
    if event.status == Event.Status.DRAFT and not is_staff(request, event):
        raise Http404("No such event.")


def own_registration(user, event: Event) -> Registration | None:
    if not user.is_authenticated:
        return None
    return (
        Registration.objects.filter(event=event, player__user=user).select_related("player").first()
    )


def back(request, default: str, *args):
    """Redirect to the POSTed `next` when it is a local address, else to `default`."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default, *args)


# --- leagues ---------------------------------------------------------------------------


def home(request):
    """Every league with its events that are open for registration or running."""
    leagues = list(League.objects.all())
    events = defaultdict(list)
    for event in (
        Event.objects.filter(status__in=PUBLIC_STATUSES)
        .select_related("season__league", "format")
        .order_by("starts_at")
    ):
        events[event.season.league_id].append(event)
    rows = [{"league": league, "events": events[league.pk]} for league in leagues]
    return render(request, "league/home.html", {"rows": rows})


def league_detail(request, slug: str):
    """A league's seasons, their events and each season's leaderboard."""
    league = get_object_or_404(League, slug=slug)
    staff = permissions.is_league_staff(request.user, league)
    events = Event.objects.select_related("format").order_by("starts_at")
    if not staff:
        events = events.exclude(status=Event.Status.DRAFT)
    seasons = league.seasons.prefetch_related(
        Prefetch("events", queryset=events),
        Prefetch(
            "leaderboard", queryset=SeasonStanding.objects.select_related("player").order_by("rank")
        ),
    )
    return render(
        request, "league/league_detail.html", {"league": league, "seasons": seasons, "staff": staff}
    )


# --- registrations ---------------------------------------------------------------------


@login_required
@require_POST
def event_register(request, event_id: int):
    event = get_event(event_id)
    require_visible(request, event)
    player = getattr(request.user, "player", None)
    if player is None:
        messages.error(
            request, "Your account has no player profile: ask the organiser to link one."
        )
        return redirect("event-detail", event.pk)
    try:
        registration = services.register(event=event, player=player, by_user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        if registration.status == Registration.Status.WAITLISTED:
            messages.warning(request, f"{event.name} is full: you are on the waiting list.")
        elif registration.late_entry_round:
            messages.success(
                request,
                f"You are registered as a late entrant: you play from round "
                f"{registration.late_entry_round}.",
            )
        else:
            messages.success(request, f"You are registered for {event.name}.")
    return redirect("event-detail", event.pk)


def _registration(event_id: int, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event__season__league", "event__format", "player"),
        pk=registration_id,
        event_id=event_id,
    )


@login_required
@require_POST
def registration_drop(request, event_id: int, registration_id: int):
    registration = _registration(event_id, registration_id)
    try:
        registration = services.drop(registration=registration, by_user=request.user)
    except DomainError as exc:
        if exc.status == 403:
            raise PermissionDenied(exc.message) from exc
        messages.error(request, exc.message)
    else:
        if registration.status == Registration.Status.WITHDRAWN:
            messages.success(request, f"{registration.player.name} withdrew from the event.")
        else:
            messages.success(
                request,
                f"{registration.player.name} dropped after round {registration.dropped_after_round}.",
            )
    return back(request, "event-detail", event_id)


@login_required
@require_POST
def registration_check_in(request, event_id: int, registration_id: int):
    registration = _registration(event_id, registration_id)
    if not (
        permissions.owns_registration(request.user, registration)
        or is_staff(request, registration.event)
    ):
        raise PermissionDenied("This is not your registration.")
    try:
        services.check_in(registration=registration, by_user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{registration.player.name} is checked in.")
    return back(request, "event-detail", event_id)


# --- decklists -------------------------------------------------------------------------


def _versions(registration: Registration) -> list[DeckSubmission]:
    return list(registration.deck_submissions.select_related("submitted_by").order_by("-version"))


def _shown_version(request, versions: list[DeckSubmission]) -> DeckSubmission | None:
    wanted = request.GET.get("version")
    if wanted and wanted.isdigit():
        for submission in versions:
            if submission.version == int(wanted):
                return submission
        raise Http404("No such version.")
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
        if exc.status == 403:
            raise PermissionDenied(exc.message) from exc
        messages.error(request, exc.message)
        return None, None
    if submission.legal:
        messages.success(
            request, f"Version {submission.version} saved: legal ({submission.card_count} cards)."
        )
    else:
        errors = len(submission.verdict.get("errors", []))
        messages.warning(
            request,
            f"Version {submission.version} saved, but it is not legal "
            f"({errors} error{'s' if errors != 1 else ''}): fix the list before the deck deadline.",
        )
    return redirect(request.path), None


@login_required
def deck_submit(request, event_id: int):
    """The player's own list: paste or edit, check, submit; the verdict line by line."""
    event = get_event(event_id)
    require_visible(request, event)
    registration = own_registration(request.user, event)
    if registration is None:
        messages.error(request, "Register for this event before you submit a deck.")
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
            "locked": services.deck_locked(event),
            "checked": checked,
            "shown": shown,
            "verdict": _submission_verdict(shown),
            "versions": versions,
        },
    )


@login_required
def event_decks(request, event_id: int):
    """Staff: every registration's latest list and its verdict; publish the lists."""
    event = get_event(event_id)
    require_staff(request, event)
    if request.method == "POST":
        form = PublishDecklistsForm(request.POST)
        if form.is_valid():
            published = form.cleaned_data["published"]
            services.publish_decklists(event=event, by_user=request.user, published=published)
            messages.success(
                request,
                "Decklists are now public." if published else "Decklists are private again.",
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
    return render(
        request,
        "decks/event_decks.html",
        {"event": event, "rows": rows, "summary": summary, "locked": services.deck_locked(event)},
    )


def event_deck_detail(request, event_id: int, registration_id: int):
    """One player's list with its verdict line by line. The player and the event staff see
    it (with the version history); everyone does once the organiser published the lists.
    Staff can store a new version for the player here, even after the deadline."""
    registration = _registration(event_id, registration_id)
    event = registration.event
    if not permissions.can_view_decklist(request.user, registration):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied("Decklists are private until the organiser publishes them.")
    staff = is_staff(request, event)
    private = staff or permissions.owns_registration(request.user, registration)
    versions = _versions(registration)
    checked, form = None, None
    if request.method == "POST":
        if not staff:
            raise PermissionDenied("Only the event's staff can change a player's list here.")
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
            "locked": services.deck_locked(event),
        },
    )
