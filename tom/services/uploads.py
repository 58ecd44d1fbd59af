"""The laptop script's upload token, and the organiser a command acts as."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import permissions
from league.models import Event
from rules.errors import DomainError

from ..models import TomEvent

# --- the laptop script's token -------------------------------------------------------------


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def new_upload_token(*, event: Event, by_user) -> str:
    """A new upload token for the event's TOM laptop (the old one stops working). Returns
    the token, which is stored only as its SHA-256: show it once. Staff only."""
    if not permissions.can(by_user, event, "manage-event"):
        raise DomainError(
            "not-allowed", _("Only the event's organisers can make an upload token."), status=403
        )
    tom = TomEvent.objects.select_for_update().filter(event=event).first()
    if tom is None:
        tom = TomEvent.objects.create(event=event, sanction_id="", save_data={})
    token = f"tom_{event.pk}_{secrets.token_urlsafe(32)}"
    tom.token_hash, tom.token_created_at, tom.token_user = (
        token_digest(token),
        timezone.now(),
        by_user,
    )
    tom.save(update_fields=["token_hash", "token_created_at", "token_user", "updated_at"])
    return token


def event_for_token(token: str) -> TomEvent | None:
    if not token or "\x00" in token:
        return None
    return (
        TomEvent.objects.select_related("event__season__league", "token_user")
        .filter(token_hash=token_digest(token))
        .exclude(token_hash="")
        .first()
    )


def organiser_user(username: str | None):
    User = get_user_model()
    if username:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise DomainError(
                "not-found", _("No user %(username)r.") % {"username": username}, status=404
            )
        return user
    return None
