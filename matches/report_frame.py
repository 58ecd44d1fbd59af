"""The match a player's report locks (`locked_match`; the match page reads it so too,
`framed_match`): the match row read and locked alone, with its *frame* (its round; the event with its season, league and format; its two
registrations with their players) from a copy kept in the process.

Why: a report read all of it in one locked 9-table join. Compiling that join was the
largest part of a report's CPU in the web process (~1 ms of ~4), and planning it a
large part of PostgreSQL's (a 9-way join is planned on every call: ~3 ms of wall time on
a busy machine, against ~0.5 for the match row alone). The match row is what a report
changes and is read from the database, locked, every time: its status, result, round
and players are always the database's. The frame changes rarely and never by a report,
so it is kept per event under a version in the shared cache (`version_key`: one cache
read a report), which any write to those rows moves after its transaction commits
(`bump_on_commit`, from the signal handlers in `matches.signals`: a round, an event, a
registration, a player, a league, a season, a format saved, deleted or written in
bulk). Reports, games and standings never move it, unlike the event's page version.

What it keeps:
- Each request gets new objects (the round unpickled, the registrations built from rows of
  values), so no request sees another's changes to its objects (nor a cached rule
  edition, `league.editions`).
- A version is read before the rows it is kept with, so a row kept under a version is
  never older than the writes that version stands for.
- A transaction that wrote a frame row itself (its bump still waiting for the commit)
  reads the frame from the database and keeps nothing: it sees its own writes, and a
  rollback leaves nothing behind.
- Another process's write is seen once it has committed and its bump has run, right
  after the commit, as with every version kept in the shared cache here. A report in
  that gap is checked as if it had come just before the write.
"""

from __future__ import annotations

import functools
import pickle
from dataclasses import dataclass, field

from league.models import Player, Registration
from notifications import versions

from . import row_events
from .models import Match, Round

#: Events whose frames a process keeps at once (the oldest goes first).
MAX_EVENTS = 32


@dataclass
class _Frame:
    version: int
    rounds: dict[int, bytes] = field(default_factory=dict)
    registrations: dict[int, tuple] = field(default_factory=dict)
    all_registrations: bool = False


_frames: dict[int, _Frame] = {}


def version_key(event_id: int) -> str:
    return f"report-frame:{event_id}:v"


def bump_on_commit(event_id: int | None) -> None:
    """Move the event's frame version once the current transaction commits (at once
    outside one); until then this transaction reads its frame from the database. Once per
    event and transaction (`versions.bump_on_commit`)."""
    if event_id:
        versions.bump_on_commit(version_key(event_id))


def _pending(event_id: int) -> bool:
    return versions.pending(version_key(event_id))


def clear() -> None:
    """Forget every kept frame (tests: a flushed database numbers its rows from 1 again)."""
    _frames.clear()


def locked_match(match_id: int) -> Match:
    """The match, its row locked in the caller's transaction, carrying its round, event
    (season, league, format) and players. Raises `Match.DoesNotExist`."""
    return _framed(Match.objects.select_for_update().get(pk=match_id))


def framed_match(match_id: int) -> Match:
    """The match as `locked_match` gives it, not locked (the match page). Raises
    `Match.DoesNotExist`."""
    return _framed(Match.objects.get(pk=match_id))


def _framed(match: Match) -> Match:
    regs = [pk for pk in (match.player_a_id, match.player_b_id) if pk]
    round_, registrations = _frame(match.round_id, regs)
    Match.round.field.set_cached_value(match, round_)
    for side, pk in ((Match.player_a, match.player_a_id), (Match.player_b, match.player_b_id)):
        if not pk or pk in registrations:  # (a row gone meanwhile is read when asked for)
            side.field.set_cached_value(match, registrations.get(pk))
    return match


def _load_round(round_id: int) -> Round:
    return Round.objects.select_related("event__season__league", "event__format").get(pk=round_id)


def _load_registrations(**where):
    return Registration.objects.select_related("player").filter(**where).order_by()


def _by_pk(rows) -> dict:
    return {row.pk: row for row in rows}


@functools.cache
def _columns(model) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)


def _registration_rows(event_id: int) -> dict[int, tuple]:
    """Each registration of the event with its player, as a row of values (the fields'
    converters applied, as for a model): ~10 ms for 2,048 players, against ~55 to build
    and keep them as objects, paid by each process on its first report after a bump."""
    regs, players = _columns(Registration), _columns(Player)
    rows = Registration.objects.filter(event_id=event_id).order_by()
    values = rows.values_list(*regs, *(f"player__{name}" for name in players))
    return {row[0]: row for row in values}


def _registration(row: tuple, db: str) -> Registration:
    """A registration and its player, new objects, from a row of `_registration_rows`."""
    regs, players = _columns(Registration), _columns(Player)
    registration = Registration.from_db(db, regs, row[: len(regs)])
    player = Player.from_db(db, players, row[len(regs) :])
    Registration.player.field.set_cached_value(registration, player)
    return registration


def _frame(round_id: int, regs: list[int]) -> tuple[Round, dict[int, Registration]]:
    event_id = row_events.round_event(round_id)
    if event_id is None:
        raise Round.DoesNotExist(round_id)
    if _pending(event_id):  # this transaction wrote a frame row: its own, kept nowhere
        return _load_round(round_id), _by_pk(_load_registrations(pk__in=regs))
    at = versions.current(version_key(event_id))
    frame = _frames.get(event_id)
    if frame is None or frame.version != at:
        _frames.pop(event_id, None)
        if len(_frames) >= MAX_EVENTS:
            del _frames[next(iter(_frames))]
        frame = _frames[event_id] = _Frame(at)
    kept = frame.rounds.get(round_id)
    if kept is None:
        round_ = _load_round(round_id)
        frame.rounds[round_id] = pickle.dumps(round_, pickle.HIGHEST_PROTOCOL)
    else:
        round_ = pickle.loads(kept)
    kept_regs = frame.registrations
    if not frame.all_registrations and any(pk not in kept_regs for pk in regs):
        # All of them at once, once per process and version: the opponent's report comes
        # to any process.
        frame.all_registrations = True
        kept_regs.update(_registration_rows(event_id))
    db = Registration.objects.db
    registrations = {pk: _registration(kept_regs[pk], db) for pk in regs if pk in kept_regs}
    missing = [pk for pk in regs if pk not in registrations]
    if missing:  # (not kept: a row gone meanwhile)
        registrations.update(_by_pk(_load_registrations(pk__in=missing)))
    return round_, registrations
