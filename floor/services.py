"""The floor services: time extensions, judge calls, penalties and deck checks.

Every staff action asks `league.permissions.can(user, event, action)` with its own action
("time-extensions", "judge-calls", "penalties", "deck-checks"); players call a judge at
their own match only. Each function owns its transaction and raises `DomainError` with a
stable code.

Concurrency: taking a call is one conditional UPDATE (`status = open`), so of two judges
taking the same call at once exactly one wins and the other is told who has it; extensions
and penalties lock the match row, as results do.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from league import permissions
from league import services as league_services
from league.event_log import EventLogEntry
from league.models import Registration
from league.services import eventlog
from matches import page_cache
from matches import services as match_services
from matches.models import Match, Round
from rules import penalties as rules
from rules.errors import DomainError
from rules.i18n import Text
from rules.results import GameResult

from . import notify, wording
from .models import DeckCheck, JudgeCall, Penalty, TimeExtension

MAX_EXTENSION_MINUTES = 30
MAX_REASON = 120
DECIDED = "decided"


def _require(user, event, action: str) -> None:
    if not permissions.can(user, event, action):
        raise DomainError("not-allowed", _("Only the event's judges can do this."), status=403)


def _lock_match(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event__season__league", "player_a__player", "player_b__player")
        .get(pk=match.pk)
    )


def _user(user):
    return user if user is not None and user.is_authenticated else None


def _log(match: Match, kind: str, by_user, summary: Text, registrations, after: dict) -> None:
    """The floor's row in the event log (`league.services.eventlog`), in the same
    transaction as the change."""
    eventlog.record(
        event=match.round.event_id,
        kind=kind,
        by_user=by_user,
        summary=wording.at_table(match, summary),
        registrations=registrations,
        round_number=match.round.number,
        after=after,
    )


# --- time extensions ------------------------------------------------------------------


@transaction.atomic
def extend_time(*, match: Match, by_user, minutes: int, reason: str = "") -> Match:
    """Give one table `minutes` more: writes a `TimeExtension` and adds them to
    `Match.extra_minutes` (saving the match bumps the public pages). Raises `not-allowed`,
    `invalid-extension` (not 1 to 30 minutes, a bye, a closed round or a final result)."""
    match = _lock_match(match)
    _require(by_user, match.round.event, "time-extensions")
    if not 1 <= int(minutes) <= MAX_EXTENSION_MINUTES:
        raise DomainError(
            "invalid-extension",
            _("An extension is 1 to %(max)s minutes.") % {"max": MAX_EXTENSION_MINUTES},
        )
    if match.is_bye or match.round.status == Round.Status.CLOSED:
        raise DomainError("invalid-extension", _("This table is not playing."), status=409)
    if match.status == Match.Status.FINAL:
        raise DomainError("invalid-extension", _("This match is already over."), status=409)
    TimeExtension.objects.create(
        match=match, minutes=minutes, reason=reason.strip()[:MAX_REASON], granted_by=_user(by_user)
    )
    match.extra_minutes = F("extra_minutes") + int(minutes)
    match.save(update_fields=["extra_minutes", "updated_at"])
    match.refresh_from_db(fields=["extra_minutes"])
    _log(
        match,
        EventLogEntry.Kind.TIME_EXTENSION,
        by_user,
        wording.more_minutes(int(minutes)),
        [match.player_a_id, match.player_b_id],
        {"minutes": int(minutes), "reason": reason[:MAX_REASON]},
    )
    return match


# --- judge calls ----------------------------------------------------------------------


@transaction.atomic
def call_judge(*, match: Match, by_user, reason: str) -> JudgeCall:
    """A player calls a judge to their table with a one-line reason. A second call by the
    same player while theirs is still open returns that call (a double tap). Raises
    `not-your-match`, `invalid-call` (no reason, a round not running). Notifies the event's
    staff (inbox rows in this transaction, see `floor.notify`)."""
    match = _lock_match(match)
    reg = (
        Registration.objects.filter(event=match.round.event, player__user=by_user).first()
        if _user(by_user)
        else None
    )
    if reg is None or match.side_of(reg.pk) is None:
        raise DomainError(
            "not-your-match", _("You can call a judge to your own table."), status=403
        )
    reason = " ".join((reason or "").split())[:MAX_REASON]
    if not reason:
        raise DomainError("invalid-call", _("Say in a few words what the judge is needed for."))
    if not match.round.is_public or match.round.status == Round.Status.CLOSED:
        raise DomainError("invalid-call", _("This round is not being played."), status=409)
    open_call = JudgeCall.objects.filter(
        match=match, registration=reg, status__in=[JudgeCall.Status.OPEN, JudgeCall.Status.TAKEN]
    ).first()
    if open_call is not None:
        return open_call
    call = JudgeCall.objects.create(
        event=match.round.event, match=match, registration=reg, reason=reason, called_by=by_user
    )
    notify.judge_called(call)
    return call


@transaction.atomic
def take_call(*, call: JudgeCall, by_user) -> JudgeCall:
    """A judge takes an open call: one conditional UPDATE, so when two judges take it at
    once one wins and the other gets `call-taken` naming who has it. Taking a call one
    already holds changes nothing. The caller is told who took it (`notify.call_taken`).
    Raises `not-allowed`, `call-taken`, `call-closed`."""
    _require(by_user, call.event, "judge-calls")
    won = JudgeCall.objects.filter(pk=call.pk, status=JudgeCall.Status.OPEN).update(
        status=JudgeCall.Status.TAKEN, taken_by=by_user, taken_at=timezone.now()
    )
    call = JudgeCall.objects.select_related("taken_by", "event").get(pk=call.pk)
    if won:
        page_cache.bump_on_commit(call.event_id)  # the caller's match page (no signal)
        notify.call_taken(call)
    if won or (call.status == JudgeCall.Status.TAKEN and call.taken_by_id == by_user.pk):
        return call
    if call.status == JudgeCall.Status.CLOSED:
        raise DomainError("call-closed", _("This call is already closed."), status=409)
    taken = (
        _("%(judge)s has already taken this call.") % {"judge": call.taken_by}
        if call.taken_by
        else _("Another judge has already taken this call.")
    )
    raise DomainError("call-taken", taken, status=409)


@transaction.atomic
def close_call(*, call: JudgeCall, by_user, note: str = "") -> JudgeCall:
    """Close a call (taken or still open) with a note; the closing judge takes it if nobody
    had; the caller is told. Raises `not-allowed`, `call-closed`."""
    call = JudgeCall.objects.select_for_update().select_related("event").get(pk=call.pk)
    _require(by_user, call.event, "judge-calls")
    if call.status == JudgeCall.Status.CLOSED:
        raise DomainError("call-closed", _("This call is already closed."), status=409)
    now = timezone.now()
    if call.taken_by_id is None:
        call.taken_by, call.taken_at = by_user, now
    call.status = JudgeCall.Status.CLOSED
    call.closed_by, call.closed_at = by_user, now
    call.note = (note or "").strip()[:200]
    call.save()
    notify.call_taken(call)
    return call


# --- penalties ------------------------------------------------------------------------


def _played_games(match: Match) -> list[GameResult]:
    return [
        GameResult(g.outcome, reason=g.reason, prizes=g.prizes)
        for g in match.games.order_by("number", "sequence")
    ]


def _check_penalty(infraction: str, penalty: str, prizes: int | None) -> None:
    """`rules.penalties.check_penalty`, its refusal worded in the reader's language."""
    try:
        rules.check_penalty(infraction, penalty, prizes)
    except DomainError as exc:
        known = infraction in rules.INFRACTION_LABELS and penalty in rules.PENALTY_LABELS
        if known and penalty == rules.PRIZE:
            # Translators: "Prize cards" is the official TCG term (fr "cartes Récompense", de "Preiskarten", es "cartas de Premio", it "carte Premio", pt "cartas de Prêmio").
            message = _("A Prize penalty takes 1 to 6 Prize cards.")
        elif known and prizes:
            # Translators: "Prize cards" is the official TCG term.
            message = _("Only a Prize penalty takes Prize cards.")
        else:
            message = exc.message
        raise DomainError(exc.code, message, status=exc.status) from exc


