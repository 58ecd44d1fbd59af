"""Pages for leagues, registrations and decklists.

Views are thin: they load rows, check who may look with `league.permissions`, call one
service and redirect with a message. A `DomainError` becomes `messages.error` with its
message; a form with bad input is shown again with what was typed.

The event page, the staff dashboard, pairings, standings and matches need rounds, so they
live in `matches.views` (apps depend one way: decks ← league ← matches).
"""

from __future__ import annotations

from collections import defaultdict

from django.apps import apps
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Max, OuterRef, Prefetch, Q, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.http import require_POST

from decks.services import check_decklist
from decks.views import verdict_context, verdict_dict
from rules.divisions import division_for
from rules.errors import DomainError

from . import permissions, services
from .forms import DecklistForm, EventForm, ProfileForm, PublishDecklistsForm, SignupForm
from .models import (
    DeckSubmission,
    Division,
    Event,
    League,
    Registration,
    Season,
    SeasonStanding,
)

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
            request, "You have no player profile yet: add your Play! Pokémon ID and birth date first."
        )
        return redirect(f"{reverse('profile')}?next={reverse('event-detail', args=[event.pk])}")
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
    # What needs the staff's attention first: illegal lists, then missing ones, then legal.
    rows.sort(key=lambda r: 2 if r["latest"] and r["latest"].legal else 1 if r["latest"] is None else 0)
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


# --- the player's own account: sign-up, profile, history -------------------------------
#
# `matches` sits above `league`: its models are asked for by name (as in
# `services.rounds_started`), never imported.

UPCOMING = (Event.Status.REGISTRATION,)
RUNNING = (Event.Status.RUNNING, Event.Status.TOP_CUT)


