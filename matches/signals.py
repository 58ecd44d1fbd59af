"""Bump an event's page version (`matches.page_cache`) when something its public round
pages show is saved or deleted (`post_save`, `post_delete`) or written in bulk (`update`,
`bulk_create`, `bulk_update` of these models send `league.signals.rows_written` with the
events they touched: `league.bulk_writes`), so no write of a row the pages show can leave
them stale."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from league.models import Event, Player, Registration
from league.signals import rows_written

from . import page_cache
from .models import Match, Round, StandingsSnapshot


def _match_event(match: Match) -> int | None:
    if Match.round.is_cached(match):
        return match.round.event_id
    return Round.objects.filter(pk=match.round_id).values_list("event_id", flat=True).first()


def _changed(sender, instance, **kwargs) -> None:
    if kwargs.get("raw"):
        return
    if sender is Match:
        page_cache.bump_on_commit(_match_event(instance))
    elif sender is Event:
        page_cache.bump_on_commit(instance.pk)
    elif sender is Player:
        for event_id in set(instance.registrations.values_list("event_id", flat=True)):
            page_cache.bump_on_commit(event_id)
    else:  # Round, StandingsSnapshot, Registration
        page_cache.bump_on_commit(instance.event_id)


def _written(sender, event_ids, **kwargs) -> None:
    for event_id in event_ids:
        page_cache.bump_on_commit(event_id)


def connect() -> None:
    for model in (Match, Round, StandingsSnapshot, Registration, Event, Player):
        post_save.connect(_changed, sender=model, dispatch_uid=f"page-cache-{model.__name__}")
        post_delete.connect(_changed, sender=model, dispatch_uid=f"page-cache-del-{model.__name__}")
        rows_written.connect(
            _written, sender=model, dispatch_uid=f"page-cache-bulk-{model.__name__}"
        )