@transaction.atomic
def issue_penalty(
    *,
    match: Match,
    side: str,
    by_user,
    infraction: str,
    penalty: str,
    prizes: int | None = None,
    note: Text | str = "",
) -> Penalty:
    """Penalise the player on `side` ("a" or "b") of `match`.

    Writes a `Penalty`. A game loss adds a game the opponent won (reason "penalty") to a
    match without a result, and the result stands when that decides it (best of 1, or the
    opponent's second game); a match loss makes the result the opponent's win by penalty
    games, also over a result that stood; a disqualification is a match loss for a match
    without a result and drops the player. Result changes go through
    `matches.services.set_result`, so the history, standings and bracket follow as for any
    staff result (which tells both players of a changed result). The penalised player is
    told of the penalty (`notify.penalty_issued`). Raises `not-allowed`, `invalid-penalty`.
    """
    match = _lock_match(match)
    event = match.round.event
    _require(by_user, event, "penalties")
    _check_penalty(infraction, penalty, prizes)
    reg = match.player_a if side == "a" else match.player_b if side == "b" else None
    if reg is None:
        raise DomainError("invalid-penalty", _("Choose the player at this table."))
    # A note the site wrote (tardiness) is a `Text`, kept to be worded for each reader.
    note = note if isinstance(note, Text) else (note or "").strip()[:200]
    changed = False
    if rules.costs_games(penalty) and not match.is_bye:
        final = match.status == Match.Status.FINAL
        applies = (
            (penalty == rules.GAME_LOSS and not final)
            or penalty == rules.MATCH_LOSS
            or (penalty == rules.DISQUALIFICATION and not final)
        )
        if applies:
            games = rules.penalty_games(
                penalty,
                penalised=side,
                played=[] if final else _played_games(match),
                best_of=event.best_of,
            )
            payload = {"games": [{"outcome": g.outcome, "reason": g.reason} for g in games]}
            try:
                match_services.set_result(
                    match=match,
                    by_user=by_user,
                    payload=payload,
                    note=wording.result_note(penalty, reg.player.name, note),
                )
                changed = True
            except DomainError as exc:
                if exc.code != "result-incomplete":
                    raise
                # Best of 3 with games still to play: the game loss is kept with the
                # penalty and entered with the result when the match ends.
    made = Penalty.objects.create(
        event=event,
        round=match.round,
        match=match,
        registration=reg,
        player=reg.player,
        infraction=infraction,
        penalty=penalty,
        prizes=prizes or None,
        note=str(note)[:200],
        note_text=note.to_dict() if isinstance(note, Text) else None,
        judge=_user(by_user),
        result_changed=changed,
    )
    _log(
        match,
        EventLogEntry.Kind.PENALTY,
        by_user,
        wording.penalty_for(penalty, reg.player.name, infraction),
        [reg],
        {"infraction": infraction, "penalty": penalty, "prizes": prizes, "note": str(note)},
    )
    if penalty == rules.DISQUALIFICATION and reg.is_active:
        # The judge's `penalties` action covers the drop a disqualification makes.
        league_services.drop(registration=reg, by_user=by_user, action="penalties")
    notify.penalty_issued(made)
    return made