def _safe_next(request) -> str:
    """The `next` address (POSTed, or in the query string) when it is local, else ''."""
    target = request.POST.get("next") or request.GET.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def _with_next(name: str, next_url: str) -> str:
    url = reverse(name)
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def signup(request):
    """A new account, signed in at once and sent on to the profile step (keeping `next`,
    e.g. the event page the newcomer came from)."""
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(
            request, f"Welcome, {user.get_username()}! One more step: your player profile."
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


@login_required
def profile(request):
    """Create or edit the signed-in user's player profile (`services.save_profile`); shows
    the age division it gives in each season running today."""
    player = getattr(request.user, "player", None)
    next_url = _safe_next(request)
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid():
            try:
                services.save_profile(user=request.user, **form.cleaned_data)
            except DomainError as exc:
                messages.error(request, exc.message)
                if exc.code == "duplicate-player-id":
                    form.add_error("player_id", "Another player already has this ID.")
            else:
                messages.success(
                    request,
                    "Your profile is saved."
                    if player
                    else "Your player profile is ready: you can register for events now.",
                )
                return redirect(next_url or "profile")
    elif player is not None:
        form = ProfileForm(
            initial={"name": player.name, "player_id": player.player_id,
                     "birth_date": player.birth_date, "email": player.email or request.user.email}
        )  # fmt: skip
    else:
        form = ProfileForm(initial={"email": request.user.email})
    return render(
        request,
        "league/profile.html",
        {
            "form": form,
            "player": player,
            "next": next_url,
            "seasons": _current_seasons(player.birth_date if player else None),
        },
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _outcome(match, side: str) -> tuple[str, str]:
    """`(text, kind)` of a match seen from `side`; kind is win, loss, tie or '' (no result)."""
    if match.player_b_id is None:
        return "Bye (counts as a win)", "win"
    if match.status != "final":
        return {
            "reported": "Reported, waiting for confirmation",
            "disputed": "Disputed: the staff will decide",
        }.get(match.status, "No result yet"), ""
    mine, theirs = match.a_game_wins, match.b_game_wins
    if side == "b":
        mine, theirs = theirs, mine
    if match.result == side:
        return f"Won {mine}–{theirs}", "win"
    if match.result in ("a", "b"):
        return f"Lost {mine}–{theirs}", "loss"
    if match.result == "tie":
        return ("Intentional draw" if match.intentional_draw else f"Tie {mine}–{theirs}"), "tie"
    return "Double loss", "loss"


def match_card(match, registration_id: int, *, now=None) -> dict:
    """What the "your match" card shows: round, table, opponent, the round clock (seconds
    left while it runs), the result so far and whether the player can still report."""
    side = match.side_of(registration_id)
    opponent = match.player_b if side == "a" else match.player_a
    round_ = match.round
    remaining = None
    if round_.status == "running" and round_.ends_at:
        remaining = max(0, int((round_.ends_at - (now or timezone.now())).total_seconds()))
    result, kind = _outcome(match, side)
    clock = f"{remaining // 60}:{remaining % 60:02d}" if remaining is not None else ""
    return {
        "match": match,
        "round": round_,
        "bye": match.player_b_id is None,
        "opponent": opponent.player if opponent is not None else None,
        "remaining": remaining,
        "remaining_text": clock,
        "result": result,
        "kind": kind,
        "can_report": match.player_b_id is not None and match.status != "final",
    }


def my_match_card(user, event: Event) -> dict | None:
    """The card of `user`'s match in the event's latest published round (one query), or
    None: not signed in, nothing published yet, or not paired in that round."""
    if not user.is_authenticated:
        return None
    Round = apps.get_model("matches", "Round")
    Match = apps.get_model("matches", "Match")
    latest = (
        Round.objects.filter(event=event)
        .exclude(status=Round.Status.PAIRED)
        .order_by("-number")
        .values("number")[:1]
    )
    match = (
        Match.objects.filter(round__event=event, round__number=Subquery(latest))
        .filter(Q(player_a__player__user=user) | Q(player_b__player__user=user))
        .select_related("round", "player_a__player", "player_b__player")
        .first()
    )
    if match is None:
        return None
    match.round.event = event
    mine = match.player_a if match.player_a.player.user_id == user.pk else match.player_b
    return match_card(match, mine.pk)


def _history(registrations: list[Registration]) -> tuple[dict, dict]:
    """Match records of `registrations` in published rounds, and the current match card of
    those in running events: `({registration id: [line]}, {registration id: card})`. Two
    queries."""
    if not registrations:
        return {}, {}
    Round = apps.get_model("matches", "Round")
    Match = apps.get_model("matches", "Match")
    ids = {r.pk for r in registrations}
    matches = (
        Match.objects.filter(Q(player_a_id__in=ids) | Q(player_b_id__in=ids))
        .exclude(round__status=Round.Status.PAIRED)
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number", "pk")
    )
    running = [r.event_id for r in registrations if r.event.status in RUNNING]
    latest = {}
    if running:
        latest = dict(
            Round.objects.filter(event_id__in=running)
            .exclude(status=Round.Status.PAIRED)
            .order_by()
            .values("event_id")
            .annotate(n=Max("number"))
            .values_list("event_id", "n")
        )
    lines, cards = defaultdict(list), {}
    for match in matches:
        mine = match.player_a_id if match.player_a_id in ids else match.player_b_id
        side = match.side_of(mine)
        opponent = match.player_b if side == "a" else match.player_a
        result, kind = _outcome(match, side)
        lines[mine].append(
            {"match": match, "round": match.round, "result": result, "kind": kind,
             "opponent": opponent.player if opponent is not None else None}
        )  # fmt: skip
        if latest.get(match.round.event_id) == match.round.number:
            cards[mine] = match_card(match, mine)
    return lines, cards


@login_required
def my_events(request):
    """The signed-in player's events: upcoming, running (with the current match) and past
    (final place, match records), each with the verdict of the latest decklist. A fixed
    number of queries however long the history."""
    player = getattr(request.user, "player", None)
    if player is None:
        return render(request, "league/my_events.html", {"player": None})
    latest = DeckSubmission.objects.filter(registration=OuterRef("pk")).order_by("-version")
    registrations = list(
        Registration.objects.filter(player=player)
        .exclude(event__status=Event.Status.DRAFT)
        .select_related("event__season__league", "event__format", "placement")
        .annotate(
            deck_version=Subquery(latest.values("version")[:1]),
            deck_legal=Subquery(latest.values("legal")[:1]),
            deck_cards=Subquery(latest.values("card_count")[:1]),
        )
        .order_by("event__starts_at", "event_id")
    )
    lines, cards = _history([r for r in registrations if r.event.status not in UPCOMING])
    groups = {"upcoming": [], "running": [], "past": []}
    for registration in registrations:
        status = registration.event.status
        placement = getattr(registration, "placement", None)
        matches = lines.get(registration.pk, [])
        kinds = [line["kind"] for line in matches]
        card = cards.get(registration.pk)
        row = {
            "registration": registration,
            "event": registration.event,
            "placement": placement,
            "place": _ordinal(placement.place) if placement else "",
            # The current match is on its card, not again in the table.
            "matches": [m for m in matches if not card or m["match"] is not card["match"]],
            "record": f"{kinds.count('win')}–{kinds.count('loss')}–{kinds.count('tie')}",
            "card": card,
        }
        key = "upcoming" if status in UPCOMING else "running" if status in RUNNING else "past"
        groups[key].append(row)
    groups["past"].reverse()  # the latest first
    return render(request, "league/my_events.html", {"player": player, **groups})


# --- event management -------------------------------------------------------------------


@login_required
def event_create(request, slug: str):
    """League staff: a new event in the league's current season."""
    league = get_object_or_404(League, slug=slug)
    if not permissions.is_league_staff(request.user, league):
        raise PermissionDenied
    season = league.seasons.order_by("-starts_on").first()
    if season is None:
        messages.error(request, "Create a season first (in the admin).")
        return redirect("league-detail", league.slug)
    form = EventForm(request.POST or None, initial={"status": Event.Status.REGISTRATION})
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(season=season, by_user=request.user, **form.cleaned_data)
        except DomainError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"{event.name} created.")
            return redirect("event-detail", event.pk)
    return render(request, "league/event_form.html", {"form": form, "league": league, "season": season})


@login_required
def event_edit(request, event_id: int):
    """Event staff: change the event's settings."""
    event = get_event(event_id)
    require_staff(request, event)
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_event(event=event, by_user=request.user, **form.cleaned_data)
        except DomainError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, "Event settings saved.")
            return redirect("event-detail", event.pk)
    return render(
        request, "league/event_form.html", {"form": form, "league": event.season.league, "event": event}
    )
