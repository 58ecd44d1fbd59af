"""A player's own events: upcoming, running (with the "your match" card) and past (final
place, match records)."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Subquery
from django.shortcuts import render

from league import services as league_services
from league.models import DeckSubmission, Event, Registration

from .. import selectors
from ..presenters import match_card, ordinal, result_for_player

UPCOMING = (Event.Status.REGISTRATION,)
RUNNING = (Event.Status.RUNNING, Event.Status.TOP_CUT)


def my_match_card(user, event: Event) -> dict | None:
    """The card of `user`'s match in the event's latest published round (one query), or
    None: not signed in, nothing published yet, or not paired in that round."""
    if not user.is_authenticated:
        return None
    match = selectors.current_match(user, event)
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
    ids = {r.pk for r in registrations}
    events = {r.event_id: r.event for r in registrations}
    matches = selectors.published_matches_of(ids)
    latest = selectors.latest_published_round(
        [r.event_id for r in registrations if r.event.status in RUNNING]
    )
    lines, cards = defaultdict(list), {}
    for match in matches:
        mine = match.player_a_id if match.player_a_id in ids else match.player_b_id
        side = match.side_of(mine)
        opponent = match.player_b if side == "a" else match.player_a
        result, kind = result_for_player(match, side)
        lines[mine].append(
            {
                "match": match,
                "round": match.round,
                "result": result,
                "kind": kind,
                "opponent": opponent.player if opponent is not None else None,
            }
        )
        if latest.get(match.round.event_id) == match.round.number:
            match.round.event = events[match.round.event_id]  # loaded with its registration
            cards[mine] = match_card(match, mine)
    return lines, cards


@login_required
def my_events(request):
    """The signed-in player's events: upcoming, running (with the current match) and past
    (final place, match records), each with the verdict of the latest decklist. A fixed
    number of queries however long the history."""
    player = getattr(request.user, "player", None)
    if player is None:
        return render(request, "matches/my_events.html", {"player": None})
    latest = DeckSubmission.objects.filter(registration=OuterRef("pk")).order_by("-version")
    registrations = list(
        Registration.objects.filter(player=player)
        .exclude(event__status=Event.Status.DRAFT)
        .select_related(
            "event__season__league", "event__format", "event__rule_edition", "placement"
        )
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
        registration.deck_lock = league_services.deck_lock(registration.event, registration)
        row = {
            "registration": registration,
            "event": registration.event,
            "placement": placement,
            "place": ordinal(placement.place) if placement else "",
            # The current match is on its card, not again in the table.
            "matches": [m for m in matches if not card or m["match"] is not card["match"]],
            "record": f"{kinds.count('win')}–{kinds.count('loss')}–{kinds.count('tie')}",
            "card": card,
        }
        key = "upcoming" if status in UPCOMING else "running" if status in RUNNING else "past"
        groups[key].append(row)
    groups["past"].reverse()  # the latest first
    return render(request, "matches/my_events.html", {"player": player, **groups})
