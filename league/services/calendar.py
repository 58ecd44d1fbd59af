"""The private calendar address of a user: made on first ask, replaced to revoke."""

from __future__ import annotations

from django.db import transaction

from ..models import CalendarFeed


def calendar_token(*, user) -> str:
    """The user's calendar secret, made the first time (one `CalendarFeed` row)."""
    feed, _ = CalendarFeed.objects.get_or_create(
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
