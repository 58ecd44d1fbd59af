"""The webhook events rounds, results, standings and finishing send (`webhooks.events`).

Each function is called once, in the transaction of the change it reports, by the service
that makes it; it builds the event's facts and summary and calls `webhooks.services.emit`,
which records one delivery per endpoint that wants it.

Webhooks follow the pages' visibility rule: a receiver is told only what an anonymous
visitor may see (`selectors.can_view_round` for nobody in particular). A draft event sends
nothing; a round that is not public (paired, not yet published) sends nothing either:
neither "round paired" nor the result of a match staff entered early. When the round is
published, everything held back goes out in order: `round-paired`, `round-published`, then
a `result-final` for each result that already stood (by table; byes are not announced).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.models import Event
from league.public_record import public_name
from league.selectors import with_public_names
from webhooks import events
from webhooks.services import emit, subscribed

from .models import Match, Round
from .presenters import match_result_text
from .selectors import can_view_round


def _event_facts(event: Event) -> dict:
    return {"id": event.pk, "name": event.name, "slug": event.slug, "status": event.status}


def _emit(event: Event, name: str, summary: str, data: dict, url: str) -> None:
    emit(
        league=event.season.league_id,
        event=name,
        summary=summary,
        data={"event": _event_facts(event), **data},
        url=url,
    )


def _wanted(event: Event, name: str) -> bool:
    return event.status != Event.Status.DRAFT and subscribed(season_id=event.season_id, event=name)


def _public(round_: Round) -> bool:
    """Whether anyone may see the round: the pages' rule, asked for an anonymous visitor."""
    return can_view_round(AnonymousUser(), round_, staff=False)


def _round_facts(round_: Round) -> dict:
    return {"number": round_.number, "stage": round_.stage, "status": round_.status}


def round_paired(round_: Round) -> None:
    """A round paired public (tables added to a published round); a round paired for staff
    only is announced when it is published (`round_published`)."""
    event = round_.event
    if not _public(round_) or not _wanted(event, events.ROUND_PAIRED):
        return
    _emit(
        event,
        events.ROUND_PAIRED,
        _("%(event)s: round %(number)s is paired.")
        % {"event": event.name, "number": round_.number},
        {"round": _round_facts(round_)},
        reverse("event-detail", args=[event.pk]),
    )


def round_published(round_: Round) -> None:
    """The round became public: what was held back until now goes out (see the module)."""
    event = round_.event
    if not _public(round_):
        return
    round_paired(round_)
    if _wanted(event, events.ROUND_PUBLISHED):
        _announce_pairings(round_)
    if _wanted(event, events.RESULT_FINAL):
        stood = (
            round_.matches.filter(status=Match.Status.FINAL, player_b__isnull=False)
            .select_related("player_a__player", "player_b__player")
            .order_by("division", "table")
        )
        for match in stood:
            match.round = round_
            result_final(match)


def _announce_pairings(round_: Round) -> None:
    event = round_.event
    pairings = [
        {
            "table": m.table,
            "division": m.division,
            "player_a": public_name(m.player_a.player),
            "player_b": public_name(m.player_b.player) if m.player_b_id else None,
        }
        for m in round_.matches.select_related("player_a__player", "player_b__player").order_by(
            "division", "table"
        )
    ]
    _emit(
        event,
        events.ROUND_PUBLISHED,
        ngettext(
            "%(event)s: round %(number)s pairings are up (%(count)s table).",
            "%(event)s: round %(number)s pairings are up (%(count)s tables).",
            len(pairings),
        )
        % {"event": event.name, "number": round_.number, "count": len(pairings)},
        {"round": _round_facts(round_), "pairings": pairings},
        reverse("round-pairings", args=[event.pk, round_.number]),
    )


def result_final(match: Match) -> None:
    round_ = match.round
    event = round_.event
    if not _public(round_) or not _wanted(event, events.RESULT_FINAL):
        return
    text = match_result_text(match)
    _emit(
        event,
        events.RESULT_FINAL,
        _("%(event)s, round %(number)s, table %(table)s: %(result)s.")
        % {"event": event.name, "number": round_.number, "table": match.table, "result": text},
        {
            "round": _round_facts(round_),
            "match": {
                "id": match.pk,
                "table": match.table,
                "division": match.division,
                "player_a": public_name(match.player_a.player),
                "player_b": public_name(match.player_b.player) if match.player_b_id else None,
                "result": match.result,
                "a_game_wins": match.a_game_wins,
                "b_game_wins": match.b_game_wins,
                "text": text,
            },
        },
        reverse("match-detail", args=[match.pk]),
    )


def standings_published(event: Event, round_number: int | None, snapshots) -> None:
    """Called after a recompute with the snapshots it wrote: sends when the round asked to
    be published (`round_number`) is among them, published (standings are published when
    their round closes, so the round is public)."""
    published = [s for s in snapshots if s.round_number == round_number and s.published]
    if not round_number or not published or not _wanted(event, events.STANDINGS_PUBLISHED):
        return
    snapshot = published[0]
    _emit(
        event,
        events.STANDINGS_PUBLISHED,
        _("%(event)s: standings after round %(number)s are up.")
        % {"event": event.name, "number": round_number},
        {
            "round": {"number": round_number},
            "version": snapshot.version,
            "standings": [
                {
                    k: row.get(k)
                    for k in ("rank", "player", "division", "points", "record", "dropped")
                }
                for row in with_public_names(snapshot.rows)
            ],
        },
        reverse("event-standings", args=[event.pk]),
    )


def event_finished(event: Event) -> None:
    if not _wanted(event, events.EVENT_FINISHED):
        return
    _emit(
        event,
        events.EVENT_FINISHED,
        _("%(event)s is finished.") % {"event": event.name},
        {},
        reverse("event-standings", args=[event.pk]),
    )
