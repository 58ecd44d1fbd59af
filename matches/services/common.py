"""What the services of `matches` share: the players who count, locking the event and a
match, the staff check, who won a match."""

from __future__ import annotations

from django.utils.translation import gettext as _

from league import permissions
from league import selectors as league_selectors
from league.models import Event, Registration
from rules.errors import DomainError

from ..models import Match, Round
from ..report_frame import locked_match

ACTIVE = league_selectors.ACTIVE


def _lock_event(event: Event) -> Event:
    # Only the event row (`of`): the format is an outer join now that a board-game night
    # has none, and PostgreSQL cannot lock the nullable side of one.
    locked = (
        Event.objects.select_for_update(of=("self",))
        .select_related("season__league", "format")
        .get(pk=event.pk)
    )
    require_tournament(locked)
    return locked


def require_tournament(event: Event) -> None:
    """Rounds, Swiss, standings and the top cut are for tournaments: a board-game night
    (`gamenights`) never enters them. Raises `not-a-tournament`."""
    if event.is_board_game:
        raise DomainError(
            "not-a-tournament",
            # Translators: "Swiss rounds" and "top cut" are the official TCG tournament terms.
            _("%(event)s is a board-game night: it has tables, not Swiss rounds or a top cut.")
            % {"event": event},
            status=409,
        )


def _require(user, event: Event, action: str) -> None:
    """`not-allowed` (403) unless `permissions.can(user, event, action)`."""
    if not permissions.can(user, event, action):
        raise DomainError(
            "not-allowed", _("Your staff role at this event does not allow this."), status=403
        )


def _user(user):
    return user if user is not None and user.is_authenticated else None


def winner_of(match: Match) -> int | None:
    """The registration that won a match, None without a winner (a tie, a double loss)."""
    if match.result == Match.Result.A:
        return match.player_a_id
    if match.result == Match.Result.B:
        return match.player_b_id
    return None


def _lock_match(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related(
            "round__event__season__league",
            "round__event__format",
            "player_a__player",
            "player_b__player",
        )
        .get(pk=match.pk)
    )


def _loaded(match: Match) -> bool:
    """Whether `match` carries its event's season (league) and format, and its players."""
    if not (Match.round.is_cached(match) and Round.event.is_cached(match.round)):
        return False
    event = match.round.event
    sides = [(Match.player_a, match.player_a_id), (Match.player_b, match.player_b_id)]
    return (
        Event.format.is_cached(event)
        and Event.season.is_cached(event)
        and all(side.is_cached(match) for side, pk in sides if pk)
        and all(Registration.player.is_cached(r) for r in (match.player_a, match.player_b) if r)
    )


def _lock_reported(match: Match) -> Match:
    """The match row locked and read again, with its round, event (season, league, format)
    and players (`matches.report_frame`: the row alone from the database, what it is
    checked against kept per event)."""
    return locked_match(match.pk)
