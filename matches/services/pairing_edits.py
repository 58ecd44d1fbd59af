"""Pairings edited by hand in the current round: swap two players, pair two chosen
players, move a match to another table, seat a late arrival, give a bye. The checks, the
writing, the log row and the notices are shared with undoing a round
(`matches.services.corrections`, whose docstring defines the terms)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from league.event_log import EventLogEntry
from league.models import Registration
from league.services import eventlog
from rules.errors import DomainError
from rules.i18n import gettext_noop, say

from .. import notify
from ..models import Match, Round
from .common import ACTIVE
from .corrections import (
    Pair,
    begin_edit,
    match_of,
    pair_of,
    pod_key,
    refuse_played,
    seated_match,
    write_edit,
)

Kind = EventLogEntry.Kind


@transaction.atomic
def swap_players(
    *, round_: Round, a: Registration, b: Registration, by_user, reason: str, confirm=()
) -> EventLogEntry:
    """Swap two players between their tables (or their byes). Raises `not-allowed`,
    `reason-required`, `not-last-round`, `round-closed`, `not-seated`, `round-has-results`,
    `invalid-edit` (same table, or two pods), `player-dropped`, `needs-confirmation`."""
    event, round_, matches, reason = begin_edit(round_, by_user, reason, Kind.PAIRING_EDITED)
    played = _(
        "Table(s) %(tables)s already have a result or a report: swap players before results "
        "come in."
    )
    ma = seated_match(matches, a, played)
    mb = seated_match(matches, b, played)
    if ma.pk == mb.pk or ma.division != mb.division:
        raise DomainError(
            "invalid-edit", _("Choose two players at different tables of one division.")
        )

    def put(m: Match, out: int, into: int) -> Pair:
        return (into, m.player_b_id) if m.player_a_id == out else (m.player_a_id, into)

    return write_edit(
        event,
        round_,
        matches,
        {ma.pk: put(ma, a.pk, b.pk), mb.pk: put(mb, b.pk, a.pk)},
        [],
        by_user=by_user,
        reason=reason,
        confirm=confirm,
        kind=Kind.PAIRING_EDITED,
        summary=say(
            gettext_noop(
                "Round %(round)s: %(a)s (table %(table_a)s) and %(b)s (table %(table_b)s) swapped."
            ),
            round=round_.number,
            a=a.player.name,
            table_a=ma.table,
            b=b.player.name,
            table_b=mb.table,
        ),
    )


@transaction.atomic
def pair_players(
    *, round_: Round, a: Registration, b: Registration, by_user, reason: str, confirm=()
) -> EventLogEntry:
    """Pair two chosen players at the first one's table (or a new one if neither is seated);
    their former opponents meet at the other table, or one left alone gets a bye. Raises as
    `swap_players`, and `invalid-edit` when they already play each other."""
    event, round_, matches, reason = begin_edit(round_, by_user, reason, Kind.PAIRING_EDITED)
    ma, mb = match_of(matches, a.pk), match_of(matches, b.pk)
    refuse_played(
        [m for m in (ma, mb) if m],
        _(
            "Table(s) %(tables)s already have a result or a report: pair players before "
            "results come in."
        ),
    )
    if ma is not None and ma is mb:
        raise DomainError(
            "invalid-edit",
            _("%(a)s and %(b)s already play each other.")
            % {"a": a.player.name, "b": b.player.name},
        )
    left = [x for m, me in ((ma, a.pk), (mb, b.pk)) if m for x in pair_of(m) if x and x != me]
    changes: dict[int, Pair | None] = {}
    creates: list[tuple[Pair, str]] = []
    home, other = (ma, mb) if ma is not None else (mb, ma)
    if home is None:
        creates.append(((a.pk, b.pk), pod_key(event, a)))
    else:
        changes[home.pk] = (a.pk, b.pk)
    if other is not None:
        changes[other.pk] = (left[0], left[1] if len(left) > 1 else None) if left else None
    elif left and home is not None:
        # One seated: their former opponent keeps a table of their own, with a bye.
        creates.append(((left[0], None), home.division))
    return write_edit(
        event,
        round_,
        matches,
        changes,
        creates,
        by_user=by_user,
        reason=reason,
        confirm=confirm,
        kind=Kind.PAIRING_EDITED,
        summary=say(
            gettext_noop("Round %(round)s: %(a)s and %(b)s paired by hand."),
            round=round_.number,
            a=a.player.name,
            b=b.player.name,
        ),
    )


@transaction.atomic
def move_match(
    *, round_: Round, table: int, to_table: int, by_user, reason: str, division: str = ""
) -> EventLogEntry:
    """Move the match at `table` to `to_table` (a match already there takes `table`).
    Raises `not-found`, `table-invalid`, `round-has-results` and the round checks."""
    event, round_, matches, reason = begin_edit(round_, by_user, reason, Kind.PAIRING_EDITED)
    src = next((m for m in matches if m.table == table and m.division == division), None)
    dst = next((m for m in matches if m.table == to_table and m.division == division), None)
    if src is None:
        raise DomainError(
            "not-found",
            _("There is no table %(table)s in round %(number)s.")
            % {"table": table, "number": round_.number},
            status=404,
        )
    if not 1 <= to_table <= 2000 or to_table == table:
        raise DomainError("table-invalid", _("Choose another table number, from 1 to 2000."))
    refuse_played(
        [m for m in (src, dst) if m],
        _(
            "Table(s) %(tables)s already have a result or a report: move tables before results "
            "come in."
        ),
    )
    if dst is not None:
        dst.table = 0  # out of the way of the unique (round, table, division)
        dst.save(update_fields=["table"])
    src.table = to_table
    src.save(update_fields=["table", "updated_at"])
    if dst is not None:
        dst.table = table
        dst.save(update_fields=["table", "updated_at"])
    moved = {i for m in (src, dst) if m for i in pair_of(m) if i}
    entry = eventlog.record(
        event=event,
        kind=Kind.PAIRING_EDITED,
        by_user=by_user,
        reason=reason,
        registrations=moved,
        round_number=round_.number,
        before={"table": table},
        after={"table": to_table},
        summary=say(
            gettext_noop(
                "Round %(round)s: the match at table %(table)s moved to table %(to_table)s."
            ),
            round=round_.number,
            table=table,
            to_table=to_table,
        ),
    )
    if round_.is_public:
        notify.table_changed(
            round_, [m for m in (src, dst) if m], registration_ids=moved, key=str(entry.pk)
        )
    return entry


SEAT_MODES = ("bye", "loss", "opponent")


@transaction.atomic
def seat_player(
    *,
    round_: Round,
    registration: Registration,
    mode: str,
    by_user,
    reason: str,
    opponent: Registration | None = None,
    confirm=(),
) -> EventLogEntry:
    """Seat a player who has no table in the current Swiss round (a late arrival, a player
    left out by mistake): with a bye, with a loss for this round (they play from the next),
    or against another player without a table. A player new to the event starts here: the
    rounds before count as losses (`Registration.late_entry_round`). Raises `seated-twice`,
    `player-dropped`, `invalid-edit`, `needs-confirmation` and the round checks."""
    event, round_, matches, reason = begin_edit(round_, by_user, reason, Kind.PLAYER_SEATED)
    if mode not in SEAT_MODES or (mode == "opponent") != (opponent is not None):
        raise DomainError("invalid-edit", _("Choose a bye, a loss for the round, or an opponent."))
    if round_.stage != Round.Stage.SWISS:
        raise DomainError(
            "invalid-edit",
            # Translators: "Swiss rounds" and "top cut" are the official TCG tournament terms.
            _("Late arrivals join the Swiss rounds, not the top cut."),
        )
    people = [r for r in (registration, opponent) if r is not None]
    for reg in people:
        m = match_of(matches, reg.pk)
        if m is not None:
            raise DomainError(
                "seated-twice",
                _("%(player)s is already at table %(table)s.")
                % {"player": reg.player.name, "table": m.table},
                status=409,
            )
        if reg.event_id != event.pk:
            raise DomainError(
                "not-found",
                _("%(player)s is not in %(event)s.") % {"player": reg.player.name, "event": event},
                status=404,
            )
    n = round_.number
    if mode == "loss":
        entry_round = _late_entry(registration, n, first=n + 1)
        summary = say(
            gettext_noop("Round %(round)s: %(player)s takes a loss and plays from round %(next)s."),
            round=n,
            player=registration.player.name,
            next=n + 1,
        )
        entry = eventlog.record(
            event=event,
            kind=Kind.PLAYER_SEATED,
            by_user=by_user,
            reason=reason,
            registrations=[registration],
            round_number=n,
            summary=summary,
            before=None,
            after={"late_entry_round": entry_round, "mode": "loss"},
        )
        return entry
    for reg in people:
        _late_entry(reg, n, first=n)
    pair: Pair = (registration.pk, opponent.pk if opponent else None)
    summary = (
        say(
            gettext_noop("Round %(round)s: %(player)s seated against %(opponent)s."),
            round=n,
            player=registration.player.name,
            opponent=opponent.player.name,
        )
        if opponent
        else say(
            gettext_noop("Round %(round)s: %(player)s seated with a bye."),
            round=n,
            player=registration.player.name,
        )
    )
    return write_edit(
        event,
        round_,
        matches,
        {},
        [(pair, pod_key(event, registration))],
        by_user=by_user,
        reason=reason,
        confirm=confirm,
        kind=Kind.PLAYER_SEATED,
        summary=summary,
    )


def _late_entry(registration: Registration, number: int, *, first: int) -> int | None:
    """A player who has played no round yet enters at round `first` (earlier rounds are
    losses); a player who has, keeps their record. Checks them in when they were not."""
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status not in ACTIVE:
        raise DomainError(
            "player-dropped",
            _("%(player)s is %(status)s: undo that first.")
            % {"player": registration.player.name, "status": reg.get_status_display().lower()},
            status=409,
        )
    played = Match.objects.filter(
        Q(player_a=reg) | Q(player_b=reg), round__event_id=reg.event_id, round__number__lt=number
    ).exists()
    fields = []
    if played and first > number:
        raise DomainError(
            "invalid-edit",
            _("%(player)s has played earlier rounds: seat them with a bye or an opponent.")
            % {"player": registration.player.name},
        )
    entry = first if first > 1 else None  # playing round 1 is not a late entry
    if not played and reg.late_entry_round != entry:
        reg.late_entry_round = entry
        fields.append("late_entry_round")
    if reg.status == Registration.Status.REGISTERED:
        reg.status, reg.checked_in_at = Registration.Status.CHECKED_IN, timezone.now()
        fields += ["status", "checked_in_at"]
    if fields:
        reg.save(update_fields=fields)
    return reg.late_entry_round


@transaction.atomic
def give_bye(
    *, round_: Round, registration: Registration, by_user, reason: str, confirm=()
) -> EventLogEntry:
    """Give a player a bye by hand. One without a table is seated with a bye
    (`seat_player`); a seated player's match becomes their bye and the opponent is left
    without a table, named in the log, for the staff to seat."""
    event, round_, matches, reason = begin_edit(round_, by_user, reason, Kind.PAIRING_EDITED)
    m = match_of(matches, registration.pk)
    if m is None:
        return seat_player(
            round_=round_,
            registration=registration,
            mode="bye",
            by_user=by_user,
            reason=reason,
            confirm=confirm,
        )
    refuse_played(
        [m],
        _(
            "Table(s) %(tables)s already have a result or a report: give a bye before results "
            "come in."
        ),
    )
    other = m.player_b if m.player_a_id == registration.pk else m.player_a
    if other is None:
        raise DomainError(
            "invalid-edit",
            _("%(player)s already has a bye.") % {"player": registration.player.name},
        )
    return write_edit(
        event,
        round_,
        matches,
        {m.pk: (registration.pk, None)},
        [],
        by_user=by_user,
        reason=reason,
        confirm=confirm,
        kind=Kind.PAIRING_EDITED,
        summary=say(
            gettext_noop(
                "Round %(round)s: %(player)s given a bye by hand; %(other)s has no table now."
            ),
            round=round_.number,
            player=registration.player.name,
            other=other.player.name,
        ),
    )
