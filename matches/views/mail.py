"""The retry button of a round's e-mails (their status is drawn by `{% round_mail_status %}`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from league.view_helpers import get_event, require
from notifications import services as notification_services

from ..models import Round
from ..notify import round_mail_key_prefixes


@login_required
@require_POST
def round_mail_retry(request, event_id: int, number: int):
    """Send the round's failed and waiting e-mails again now (staff only)."""
    event = get_event(event_id)
    require(request, event, "pair-rounds")
    round_ = get_object_or_404(Round, event=event, number=number)
    count = notification_services.retry_emails(key_prefixes=round_mail_key_prefixes(round_))
    messages.success(
        request,
        ngettext(
            "Round %(number)s: %(count)s e-mail(s) queued again.",
            "Round %(number)s: %(count)s e-mail(s) queued again.",
            count,
        )
        % {"number": number, "count": count},
    )
    return redirect("event-dashboard", event.pk)
