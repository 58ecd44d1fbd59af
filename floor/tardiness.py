"""Tardiness as the event's rule edition has it (`rules.editions.Tardiness`): staff mark a
player late at a table; once the player is the edition's minutes late, counted from the
round clock's start, the match is a match loss recorded as a penalty (infraction
"tardiness", through `floor.services.issue_penalty`, so the result, history, standings and
bracket follow); a player who never arrives is also dropped. Both players are told."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league import services as league_services
from league.editions import event_edition
from matches.models import Match
from notifications.services import NotificationItem, notify
from rules import penalties as rules
from rules.errors import DomainError

from .models import Penalty
from .services import _lock_match, _require, issue_penalty


def minutes_late(match: Match, *, now=None) -> int:
    """Whole minutes since the round clock started (0 before it starts)."""
    started = match.round.clock_started_at
    if started is None:
        return 0
    return max(0, int(((now or timezone.now()) - started).total_seconds() // 60))


@transaction.atomic
def mark_late(
    *, match: Match, side: str, by_user, never_arrived: bool = False, now=None
) -> Penalty:
    """The player on `side` has not arrived at `match`'s table. Writes a `Penalty`
    (tardiness, match loss) once they are the edition's minutes late and, with
    `never_arrived`, drops them; notifies both players. Raises `not-allowed`,
    `no-tardiness-rule` (the edition has none), `not-late-yet` (before the minutes; the
    message says when), `result-final` (the match already has its result)."""
    match = _lock_match(match)
    event = match.round.event
    _require(by_user, event, "penalties")
    rule = event_edition(event).edition.tardiness
    if rule.match_loss_minutes is None:
        raise DomainError("no-tardiness-rule", "This event's rules edition has no tardiness rule.")
    reg = match.player_a if side == "a" else match.player_b if side == "b" else None
    if reg is None or match.is_bye:
        raise DomainError("invalid-penalty", "Choose the player at this table.")
    if match.status == Match.Status.FINAL:
        raise DomainError("result-final", "This match already has its result.", status=409)
    late = minutes_late(match, now=now)
    if match.round.clock_started_at is None or late < rule.match_loss_minutes:
        raise DomainError(
            "not-late-yet",
            f"{reg.player.name} is {late} minute{'s' if late != 1 else ''} late: the match is "
            f"lost after {rule.match_loss_minutes} minutes of the round clock.",
            status=409,
        )
    penalty = issue_penalty(
        match=match,
        side=side,
        by_user=by_user,
        infraction="tardiness",
        penalty=rules.MATCH_LOSS,
        note=f"{late} minutes late" + ("; never arrived" if never_arrived else ""),
    )
    reg.refresh_from_db()
    if never_arrived and rule.drop_if_absent and reg.is_active:
        league_services.drop(registration=reg, by_user=by_user)
    _tell_players(match, reg, late, dropped=never_arrived and rule.drop_if_absent)
    return penalty


def _tell_players(match: Match, late_reg, minutes: int, *, dropped: bool) -> None:
    event = match.round.event
    name = late_reg.player.name
    body = f"{name} was {minutes} minutes late at table {match.table}: a match loss (tardiness)."
    if dropped:
        body += f" {name} never arrived and is dropped from the event."
    items = [
        NotificationItem(
            recipient_id=reg.player.user_id,
            key=f"tardiness:{match.pk}:{late_reg.pk}:{reg.pk}",
            subject=f"{event.name}: round {match.round.number}, table {match.table}",
            body=body,
            url=reverse("match-detail", args=[match.pk]),
        )
        for reg in (match.player_a, match.player_b)
        if reg is not None and reg.player.user_id
    ]
    notify(kind="result_reported", items=items)
