"""The floor's notifications, written in the caller's transaction
(`notifications.services.notify`) and keyed so a retry sends nothing twice: a judge call to
the event's staff who take calls (organisers and judges, `league.notify.notify_staff`;
e-mail only for those who asked for this kind), the call taken or closed to the player who
called, a penalty to the penalised player."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from league.notify import notify_staff
from league.wording import full_stop
from notifications.language import in_recipients_language
from notifications.services import NotificationItem, notify

from . import wording
from .models import JudgeCall, Penalty


def judge_called(call: JudgeCall) -> int:
    event = call.event
    table = call.match.table
    return notify_staff(
        event,
        "judge-calls",
        kind="judge_call",
        key=f"judge-call:{call.pk}",
        words=lambda: (
            _("%(event)s: judge call at table %(table)s") % {"event": event.name, "table": table},
            _("%(player)s at table %(table)s: %(reason)s")
            % {"player": call.registration.player.name, "table": table, "reason": call.reason},
        ),
        url=reverse("floor-queue", args=[event.pk]),
    )


def _user_of(registration) -> int | None:
    return registration.player.user_id if registration is not None else None


def call_taken(call: JudgeCall) -> int:
    """The player who called: who took the call (or closed it), so they know someone is
    coming. Keyed by the call and its state."""
    caller = call.called_by_id or _user_of(call.registration)
    if caller is None:
        return 0
    event = call.event
    with in_recipients_language(call.called_by or call.registration.player, event):
        subject, body = _taken_words(call, event)
    return notify(
        kind="judge_call_taken",
        items=[
            NotificationItem(
                recipient_id=caller,
                key=f"judge-call:{call.pk}:{call.status}",
                subject=subject[:200],
                body=body,
                url=reverse("match-detail", args=[call.match_id]),
            )
        ],
    )


def _taken_words(call: JudgeCall, event) -> tuple[str, str]:
    judge = call.taken_by or _("A judge")
    table = call.match.table
    if call.status == JudgeCall.Status.CLOSED:
        subject = _("%(event)s: your judge call at table %(table)s is closed") % {
            "event": event.name,
            "table": table,
        }
        closer = call.closed_by or judge
        body = (
            _("%(judge)s closed your call: %(note)s") % {"judge": closer, "note": call.note}
            if call.note
            else _("%(judge)s closed your call.") % {"judge": closer}
        )
    else:
        subject = _("%(event)s: %(judge)s is coming to table %(table)s") % {
            "event": event.name,
            "judge": judge,
            "table": table,
        }
        body = _(
            "%(judge)s took your call (“%(reason)s”) and is on the way to table %(table)s."
        ) % {"judge": judge, "reason": call.reason, "table": table}
    return subject, body


def penalty_issued(penalty: Penalty) -> int:
    """The penalised player: the penalty, the infraction, the judge's note, and what it did
    to the result (the opponent hears of a changed result from `matches.notify`)."""
    user_id = penalty.player.user_id
    if user_id is None:
        return 0
    event = penalty.event
    with in_recipients_language(penalty.player, event):
        subject, body = _penalty_words(penalty, event)
    return notify(
        kind="penalty",
        items=[
            NotificationItem(
                recipient_id=user_id,
                key=f"penalty:{penalty.pk}",
                subject=subject[:200],
                body=body,
                url=reverse("my-penalties"),
            )
        ],
    )


def _penalty_words(penalty: Penalty, event) -> tuple[str, str]:
    words = {
        "penalty": penalty.label,
        "infraction": wording.infraction_label(penalty.infraction),
    }
    if penalty.match:
        words.update(round=penalty.round.number, table=penalty.match.table)
        body = _("%(penalty)s for %(infraction)s (round %(round)s, table %(table)s)") % words
    else:
        body = _("%(penalty)s for %(infraction)s") % words
    note = penalty.worded_note
    body = f"{body}: {full_stop(note)}" if note else full_stop(body)
    if penalty.result_changed:
        body += " " + _("It changed the match's result.")
    subject = _("%(event)s: %(penalty)s issued to you") % {
        "event": event.name,
        "penalty": penalty.label,
    }
    return subject, body
