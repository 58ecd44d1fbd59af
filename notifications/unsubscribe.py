"""The one-click unsubscribe links in every e-mail: opaque, authenticated, and expiring.

A link's token is a Fernet token (`cryptography`: AES in CBC mode with an HMAC-SHA256, and
the time it was made) of `[user id, kind]`, under a key derived from `SECRET_KEY`. So the
link shows no user id (the old links were signed but readable base64 JSON), cannot be made
or changed without the key, and is refused after `UNSUBSCRIBE_LINK_DAYS` (an e-mail's link
works for months; after that the preferences page, signed in, does the same).
"""

from __future__ import annotations

import base64
import hashlib
import json

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings

_PURPOSE = b"notifications.unsubscribe"


class BadToken(ValueError):
    """Not a token we made, or made for another key."""


class ExpiredToken(BadToken):
    """A token we made, older than `UNSUBSCRIBE_LINK_DAYS`."""


def _fernet() -> Fernet:
    digest = hashlib.sha256(_PURPOSE + b"\0" + settings.SECRET_KEY.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def _ttl_seconds() -> int:
    return int(getattr(settings, "UNSUBSCRIBE_LINK_DAYS", 90) * 24 * 3600)


def make_token(user_id: int, kind: str) -> str:
    payload = json.dumps([int(user_id), str(kind)], separators=(",", ":")).encode()
    return _fernet().encrypt(payload).decode("ascii").rstrip("=")


def read_token(token: str) -> tuple[int, str]:
    """(user id, kind); `ExpiredToken` for a link past its time, `BadToken` for anything
    else we did not make."""
    raw = (token + "=" * (-len(token) % 4)).encode("ascii", "ignore")
    fernet = _fernet()
    try:
        payload = fernet.decrypt(raw, ttl=_ttl_seconds())
    except InvalidToken:
        try:
            fernet.decrypt(raw)  # ours, but too old?
        except InvalidToken:
            raise BadToken("not an unsubscribe token") from None
        raise ExpiredToken("this unsubscribe link has expired") from None
    try:
        user_id, kind = json.loads(payload)
        return int(user_id), str(kind)
    except (ValueError, TypeError):
        raise BadToken("not an unsubscribe token") from None
