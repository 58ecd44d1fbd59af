"""The notifications a round or a result sends. Each builds its items and calls
`notifications.services.notify` once; keys make every call safe to repeat."""

from __future__ import annotations

from django.urls import reverse

from league.models import Event, Registration
from league.notify import notify_staff
from league.public_record import public_name
from league.wording import full_stop
from notifications.services import NotificationItem, notify

from .models import Match, Round
from .presenters import match_result_text


def pairings_key_prefix(round_: Round) -> str:
    """The start of every key of a round's pairings e-mails (one per player)."""
    return f"pairings:round:{round_.pk}:"


def standings_key_prefix(event_id: int, round_number: int) -> str:
    """The start of every key of the "standings are up" e-mails of one round."""
    return f"standings:event:{event_id}:round:{round_number}:"


def round_mail_key_prefixes(round_: Round) -> list[str]:
    """Keys of a round's e-mails to players: its pairings and its standings."""
    return [pairings_key_prefix(round_), standings_key_prefix(round_.event_id, round_.number)]


def _name(reg) -> str:
    """A player as another player reads them (a minor's first name and initial)."""
    return public_name(reg.player) if reg else "BYE"


def _full_name(reg) -> str:
    """A player as the staff read them."""
    return reg.player.name if reg else "BYE"


def pairings_published(round_: Round) -> int:
    """One notification per player with an account: opponent and table."""
    matches = round_.matches.select_related("player_a__player", "player_b__player")
    event = round_.event
    url = reverse("round-pairings", args=[event.pk, round_.number])
    items = []
    for m in matches:
        for me, other in ((m.player_a, m.player_b), (m.player_b, m.player_a)):
            if me is None or me.player.user_id is None:
                continue
            if other is None:
                body = (
                    f"You have a bye in round {round_.number} of {event.name}: it counts as a win."
                )
            else:
                body = (
                    f"Round {round_.number} of {event.name}: table {m.table} against "
                    + full_stop(_name(other))
                )
            items.append(
                NotificationItem(
                    recipient_id=me.player.user_id,
                    key=f"{pairings_key_prefix(round_)}reg:{me.pk}",
                    subject=f"{event.name}: round {round_.number} pairings"[:200],
                    body=body,
                    url=url,
                )
            )
    return notify(kind="pairings_published", items=items)


def result_reported(match: Match, *, reported_by_side: str, report_id: int) -> int:
    """Ask the opponent to confirm; one notice per report (`report_id`), so a retried
    request never tells them twice."""
    other = match.player_b if reported_by_side == "a" else match.player_a
    if other is None or other.player.user_id is None:
        return 0
    reporter = match.player_a if reported_by_side == "a" else match.player_b
    event = match.round.event
    return notify(
        kind="result_reported",
        items=[
            NotificationItem(
                recipient_id=other.player.user_id,
                key=f"reported:match:{match.pk}:report:{report_id}",
                subject=f"{event.name}: confirm your round {match.round.number} result"[:200],
                body=f"{_name(reporter)} reported your match at table {match.table}. "
                "Confirm it, or report what you saw: a different report goes to the staff.",
                url=reverse("match-detail", args=[match.pk]),
            )
        ],
    )


def result_disputed(match: Match, *, report_id: int) -> int:
    event = match.round.event
    return notify_staff(
        event,
        "enter-results",
        kind="result_reported",
        key=f"disputed:match:{match.pk}:report:{report_id}",
        subject=f"{event.name}: disputed result at table {match.table}",
        body=f"{_full_name(match.player_a)} and {_full_name(match.player_b)} reported different "
        f"results in round {match.round.number}. Please decide the result.",
        url=reverse("match-detail", args=[match.pk]),
    )


def _players(match: Match) -> list:
    return [
        reg
        for reg in (match.player_a, match.player_b)
        if reg is not None and reg.player.user_id is not None
    ]


def dispute_resolved(match: Match) -> int:
    change_count = match.changes.count()
    items = [
        NotificationItem(
            recipient_id=reg.player.user_id,
            key=f"resolved:match:{match.pk}:change:{change_count}:reg:{reg.pk}",
            subject=f"{match.round.event.name}: your round {match.round.number} result was decided"[
                :200
            ],
            body=f"The staff decided the result of your match at table {match.table}: "
            + full_stop(match_result_text(match)),
            url=reverse("match-detail", args=[match.pk]),
        )
        for reg in _players(match)
    ]
    return notify(kind="dispute_resolved", items=items)


