"""A player's report (`report_result`) and the one rule of who may report (`report_refusal`).
The report is checked against the event's rules (`results._resolve`); a report that agrees
with the opponent's makes the result stand (`results._apply`); what the request need not
wait for is one batched outbox row (`after_work`)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from rules.errors import DomainError
from rules.results import same_result

from ..models import Match, ResultReport
from . import after_work, log_texts
from .common import _loaded, _lock_reported
from .results import _apply, _canonical, _check_complete, _resolve


def _same_report(match: Match, resolution, payload: dict, stored: dict) -> bool:
    """Whether `payload` says what the player's standing report `stored` says."""
    try:
        resolution = resolution or _resolve(match, payload)
        return _canonical(resolution, payload) == stored
    except DomainError:
        return False


def _won_both_ways(snapshot: dict) -> bool:
    return any(g.get("reason") == "both_ways" for g in snapshot.get("games", []))


def report_refusal(match: Match, user, *, retry: bool = False) -> DomainError | None:
    """Why `user` may not report `match` now, or None: the one eligibility rule, which
    `report_result` enforces and the match page asks (`can_report`). Only the match's own
    players report, never a bye, once its round is published, until the result stands
    (`retry`: the caller answers a repeated report after that itself)."""
    if match.side_of_user(user) is None:
        return DomainError("not-your-match", _("You can only report your own match."), status=403)
    if match.is_bye:
        return DomainError("result-final", _("A bye needs no report."), status=409)
    if not match.round.is_public:
        return DomainError(
            "round-not-public", _("This round's pairings are not published yet."), status=409
        )
    if match.status == Match.Status.FINAL and not retry:
        return DomainError(
            "result-final", _("The result already stands; ask staff to correct it."), status=409
        )
    return None


def can_report(match: Match, user) -> bool:
    """May `user` report `match` now (`report_refusal` is None)?"""
    return report_refusal(match, user) is None


def report_result(*, match: Match, by_user, payload: dict, locked: bool = False) -> Match:
    """A player reports their match: `payload = {"games": [{"outcome": "a"|"b"|"both_won"|
    "tie"|"double_loss", "reason"?, "prizes"?}, ...], "at_time"?: bool,
    "intentional_draw"?: bool}` with games in the order played (a sudden-death replay right
    after the game it replays).

    Writes a `ResultReport`. When the other player's report agrees, the result stands (games,
    result, history, standings queued); when it differs the match is disputed and staff are
    told; otherwise the opponent is asked to confirm. The same report again from the same
    player (a retry, a double tap) changes nothing and notifies nobody. Raises `not-your-match`,
    `round-not-public`, `result-final`, `result-incomplete`, `invalid-result`.

    What need not be in the request (the notices, the webhook, the standings request) is
    one batched outbox row, done by the worker (`services.after_reports`).

    `locked`: the caller has already read `match` with its round, event (season, format)
    and players and locked its row in its own transaction, which it rolls back on an
    error from here (the match page: one query, not a read and then a lock).
    """
    if locked:
        if not transaction.get_connection().in_atomic_block or not _loaded(match):
            raise ValueError("report_result(locked=True) needs the loaded match, locked")
        # No savepoint of its own: a refusal leaves the caller's transaction to roll back.
        with transaction.atomic(savepoint=False):
            return _report(match, by_user, payload)
    with transaction.atomic():
        return _report(_lock_reported(match), by_user, payload)


def _report(match: Match, by_user, payload: dict) -> Match:
    side = match.side_of_user(by_user)
    # A result that stands is refused below, unless this is the same report again (a retry).
    if (refusal := report_refusal(match, by_user, retry=True)) is not None:
        raise refusal
    final = match.status == Match.Status.FINAL
    resolution = None if final else _resolve(match, payload)
    if resolution is not None:
        _check_complete(resolution)
    standing = {r.side: r for r in match.reports.filter(superseded=False).order_by("id")}
    mine, other = standing.get(side), standing.get("b" if side == "a" else "a")
    if mine is not None and _same_report(match, resolution, payload, mine.payload):
        return match  # a retry or a double tap: nothing changes, nobody is told again
    if final:
        raise DomainError(
            "result-final", _("The result already stands; ask staff to correct it."), status=409
        )
    canonical = _canonical(resolution, payload)
    if mine is not None:
        match.reports.filter(side=side, superseded=False).update(superseded=True)
    report = ResultReport.objects.create(
        match=match, side=side, reported_by=by_user, payload=canonical
    )
    if other is None:
        match.status = Match.Status.REPORTED
        match.save(update_fields=["status", "updated_at"])
        # The opponent's notice is written by the worker, recorded here in the same
        # transaction (nothing lost) and keyed by the report (nothing twice).
        after_work.record("reported", match.pk, side, report.pk)
    elif same_result(other.payload, canonical):
        if _won_both_ways(other.payload) and not _won_both_ways(canonical):
            # One said the game was won both ways, the other just who won: keep the how.
            resolution = _resolve(match, other.payload)
            canonical = _canonical(resolution, other.payload)
        change = _apply(
            match,
            resolution,
            canonical,
            by_user=by_user,
            source="players",
            note=log_texts.both_agreed(),
            after_work=True,
        )
        after_work.record("final", match.pk, change.pk)
    else:
        match.status = Match.Status.DISPUTED
        match.save(update_fields=["status", "updated_at"])
        after_work.record("disputed", match.pk, report.pk)
    return match
