"""Tardiness as the event's rule edition has it (`rules.editions.Tardiness`): staff mark a
player late at a table; once the player is the edition's minutes late, counted from the
round clock's start, the match is a match loss recorded as a penalty (infraction
"tardiness", through `floor.services.issue_penalty`, so the result, history, standings and
bracket follow); a player who never arrives is also dropped. Both players are told."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league import services as league_services
from league.editions import event_edition
from matches.models import Match
from notifications.language import for_each_recipient
from notifications.services import NotificationItem, notify
from rules import penalties as rules
from rules.errors import DomainError

from . import wording
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
        raise DomainError(
            "no-tardiness-rule", _("This event's rules edition has no tardiness rule.")
        )
    reg = match.player_a if side == "a" else match.player_b if side == "b" else None
    if reg is None or match.is_bye:
        raise DomainError("invalid-penalty", _("Choose the player at this table."))
    if match.status == Match.Status.FINAL:
        raise DomainError("result-final", _("This match already has its result."), status=409)
    late = minutes_late(match, now=now)
    if match.round.clock_started_at is None or late < rule.match_loss_minutes:
        raise DomainError(
            "not-late-yet",
            ngettext(
                "%(name)s is %(count)s minute late: the match is lost after %(limit)s minutes "
                "of the round clock.",
                "%(name)s is %(count)s minutes late: the match is lost after %(limit)s minutes "
                "of the round clock.",
                late,
            )
            % {"name": reg.player.name, "count": late, "limit": rule.match_loss_minutes},
            status=409,
        )
    penalty = issue_penalty(
        match=match,
        side=side,
        by_user=by_user,
        infraction="tardiness",
        penalty=rules.MATCH_LOSS,
        note=wording.tardiness_note(late, never_arrived=never_arrived),
    )
    reg.refresh_from_db()
    if never_arrived and rule.drop_if_absent and reg.is_active:
        league_services.drop(registration=reg, by_user=by_user)
    _tell_players(match, reg, late, dropped=never_arrived and rule.drop_if_absent)
    return penalty


def _tell_players(match: Match, late_reg, minutes: int, *, dropped: bool) -> None:
    event = match.round.event
    players = [r for r in (match.player_a, match.player_b) if r is not None and r.player.user_id]
    items = for_each_recipient(
        players,
        event,
        lambda reg: NotificationItem(
            recipient_id=reg.player.user_id,
            key=f"tardiness:{match.pk}:{late_reg.pk}:{reg.pk}",
            subject=_("%(event)s: round %(round)s, table %(table)s")
            % {"event": event.name, "round": match.round.number, "table": match.table},
            body=_late_words(match, late_reg.player.name, minutes, dropped=dropped),
            url=reverse("match-detail", args=[match.pk]),
        ),
    )
    notify(kind="result_reported", items=items)


def _late_words(match: Match, name: str, minutes: int, *, dropped: bool) -> str:
    # Translators: "match loss" is the official Play! Pokémon penalty term.
    body = ngettext(
        "%(name)s was %(count)s minute late at table %(table)s: a match loss (tardiness).",
        "%(name)s was %(count)s minutes late at table %(table)s: a match loss (tardiness).",
        minutes,
    ) % {"name": name, "count": minutes, "table": match.table}
    if dropped:
        body += " " + _("%(name)s never arrived and is dropped from the event.") % {"name": name}
    return body
