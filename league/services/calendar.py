"""The public record's switches: a user's private calendar address (made on first ask,
replaced to revoke), a player's page hidden or shown, a league's rosters public or not."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from rules.errors import DomainError

from .. import permissions
from ..models import CalendarFeed


def calendar_token(*, user) -> str:
    """The user's calendar secret, made the first time (one `CalendarFeed` row)."""
    feed, _created = CalendarFeed.objects.get_or_create(
        user=user, defaults={"token": CalendarFeed.new_token()}
    )
    return feed.token


@transaction.atomic
def renew_calendar_token(*, user) -> str:
    """A new secret: the old address stops working at once."""
    feed, created = CalendarFeed.objects.select_for_update().get_or_create(
        user=user, defaults={"token": CalendarFeed.new_token()}
    )
    if not created:
        feed.token = CalendarFeed.new_token()
        feed.save(update_fields=["token"])
    return feed.token


def stop_calendar(*, user) -> None:
    """No private address any more (until the user asks for one again)."""
    CalendarFeed.objects.filter(user=user).delete()


def set_page_hidden(*, player, hidden: bool) -> None:
    """Hide (or show again) the player's public page."""
    player.page_hidden = hidden
    player.save(update_fields=["page_hidden"])


def set_roster_public(*, league, by_user, public: bool) -> None:
    """Show the league's event rosters to everyone, or to staff only (its organisers).
    Raises `not-allowed`."""
    if not permissions.is_league_organiser(by_user, league):
        raise DomainError(
            "not-allowed", _("Only the league's organisers can change this."), status=403
        )
    league.roster_public = public
    league.save(update_fields=["roster_public"])
