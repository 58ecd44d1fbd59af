"""Personal API tokens (`ApiToken`): created and revoked by their owner on the profile
page, checked by `config.api_auth.TokenAuthentication` with one indexed lookup and no
password hash. Only a SHA-256 of the key is stored; the key is shown once, at creation.

A key's token is kept in the shared cache by its digest (`token_key`: the token's and its
user's ids, no secret), so a busy script's request reads no token row: the user comes from
`league.user_cache` (dropped whenever the user row is saved or deleted; a deactivated user
is nobody). A deleted token (revoked, or its user deleted) leaves a tombstone in its place
(`_gone`, on `post_delete`, at once and again after the commit), and the cache is only
ever filled with `add`, so a request that read the row just before the delete cannot
put it back: a revoked key is refused on the next request.

`last_used_at` is marked at most once a minute a token (claimed by a short cache entry),
and the mark is not a write in the request: it is kept in the cache (`used_key`) and the
worker writes the marks of every token once a minute (`write_uses`, on the beat), one
UPDATE for all of them. A request that reads a token's row so costs what a page's session
read costs, where the write made the first report of a phone through the API the slowest
report of all (`benchmarks/bench_load.py`). The "last used" on the profile page is so up
to a minute late; if the cache is lost before the worker's next run, the uses marked
since are lost with it (the time shown is then older, never newer, than the truth).
Without a worker (tasks run in-process: the quick start, the tests), the mark is written
at once."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from django.utils.translation import ngettext

from rules.errors import DomainError

from .. import user_cache
from ..models import ApiToken

#: Tokens one user may hold at once.
MAX_TOKENS = 10
#: How long a token found in the database is kept in the cache (as a user row is).
TOKEN_TIMEOUT = 300
#: `last_used_at` is marked at most once in this many seconds a token.
USED_EVERY = 60
#: How long a use marked in the cache waits for the worker's `write_uses` (every minute).
MARK_TIMEOUT = 3600
GONE = "gone"


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


def token_key(key_hash: str) -> str:
    return f"apitoken:{key_hash}"


def user_for_key(key: str):
    """The active user a key belongs to, or None. Marks the token used (at most once a
    minute, so a busy script does not write on every request)."""
    digest = hash_key(key)
    slot = token_key(digest)
    kept = cache.get(slot)
    if kept == GONE:
        return None
    now = timezone.now()
    if kept is None:
        token = (
            ApiToken.objects.select_related("user")
            .filter(key_hash=digest, user__is_active=True)
            .first()
        )
        if token is None:
            return None
        used = token.last_used_at
        if used is None or (now - used).total_seconds() > USED_EVERY:
            _mark_used(token.pk, now)
            used = now
        # `add`: never over a tombstone left by a delete since the read.
        kept = {"id": token.pk, "user": token.user_id, "used": used.timestamp()}
        cache.add(slot, kept, TOKEN_TIMEOUT)
        user_cache.keep(token.user)
        return token.user
    user = user_cache.active_user(kept["user"])
    if user is None:
        return None
    # The kept `used` is as old as the entry: past a minute, one process a minute claims
    # the write.
    if now.timestamp() - kept["used"] > USED_EVERY and cache.add(
        f"apitoken-used:{kept['id']}", 1, USED_EVERY
    ):
        _mark_used(kept["id"], now)
    return user


def used_key(token_id: int) -> str:
    """Where a token's latest use waits for the worker (`apitoken-used:` is the claim that
    marks it at most once a minute)."""
    return f"apitoken-last-use:{token_id}"


def _mark_used(token_id: int, now) -> None:
    """Mark a token used `now`: for the worker's next `write_uses`, or at once when tasks
    run in-process (no worker)."""
    if current_app.conf.task_always_eager:
        ApiToken.objects.filter(pk=token_id).update(last_used_at=now)
    else:
        cache.set(used_key(token_id), now.timestamp(), MARK_TIMEOUT)


def write_uses() -> int:
    """Write the uses marked in the cache to the tokens they name, where newer than what is
    written (the worker, every minute: idempotent, and a mark written is never written
    again). Returns the tokens written."""
    written = dict(ApiToken.objects.values_list("pk", "last_used_at"))
    marks = cache.get_many([used_key(pk) for pk in written])
    newer = []
    for pk, at in written.items():
        mark = marks.get(used_key(pk))
        if mark is not None and (at is None or mark > at.timestamp()):
            newer.append(ApiToken(pk=pk, last_used_at=datetime.fromtimestamp(mark, tz=UTC)))
    ApiToken.objects.bulk_update(newer, ["last_used_at"], batch_size=500)
    return len(newer)


def _gone(sender, instance, **kwargs) -> None:
    """A deleted token's key is refused at once, and a read racing the delete cannot put
    it back in the cache (only `add` fills it)."""
    slot = token_key(instance.key_hash)
    cache.set(slot, GONE, TOKEN_TIMEOUT * 2)
    transaction.on_commit(lambda: cache.set(slot, GONE, TOKEN_TIMEOUT * 2))


def _saved(sender, instance, created, **kwargs) -> None:
    if not created:
        cache.delete(token_key(instance.key_hash))


def connect() -> None:
    post_delete.connect(_gone, sender=ApiToken, dispatch_uid="api-token-gone")
    post_save.connect(_saved, sender=ApiToken, dispatch_uid="api-token-saved")