# --- deck checks ----------------------------------------------------------------------


def pick_tables(*, round_: Round, by_user, count: int, seed: str | None = None) -> list[Match]:
    """`count` tables of the round picked at random (a bye has no table), in table order;
    `seed` makes the pick repeatable. Raises `not-allowed`."""
    _require(by_user, round_.event, "deck-checks")
    tables = list(round_.matches.filter(player_b__isnull=False).order_by("division", "table"))
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    picked = rng.sample(tables, min(max(count, 0), len(tables)))
    return sorted(picked, key=lambda m: (m.division, m.table))


@transaction.atomic
def record_deck_check(
    *, match: Match, side: str, by_user, outcome: str, note: str = ""
) -> DeckCheck:
    """The outcome of checking one player's deck against their registered list. Raises
    `not-allowed`, `invalid-deck-check` (an unknown outcome or side, a mismatch without a
    note)."""
    match = _lock_match(match)
    _require(by_user, match.round.event, "deck-checks")
    reg = match.player_a if side == "a" else match.player_b if side == "b" else None
    if reg is None or outcome not in DeckCheck.Outcome.values:
        raise DomainError("invalid-deck-check", _("Choose the player and the outcome."))
    note = (note or "").strip()[:200]
    if outcome == DeckCheck.Outcome.MISMATCH and not note:
        raise DomainError("invalid-deck-check", _("Say what does not match the registered list."))
    check = DeckCheck.objects.create(
        match=match, registration=reg, outcome=outcome, note=note, checked_by=_user(by_user)
    )
    _log(
        match,
        EventLogEntry.Kind.DECK_CHECK,
        by_user,
        wording.deck_checked(outcome, reg.player.name),
        [reg],
        {"outcome": outcome, "note": note},
    )
    return check
