"""Personal API tokens (`ApiToken`): created and revoked by their owner on the profile
page, checked by `config.api_auth.TokenAuthentication` with one indexed lookup and no
password hash. Only a SHA-256 of the key is stored; the key is shown once, at creation."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from rules.errors import DomainError

from ..models import ApiToken

#: Tokens one user may hold at once.
MAX_TOKENS = 10


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def create_api_token(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`; returns it and its key (never stored). Raises
    `too-many-tokens`."""
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
        raise DomainError(
            "too-many-tokens",
            ngettext(
                "You can have %(count)s token: revoke it first.",
                "You can have %(count)s tokens: revoke one first.",
                MAX_TOKENS,
            )
            % {"count": MAX_TOKENS},
            status=409,
        )
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=(name.strip() or "API token")[:60], prefix=key[:8], key_hash=hash_key(key)
    )
    return token, key


def revoke_api_token(*, user, token_id: int) -> bool:
    """Delete one of `user`'s tokens; False when it was not theirs (or already gone)."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def user_for_key(key: str):
    """The active user a key belongs to, or None. Marks the token used (at most once a
    minute, so a busy script does not write on every request)."""
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=hash_key(key), user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
