"""The notification a judge call sends: one inbox row per member of the event's staff who
takes judge calls (organisers and judges, `league.notify.notify_staff`),
written in the caller's transaction (`notifications.services.notify`; e-mail only for
those who asked for this kind), keyed by the call so a retry sends nothing twice."""

from __future__ import annotations

from django.urls import reverse

from league.notify import notify_staff

from .models import JudgeCall


def judge_called(call: JudgeCall) -> int:
    event = call.event
    table = call.match.table
    return notify_staff(
        event,
        "judge-calls",
        kind="judge_call",
        key=f"judge-call:{call.pk}",
        subject=f"{event.name}: judge call at table {table}",
        body=f"{call.registration.player.name} at table {table}: {call.reason}",
        url=reverse("floor-queue", args=[event.pk]),
    )