def result_changed(match: Match, *, why: str = "") -> int:
    """Both players: the staff changed a result that stood, or a penalty changed it (`why`
    says which penalty, for whom). Keyed by the match's change count, so a retry sends
    nothing twice."""
    change_count = match.changes.count()
    event = match.round.event
    reason = f" {why.rstrip('.: ')}." if why else ""
    items = [
        NotificationItem(
            recipient_id=reg.player.user_id,
            key=f"changed:match:{match.pk}:change:{change_count}:reg:{reg.pk}",
            subject=f"{event.name}: your round {match.round.number} result changed"[:200],
            body=f"The result of your match at table {match.table} is now "
            + full_stop(match_result_text(match))
            + reason,
            url=reverse("match-detail", args=[match.pk]),
        )
        for reg in _players(match)
    ]
    return notify(kind="result_changed", items=items)


def standings_published(event: Event, round_number: int) -> int:
    user_ids = (
        Registration.objects.filter(event=event, player__user__isnull=False)
        .exclude(status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED))
        .values_list("player__user_id", flat=True)
    )
    url = reverse("event-standings", args=[event.pk])
    return notify(
        kind="standings_published",
        items=[
            NotificationItem(
                recipient_id=user_id,
                key=f"{standings_key_prefix(event.pk, round_number)}user:{user_id}",
                subject=f"{event.name}: standings after round {round_number}"[:200],
                body=f"The standings after round {round_number} of {event.name} are up.",
                url=url,
            )
            for user_id in user_ids
        ],
    )


def round_clock(round_: Round, *, stage: str, missing: int) -> int:
    """Tell the event's staff that a round has 10 minutes left (`stage="10min"`) or that
    time is up (`stage="time"`)."""
    event = round_.event
    if stage == "10min":
        subject = f"{event.name}: 10 minutes left in round {round_.number}"
        body = f"Round {round_.number} ends at {round_.ends_at:%H:%M}. {missing} result(s) still missing."
    else:
        subject = f"{event.name}: time in round {round_.number}"
        body = f"Time has been called in round {round_.number}. {missing} result(s) still missing."
    return notify_staff(
        event,
        "enter-results",
        kind="round_clock",
        key=f"clock:round:{round_.pk}:{stage}",
        subject=subject,
        body=body,
        url=reverse("event-dashboard", args=[event.pk]),
    )


def _seating_body(round_: Round, m: Match, me) -> str:
    other = m.player_b if me.pk == m.player_a_id else m.player_a
    if other is None:
        return f"You now have a bye in round {round_.number}: it counts as a win."
    return f"Round {round_.number}: you now play at table {m.table} against {_name(other)}."


def table_changed(
    round_: Round, matches: list[Match], *, registration_ids: set[int], key: str
) -> int:
    """Tell the players of `registration_ids` (seated in `matches` after a staff edit of a
    published round) their new table and opponent. `key` names the edit (its log row)."""
    event = round_.event
    url = reverse("round-pairings", args=[event.pk, round_.number])
    items = [
        NotificationItem(
            recipient_id=me.player.user_id,
            key=f"seating:{key}:reg:{me.pk}",
            subject=f"{event.name}: your round {round_.number} table changed"[:200],
            body=_seating_body(round_, m, me),
            url=url,
        )
        for m in matches
        for me in (m.player_a, m.player_b)
        if me is not None and me.pk in registration_ids and me.player.user_id is not None
    ]
    return notify(kind="pairings_published", items=items)


def round_cancelled(round_: Round, matches: list[Match]) -> int:
    """Tell every player of a published round that was undone that it is cancelled and
    new pairings follow."""
    event = round_.event
    items = [
        NotificationItem(
            recipient_id=me.player.user_id,
            key=f"cancelled:round:{round_.pk}:reg:{me.pk}",
            subject=f"{event.name}: round {round_.number} pairings cancelled"[:200],
            body=f"The pairings of round {round_.number} of {event.name} were cancelled by "
            "the staff. Stay near the pairings board: new pairings follow.",
            url=reverse("event-detail", args=[event.pk]),
        )
        for m in matches
        for me in (m.player_a, m.player_b)
        if me is not None and me.player.user_id is not None
    ]
    return notify(kind="pairings_published", items=items)
