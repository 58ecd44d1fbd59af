"""The scorekeeper's corrections of a round's pairings: undo the round (here), and the
edits by hand (`pairing_edits`: swap two players, move a match to another table, seat a
late arrival, pair two chosen players, give a bye), which share the checks and the writing
below.

Terms: the *current round* is the event's latest round while it is not closed; a match is
*unplayed* while it has no result and no report (a bye is unplayed: it was never played).
Every edit works on the current round's unplayed matches, and is checked before anything
is written: nobody seated twice (`seated-twice`), nobody dropped, withdrawn or waiting seated
(`player-dropped`), a rematch, a pairing across score groups or a second bye only with a
confirmation that names it (`needs-confirmation`, `rules.swiss.pairing_warnings`).

Each function locks the event row, writes the matches (their signals bump the public
pages' version), one `league` event-log row with the reason (required), and, when the
round is published, tells the players whose table or opponent changed (inbox and e-mail,
sent after commit by the notifications relay).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.event_log import EventLogEntry
from league.models import Event, Registration
from league.services import eventlog
from rules import swiss
from rules.errors import DomainError
from rules.i18n import Text
from rules.scoring import PLAY_POKEMON, match_points

from .. import notify
from ..models import Match, ResultReport, Round
from . import log_texts
from .common import ACTIVE, _lock_event, _require
from .structure import event_pods

Kind = EventLogEntry.Kind
WARNING_TEXT = {
    "rematch": gettext_lazy("%(a)s and %(b)s have met before: confirm the rematch"),
    "score-groups": gettext_lazy(
        "%(a)s (%(pa)s points) and %(b)s (%(pb)s points) are in different score groups: "
        "confirm the pairing across score groups"
    ),
    "second-bye": gettext_lazy("%(a)s already had a bye: confirm a second bye"),
}
#: A pair as edits see it: registration ids, the second None for a bye.
Pair = tuple[int, int | None]


def _current_round(event: Event, round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    last = Round.objects.filter(event=event).order_by("-number").first()
    if last is None or last.pk != round_.pk:
        raise DomainError(
            "not-last-round",
            _("Round %(number)s is not the latest round: only the current round can change.")
            % {"number": round_.number},
            status=409,
        )
    if round_.status == Round.Status.CLOSED:
        raise DomainError(
            "round-closed",
            _("Round %(number)s is closed.") % {"number": round_.number},
            status=409,
        )
    round_.event = event
    return round_


def _played(matches) -> list[Match]:
    return [
        m for m in matches if m.player_b_id and (m.status != Match.Status.PENDING or m.has_reports)
    ]


def _load(round_: Round) -> list[Match]:
    return list(
        Match.objects.select_for_update(of=("self",))
        .filter(round=round_)
        .annotate(has_reports=Exists(ResultReport.objects.filter(match=OuterRef("pk"))))
        .select_related("player_a__player", "player_b__player")
        .order_by("division", "table")
    )


def refuse_played(matches: list[Match], message: str, **params) -> None:
    """`round-has-results` when a match is played; `message` (translated) names the tables
    as %(tables)s, and any other `params`."""
    played = _played(matches)
    if played:
        tables = ", ".join(str(m.table) for m in played[:10])
        raise DomainError("round-has-results", message % {**params, "tables": tables}, status=409)


def _players(event: Event, round_: Round, ids) -> dict[int, swiss.PairingPlayer]:
    """The players as the pairing saw them before this round: points, opponents, byes."""
    ids = {i for i in ids if i}
    rows = (
        Match.objects.filter(
            round__event=event,
            round__stage=Round.Stage.SWISS,
            round__number__lt=round_.number,
            status=Match.Status.FINAL,
        )
        .filter(Q(player_a__in=ids) | Q(player_b__in=ids))
        .values_list("player_a_id", "player_b_id", "result")
    )
    rows = list(rows)
    points = match_points(rows, PLAY_POKEMON)
    opponents: dict[int, list[str]] = {i: [] for i in ids}
    byes: set[int] = set()
    for a, b, _result in rows:
        if b is None:
            byes.add(a)
        else:
            opponents.setdefault(a, []).append(str(b))
            opponents.setdefault(b, []).append(str(a))
    regs = Registration.objects.filter(pk__in=ids).values_list("pk", "has_earned_bye")
    return {
        pk: swiss.PairingPlayer(
            id=str(pk),
            points=points[pk],
            opponents=tuple(opponents.get(pk, ())),
            had_bye=pk in byes or earned,
        )
        for pk, earned in regs
    }


def _check(event, round_, names: dict[int, str], old: list[Pair], new: list[Pair], confirm) -> None:
    """Refuse a dropped player in a new pair, and a new pair Swiss would not make unless each
    of its warnings is confirmed (`confirm`: the warning codes)."""
    new_pairs = [p for p in new if p not in old and (p[1], p[0]) not in old]
    seated = [i for pair in new_pairs for i in pair if i]
    inactive = (
        Registration.objects.filter(pk__in=seated)
        .exclude(status__in=ACTIVE)
        .select_related("player")
    )
    for reg in inactive:
        raise DomainError(
            "player-dropped",
            _("%(player)s is %(status)s: undo that first to seat them.")
            % {"player": reg.player.name, "status": reg.get_status_display().lower()},
            status=409,
        )
    players = _players(event, round_, seated)
    needed, codes = [], set()
    for a, b in new_pairs:
        for code in swiss.pairing_warnings(players[a], players[b] if b else None):
            if code not in confirm:
                codes.add(code)
                needed.append(
                    WARNING_TEXT[code]
                    % {
                        "a": names[a],
                        "b": names.get(b),
                        "pa": players[a].points,
                        "pb": players[b].points if b else 0,
                    }
                )
    if needed:
        error = DomainError("needs-confirmation", "; ".join(needed) + ".", status=409)
        error.warnings = tuple(sorted(codes))  # what to confirm, for the page's check boxes
        raise error


def pair_of(m: Match) -> Pair:
    return (m.player_a_id, m.player_b_id)


def write_edit(
    event: Event,
    round_: Round,
    matches: list[Match],
    changes: dict[int, Pair | None],
    creates: list[tuple[Pair, str]],
    *,
    by_user,
    reason: str,
    confirm,
    kind: str,
    summary: Text,
) -> EventLogEntry:
    """Apply `changes` (match pk -> new pair, or None to remove the table) and `creates`
    (pair, division) to the round after every check; log and notify."""
    by_pk = {m.pk: m for m in matches}
    names = {r.pk: r.player.name for m in matches for r in (m.player_a, m.player_b) if r}
    new_ids = [i for pair, _division in creates for i in pair] + [
        i for pair in changes.values() if pair for i in pair
    ]
    for reg in Registration.objects.filter(pk__in=[i for i in new_ids if i]).select_related(
        "player"
    ):
        names[reg.pk] = reg.player.name
    old_pairs = [pair_of(by_pk[pk]) for pk in changes]
    after_pairs = [p for p in changes.values() if p] + [p for p, _division in creates]
    seats: dict[int, int] = {}
    for m in matches:
        pair = changes.get(m.pk, pair_of(m)) if m.pk in changes else pair_of(m)
        for i in pair or ():
            if i:
                seats[i] = seats.get(i, 0) + 1
    for pair, _division in creates:
        for i in pair:
            if i:
                seats[i] = seats.get(i, 0) + 1
    twice = [i for i, n in seats.items() if n > 1]
    if twice:
        raise DomainError(
            "seated-twice",
            _("%(player)s would be seated twice in round %(number)s.")
            % {"player": names[twice[0]], "number": round_.number},
            status=409,
        )
    _check(event, round_, names, old_pairs, after_pairs, set(confirm or ()))
    touched: list[Match] = []
    for pk, pair in changes.items():
        m = by_pk[pk]
        if pair is None:
            m.delete()
            continue
        m.player_a_id, m.player_b_id = pair
        bye = pair[1] is None
        m.status = Match.Status.FINAL if bye else Match.Status.PENDING
        m.result = Match.Result.A if bye else ""
        m.save(update_fields=["player_a", "player_b", "status", "result", "updated_at"])
        touched.append(m)
    for pair, division in creates:
        touched.append(_create(round_, pair, division))
    moved = {i for m in touched for i in pair_of(m) if i} - {
        i for p in old_pairs for i in p if i and p in after_pairs
    }
    entry = eventlog.record(
        event=event,
        kind=kind,
        by_user=by_user,
        summary=summary,
        reason=reason,
        registrations=moved | {i for p in old_pairs for i in p if i},
        round_number=round_.number,
        before=[{"a": a, "b": b} for a, b in old_pairs],
        after=[{"table": m.table, "a": m.player_a_id, "b": m.player_b_id} for m in touched],
    )
    if round_.is_public and moved:
        fresh = Match.objects.filter(pk__in=[m.pk for m in touched]).select_related(
            "player_a__player", "player_b__player"
        )
        notify.table_changed(round_, list(fresh), registration_ids=moved, key=str(entry.pk))
    return entry


def _create(round_: Round, pair: Pair, division: str) -> Match:
    a, b = pair
    fixed = Registration.objects.filter(pk__in=[a, b], fixed_table__isnull=False).values_list(
        "fixed_table", flat=True
    )
    taken = set(
        Match.objects.filter(round=round_, division=division).values_list("table", flat=True)
    ) | set(round_.event.feature_tables or [])
    table = next((t for t in fixed if t not in taken), None)
    if table is None:
        top = Match.objects.filter(round=round_, division=division).aggregate(n=Max("table"))["n"]
        table = (top or 0) + 1
        while table in taken:
            table += 1
    bye = {"status": Match.Status.FINAL, "result": Match.Result.A} if b is None else {}
    return Match.objects.create(
        round=round_, table=table, division=division, player_a_id=a, player_b_id=b, **bye
    )


def begin_edit(round_: Round, by_user, reason: str, kind: str):
    event = _lock_event(round_.event)
    _require(by_user, event, "pair-rounds")
    reason = eventlog.clean_reason(reason, kind=kind)
    round_ = _current_round(event, round_)
    return event, round_, _load(round_), reason


def match_of(matches: list[Match], registration_id: int) -> Match | None:
    return next((m for m in matches if registration_id in (m.player_a_id, m.player_b_id)), None)


def seated_match(matches, registration: Registration, what: str) -> Match:
    m = match_of(matches, registration.pk)
    if m is None:
        raise DomainError(
            "not-seated",
            _("%(player)s has no table in this round.") % {"player": registration.player.name},
        )
    refuse_played([m], what)
    return m


def pod_key(event: Event, registration: Registration) -> str:
    for pod in event_pods(event):
        if not pod.key or registration.division in pod.divisions:
            return pod.key
    return ""


@transaction.atomic
def undo_round(*, round_: Round, by_user, reason: str) -> int:
    """Undo the current round's pairings while none of its matches has a result or a report
    (byes aside): the round and its matches are deleted, the event goes back to where it
    was (Swiss rounds paired, running or top cut), and, if the round was published, every
    player is told it is cancelled. Then pair again. Returns the undone round's number.
    Raises `not-allowed`, `reason-required`, `not-last-round`, `round-closed`,
    `round-has-results`."""
    event, round_, matches, reason = begin_edit(round_, by_user, reason, Kind.ROUND_UNDONE)
    refuse_played(
        matches,
        _(
            "Table(s) %(tables)s already have a result or a report: round %(number)s cannot be "
            "undone; correct it by hand."
        ),
        number=round_.number,
    )
    number = round_.number
    before = [
        {"table": m.table, "division": m.division, "a": m.player_a_id, "b": m.player_b_id}
        for m in matches
    ]
    if round_.is_public:
        notify.round_cancelled(round_, matches)
    players = {i for m in matches for i in pair_of(m) if i}
    stage = round_.stage
    Match.objects.filter(round=round_).delete()
    round_.delete()
    rounds = Round.objects.filter(event=event)
    fields = []
    if stage == Round.Stage.SWISS:
        event.swiss_rounds_paired = rounds.filter(stage=Round.Stage.SWISS).count()
        fields.append("swiss_rounds_paired")
        if not rounds.exists():
            event.status = Event.Status.REGISTRATION
            fields.append("status")
    elif not rounds.filter(stage=Round.Stage.TOP_CUT).exists():
        Registration.objects.filter(event=event, in_top_cut=True).update(in_top_cut=False)
        event.status = Event.Status.RUNNING
        fields.append("status")
    event.save(update_fields=fields)
    eventlog.record(
        event=event,
        kind=Kind.ROUND_UNDONE,
        by_user=by_user,
        reason=reason,
        round_number=number,
        registrations=players,
        before=before,
        after=None,
        summary=log_texts.round_undone(number, len(before), told=round_.is_public),
    )
    return number
