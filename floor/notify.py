"""The notification a judge call sends: one inbox row per member of the event's staff who
takes judge calls (organisers and judges, `permissions.staff_user_ids`),
written in the caller's transaction (`notifications.services.notify`; e-mail only for
those who asked for this kind), keyed by the call so a retry sends nothing twice."""

from __future__ import annotations

from django.urls import reverse

from league import permissions
from notifications.services import NotificationItem, notify

from .models import JudgeCall


def judge_called(call: JudgeCall) -> int:
    event = call.event
    staff = permissions.staff_user_ids(event, "judge-calls")
    table = call.match.table
    return notify(
        kind="judge_call",
        items=[
            NotificationItem(
                recipient_id=user_id,
                key=f"judge-call:{call.pk}:staff:{user_id}",
                subject=f"{event.name}: judge call at table {table}"[:200],
                body=f"{call.registration.player.name} at table {table}: {call.reason}",
                url=reverse("floor-queue", args=[event.pk]),
            )
            for user_id in staff
        ],
    )
