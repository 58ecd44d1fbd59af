"""Bump an event's page version (`matches.page_cache`) when something its public round
pages show is saved or deleted (`post_save`, `post_delete`) or written in bulk (`update`,
`bulk_create`, `bulk_update` of these models send `league.signals.rows_written` with the
events they touched: `league.bulk_writes`), so no write of a row the pages show can leave
them stale.

The own pages (`matches.own_pages`: the event page and the match page, kept per viewer and
version) show more: a match's reports, games and history, a registration's decklists, the
league's and season's names, the format's rules. Those bump the version too (`_OWN_PAGE_ROWS`);
a player's row also drops its account's cached row (`league.user_cache.forget`): the "You"
card of an account that just made its player profile shows the "Register" button.

The rows a report is checked against (a round, an event, a registration, a player, the
league, season and format) also move the event's report frame version
(`matches.report_frame`), which reports, games and standings never move."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from decks.models import Format
from league import user_cache
from league.models import DeckSubmission, Event, League, Player, Registration, Season
from league.signals import rows_written

from . import page_cache, report_frame
from .models import Game, Match, ResultChange, ResultReport, Round, StandingsSnapshot


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
        report_frame.bump_on_commit(instance.pk)
    elif sender is Player:
        for event_id in set(instance.registrations.values_list("event_id", flat=True)):
            page_cache.bump_on_commit(event_id)
            report_frame.bump_on_commit(event_id)
        if instance.user_id:
            user_cache.forget(instance.user_id)
    else:  # Round, StandingsSnapshot, Registration
        page_cache.bump_on_commit(instance.event_id)
        if sender is not StandingsSnapshot:
            report_frame.bump_on_commit(instance.event_id)


def _own_page_row_changed(sender, instance, **kwargs) -> None:
    if kwargs.get("raw"):
        return
    if sender in (ResultReport, Game, ResultChange):
        if sender.match.is_cached(instance):  # saved with its match at hand: no query
            page_cache.bump_on_commit(_match_event(instance.match))
        else:
            rounds = Round.objects.filter(matches__pk=instance.match_id)
            page_cache.bump_on_commit(rounds.values_list("event_id", flat=True).first())
        return
    if sender is DeckSubmission:
        event_ids = Registration.objects.filter(pk=instance.registration_id).values_list(
            "event_id", flat=True
        )
    elif sender is League:
        event_ids = Event.objects.filter(season__league_id=instance.pk).values_list("pk", flat=True)
    elif sender is Season:
        event_ids = Event.objects.filter(season_id=instance.pk).values_list("pk", flat=True)
    else:  # Format
        event_ids = Event.objects.filter(format_id=instance.pk).values_list("pk", flat=True)
    for event_id in event_ids:
        page_cache.bump_on_commit(event_id)
        if sender is not DeckSubmission:  # League, Season, Format
            report_frame.bump_on_commit(event_id)


#: What the own pages show beyond the public pages' rows.
_OWN_PAGE_ROWS = (ResultReport, Game, ResultChange, DeckSubmission, League, Season, Format)


def _written(sender, event_ids, **kwargs) -> None:
    for event_id in event_ids:
        page_cache.bump_on_commit(event_id)
        if sender not in (Match, StandingsSnapshot):
            report_frame.bump_on_commit(event_id)


def connect() -> None:
    for model in (Match, Round, StandingsSnapshot, Registration, Event, Player):
        post_save.connect(_changed, sender=model, dispatch_uid=f"page-cache-{model.__name__}")
        post_delete.connect(_changed, sender=model, dispatch_uid=f"page-cache-del-{model.__name__}")
        rows_written.connect(
            _written, sender=model, dispatch_uid=f"page-cache-bulk-{model.__name__}"
        )
    for model in _OWN_PAGE_ROWS:
        for signal in (post_save, post_delete):
            signal.connect(
                _own_page_row_changed, sender=model, dispatch_uid=f"own-pages-{model.__name__}"
            )
