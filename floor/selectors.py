"""Read queries of the floor pages and API."""

from __future__ import annotations

from django.db.models import QuerySet

from league import permissions
from league.models import Event, Player
from rules.penalties import repeat_infractions

from .models import JudgeCall, Penalty


def open_calls(event: Event) -> QuerySet[JudgeCall]:
    """Open and taken calls, oldest first, with table and player."""
    return (
        JudgeCall.objects.filter(
            event=event, status__in=[JudgeCall.Status.OPEN, JudgeCall.Status.TAKEN]
        )
        .select_related("match__round", "registration__player", "taken_by")
        .order_by("created_at", "id")
    )


def closed_calls(event: Event, limit: int = 20) -> QuerySet[JudgeCall]:
    return (
        JudgeCall.objects.filter(event=event, status=JudgeCall.Status.CLOSED)
        .select_related("match__round", "registration__player", "taken_by", "closed_by")
        .order_by("-closed_at", "-id")[:limit]
    )


def event_penalties(event: Event) -> QuerySet[Penalty]:
    return Penalty.objects.filter(event=event).select_related(
        "player", "round", "match", "judge", "event"
    )


def penalty_history(
    players: list[Player], *, viewer=None, own: bool = False
) -> dict[int, list[dict]]:
    """Every penalty of each player across events and leagues, newest first, a repeated
    infraction category marked: `{player id: [{"penalty", "repeat", "note"}]}`.

    The record follows the player everywhere (as Play! Pokémon keeps penalty records across
    events): infraction, penalty, event, round and date, whichever league issued it. The
    judge's note is the issuing league's own: `note` is "" unless `viewer` handles
    penalties at the penalty's event (`permissions.can(viewer, event, "penalties")`), or
    `own` (the player reading their own record). One query, plus one a league asked about."""
    rows = (
        Penalty.objects.filter(player__in=players)
        .select_related("event__season", "round", "judge")
        .order_by("-created_at", "-id")
    )
    by_player: dict[int, list[Penalty]] = {p.pk: [] for p in players}
    for penalty in rows:
        by_player[penalty.player_id].append(penalty)
    notes_of: dict[int, bool] = {}

    def note(penalty: Penalty) -> str:
        if own:
            return penalty.worded_note
        if penalty.event_id not in notes_of:
            notes_of[penalty.event_id] = viewer is not None and permissions.can(
                viewer, penalty.event, "penalties"
            )
        return penalty.worded_note if notes_of[penalty.event_id] else ""

    history = {}
    for pk, items in by_player.items():
        repeated = repeat_infractions([p.infraction for p in items])
        history[pk] = [
            {"penalty": p, "repeat": p.infraction in repeated, "note": note(p)} for p in items
        ]
    return history
