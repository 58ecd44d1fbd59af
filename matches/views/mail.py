"""The organiser's mail status of a round (sent / pending / failed) and its retry button."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from league.view_helpers import get_event, require
from notifications import services as notification_services

from ..models import Round


def round_mail_prefixes(round_: Round) -> list[str]:
    """Keys of a round's e-mails to players (`matches/notify.py`): pairings and standings."""
    return [
        f"pairings:round:{round_.pk}:",
        f"standings:event:{round_.event_id}:round:{round_.number}:",
    ]


def round_mail_status(round_: Round) -> notification_services.MailStatus:
    return notification_services.mail_status(key_prefixes=round_mail_prefixes(round_))


@login_required
@require_POST
def round_mail_retry(request, event_id: int, number: int):
    """Send the round's failed and waiting e-mails again now (staff only)."""
    event = get_event(event_id)
    require(request, event, "pair-rounds")
    round_ = get_object_or_404(Round, event=event, number=number)
    count = notification_services.retry_emails(key_prefixes=round_mail_prefixes(round_))
    messages.success(request, f"Round {number}: {count} e-mail(s) queued again.")
    return redirect("event-dashboard", event.pk)
