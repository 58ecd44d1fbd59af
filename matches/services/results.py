"""Results: the staff's result, and applying a result with its history (a player's report
is `reports`). Anything that changes a result locks the match row, so two reports arriving
at once are applied one after the other and both are kept."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from league.editions import event_edition
from league.event_log import EventLogEntry
from league.models import Event
from league.services import eventlog
from rules.errors import DomainError
from rules.i18n import Text
from rules.results import (
    Resolution,
    games_from_payload,
    resolve_match,
    result_snapshot,
)

from .. import notify, webhook_events
from ..models import (
    Game,
    Match,
    ResultChange,
    Round,
)
from . import log_texts
from .common import _lock_match, _require, _user, winner_of
from .standings import finish_event, request_standings

# --- results ------------------------------------------------------------------------


def _resolve(match: Match, payload: dict) -> Resolution:
    """The payload's games decided by the event's format (its Prize cards, won both ways),
    its sudden death (style and Prize cards) and its rule edition's end of round (a game
    unfinished after the turns)."""
    event = match.round.event
    rules = event.format.rules()
    end = event_edition(event).edition.end_of_round
    _extra_turns(payload, end)
    return resolve_match(
        games_from_payload(payload.get("games", [])),
        best_of=event.best_of,
        top_cut=match.round.stage == Round.Stage.TOP_CUT,
        at_time=bool(payload.get("at_time")),
        intentional_draw=bool(payload.get("intentional_draw")),
        sudden_death_prizes=event.sudden_death_prizes,
        prizes=rules.prizes,
        sudden_death=event.sudden_death_style,
        both_ways=rules.win_both_ways,
        swiss_no_winner=end.swiss_no_winner,
        top_cut_no_winner=end.top_cut_no_winner,
    )


# Why a game is still due (`rules.results.NextGame.why`, English in the engine), as worded here.
# Translators: "sudden death" and "top cut" are the official TCG terms.
WHY = {
    "both players won at once: sudden death, the game goes on": gettext_lazy(
        "both players won at once: sudden death, the game goes on"
    ),
    "both players won at once: sudden death": gettext_lazy(
        "both players won at once: sudden death"
    ),
    "no winner in the top cut: a tiebreaker game": gettext_lazy(
        "no winner in the top cut: a tiebreaker game"
    ),
    "level at time in the top cut: sudden death": gettext_lazy(
        "level at time in the top cut: sudden death"
    ),
}


def _extra_turns(payload: dict, end) -> int | None:
    """The turns played after time, as reported: a whole number up to the edition's turns,
    and only when time was called."""
    turns = payload.get("extra_turns")
    if turns is None:
        return None
    if type(turns) is not int or not 0 <= turns <= max(end.extra_turns, 0):
        raise DomainError(
            "invalid-result",
            _("The turns after time are 0 to %(turns)s in this event's rules")
            % {"turns": end.extra_turns}
            if end.has_turns
            else _("This event's rules have no extra turns after time."),
        )
    if not payload.get("at_time"):
        raise DomainError(
            "invalid-result", _("Turns after time are played only when time is called.")
        )
    return turns


def _canonical(resolution: Resolution, payload: dict) -> dict:
    """The report in one normal form, so two reports of the same games compare equal."""
    return result_snapshot(
        result=resolution.result,
        games=resolution.games,
        at_time=bool(payload.get("at_time")),
        intentional_draw=bool(payload.get("intentional_draw")),
        extra_turns=payload.get("extra_turns"),
    )


def _check_complete(resolution: Resolution) -> None:
    if not resolution.complete:
        nxt = resolution.next_game
        params = {"number": nxt.number, "prizes": nxt.prizes, "why": WHY.get(nxt.why, nxt.why)}
        if nxt.why == "next game":
            message = _("The match is not over: game %(number)s is still to be played (next game).")
        elif nxt.prizes == 0:
            # Translators: "sudden death" is the official TCG term (fr "mort subite").
            message = _(
                "The match is not over: game %(number)s (sudden death: the game goes on) is "
                "still to be played (%(why)s)."
            )
        else:
            # Translators: "sudden death", "Prize cards": official TCG terms (fr "cartes Récompense").
            message = ngettext(
                "The match is not over: game %(number)s (sudden death, %(prizes)s Prize card) "
                "is still to be played (%(why)s).",
                "The match is not over: game %(number)s (sudden death, %(prizes)s Prize cards) "
                "is still to be played (%(why)s).",
                nxt.prizes,
            )
        raise DomainError("result-incomplete", message % params)


@transaction.atomic
def set_result(*, match: Match, by_user, payload: dict, note: Text | str = "") -> Match:
    """Staff enter or correct a result, in any state, even after the round closed. The
    change is kept with who and when; a disputed match is resolved and both players told;
    a result that stood and is now different, or one a penalty decides, is told to both
    players (`notify.result_changed`, with the note);
    the standings are recomputed (a published round's standings get a new version)."""
    match = _lock_match(match)
    _require(by_user, match.round.event, "enter-results")
    if match.is_bye:
        raise DomainError(
            "result-final", _("A bye cannot be changed; re-pair instead."), status=409
        )
    resolution = _resolve(match, payload)
    _check_complete(resolution)
    was_disputed = match.status == Match.Status.DISPUTED
    stood = stored_result(match) if match.status == Match.Status.FINAL else None
    before = winner_of(match) if match.status == Match.Status.FINAL else None
    _apply(
        match,
        resolution,
        _canonical(resolution, payload),
        by_user=by_user,
        source="staff",
        note=note,
    )
    after = stored_result(match)
    if stood is not None and stood != after:
        # A correction of a result that stood: the event log wants a reason (a refusal
        # here rolls the whole change back with this transaction).
        eventlog.record(
            event=match.round.event_id,
            kind=EventLogEntry.Kind.RESULT_CORRECTED,
            by_user=by_user,
            reason=str(note),
            round_number=match.round.number,
            registrations=[match.player_a_id, match.player_b_id],
            summary=log_texts.result_corrected(match),
            before=stood,
            after=after,
        )
    _carry_through_bracket(match, before, by_user=by_user)
    by_penalty = any(g.get("reason") == "penalty" for g in payload.get("games") or [])
    if was_disputed:
        notify.dispute_resolved(match)
    elif by_penalty or (stood is not None and stood != after):
        notify.result_changed(match, why=note)
    return match


def _carry_through_bracket(match: Match, before: int | None, *, by_user) -> None:
    """A corrected top-cut result that changes who advances: the later top-cut match the
    old winner was paired into is re-paired with the new winner while it has no result and
    no report; once it has one, the correction is refused (`bracket-played`, naming that
    table) and rolls back, so the bracket is never left inconsistent. A corrected final of
    a finished event re-records the final places."""
    after = winner_of(match)
    if match.round.stage != Round.Stage.TOP_CUT or before is None or after == before:
        return
    later = (
        Match.objects.select_for_update()
        .filter(
            round__event=match.round.event,
            round__stage=Round.Stage.TOP_CUT,
            round__number__gt=match.round.number,
            division=match.division,
        )
        .filter(Q(player_a_id=before) | Q(player_b_id=before))
        .select_related("round")
        .order_by("round__number")
    )
    for fed in later:
        if fed.status == Match.Status.FINAL or fed.reports.exists():
            raise DomainError(
                "bracket-played",
                _(
                    "This changes who advances, but round %(number)s table %(table)s "
                    "was already played by the old winner: correct that match first, or leave "
                    "this result as it is."
                )
                % {"number": fed.round.number, "table": fed.table},
                status=409,
            )
        side = "player_a_id" if fed.player_a_id == before else "player_b_id"
        setattr(fed, side, after)
        fed.save(update_fields=[side])
        ResultChange.objects.create(
            match=fed,
            changed_by=_user(by_user),
            source="staff",
            before=None,
            after={"re-paired": True, "in": after, "out": before},
            **log_texts.note_fields(log_texts.repaired(match)),
        )
    event = match.round.event
    if event.status == Event.Status.FINISHED:
        finish_event(event=event)


@transaction.atomic
def record_decided_result(
    *, match: Match, result: str, by_user, source: str = "tom", note: str = ""
) -> Match:
    """A result decided elsewhere without its games (TOM keeps only who won): `result` is
    "a", "b", "tie" or "double_loss". The change is kept with who, when, before and after
    like any staff correction, and the standings are recomputed. Does nothing when the match
    already has that result. Raises `not-allowed`, `result-final` for a bye,
    `invalid-result`."""
    match = _lock_match(match)
    _require(by_user, match.round.event, "enter-results")
    if match.is_bye:
        raise DomainError(
            "result-final", _("A bye cannot be changed; re-pair instead."), status=409
        )
    if result not in Match.Result.values:
        raise DomainError("invalid-result", _("Unknown result %(result)r.") % {"result": result})
    if match.status == Match.Status.FINAL and match.result == result:
        return match
    resolution = Resolution(result=result, a_wins=0, b_wins=0, games=(), next_game=None)
    canonical = {"result": result, "games": [], "at_time": False, "intentional_draw": False}
    was_disputed = match.status == Match.Status.DISPUTED
    # TOM re-pairs its own bracket after a correction; its later save brings the new pairs.
    _apply(match, resolution, canonical, by_user=by_user, source=source, note=note)
    if was_disputed:
        notify.dispute_resolved(match)
    return match


def stored_result(match: Match, games: list[Game] | None = None) -> dict | None:
    """The match's stored result as `rules.results.result_snapshot` words it (None without
    a result); `games` in the order played, read from the database when not given."""
    if not match.result:
        return None
    if games is None:
        games = list(match.games.order_by("number", "sequence"))
    return result_snapshot(
        result=match.result, games=games, at_time=match.ended_at_time,
        intentional_draw=match.intentional_draw, extra_turns=match.extra_turns,
    )  # fmt: skip


#: The columns a result writes on its match (with its status).
RESULT_FIELDS = (
    "result",
    "a_game_wins",
    "b_game_wins",
    "ended_at_time",
    "intentional_draw",
    "extra_turns",
)


def _keep_games(match: Match, games: list[Game]) -> None:
    """`match.games.all()` answered by the games just written, in their order (`Game.Meta`),
    as a prefetch would: the answer that shows the match reads them again for nothing."""
    games.sort(key=lambda g: (g.number, g.sequence))
    prefetched = match.__dict__.setdefault("_prefetched_objects_cache", {})
    prefetched.pop("games", None)
    kept = match.games.all()
    kept._result_cache, kept._prefetch_done = games, True
    prefetched["games"] = kept


def _apply(
    match: Match,
    resolution: Resolution,
    canonical: dict,
    *,
    by_user,
    source: str,
    note,
    after_work: bool = False,
) -> ResultChange:
    """Store the result, its games and its history row. The webhook and the standings
    request follow here, or with `after_work` are left to the caller's batched row."""
    before = stored_result(match)
    if match.result:  # games are written only with a result
        match.games.all().delete()
    firsts = [g for g in resolution.games if not g.sequence]
    heads = Game.objects.bulk_create(
        Game(match=match, number=g.number, prizes=g.prizes, outcome=g.outcome, reason=g.reason)
        for g in firsts
    )
    slot_heads: dict[int, Game] = {g.number: g for g in heads}
    written = list(heads)
    for played in resolution.games:
        if played.sequence:  # a sudden-death replay, after the game it replays
            slot_heads[played.number] = replay = Game.objects.create(
                match=match,
                number=played.number,
                sequence=played.sequence,
                replay_of=slot_heads.get(played.number),
                prizes=played.prizes,
                outcome=played.outcome,
                reason=played.reason,
            )
            written.append(replay)
    _keep_games(match, written)
    match.result = resolution.result
    match.a_game_wins, match.b_game_wins = resolution.a_wins, resolution.b_wins
    match.ended_at_time = canonical["at_time"]
    match.intentional_draw = canonical["intentional_draw"]
    match.extra_turns = canonical.get("extra_turns")
    match.status = Match.Status.FINAL
    match.save(update_fields=[*RESULT_FIELDS, "status", "updated_at"])
    change = ResultChange.objects.create(
        match=match,
        changed_by=_user(by_user),
        source=source,
        before=before,
        after=canonical,
        **log_texts.note_fields(note),
    )
    if after_work:
        return change
    webhook_events.result_final(match)
    if match.round.stage == Round.Stage.SWISS:
        # Marked after commit, in a transaction of its own: a hundred tables reporting at
        # once then hold the event's standings row for a moment each, not for their whole
        # report.
        transaction.on_commit(
            partial(request_standings, event=match.round.event, round_number=match.round.number)
        )
    return change
