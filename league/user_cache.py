"""The signed-in user from the shared cache: Django's `AuthenticationMiddleware` reads the
user row on every request that looks at `request.user`; this one reads it once, keeps it
in the cache (`USER_TIMEOUT`) and drops it whenever the row is saved or deleted (a new
password, a deactivated account, a changed name), so a signed-in phone's personal answer
(`me.json`) and its reports cost no user query.

Everything else is Django's `django.contrib.auth.get_user`: the session names the user
and backend, and the session's hash must match the user's (a password change signs
other sessions out), with the secret-key fallbacks. The cached row holds the password
hash, as the database does; the cache (Redis) already holds the sessions, which are
worth more. Writes that bypass `save()` (a queryset `update()` of users) are seen within
`USER_TIMEOUT`.

`session_user` is that recipe on a session's data, shared with `matches.own_pages`, which
finds the signed-in user from the cache alone (the session's cache entry, `session_cache_key`,
and the row at `user_key`) and names the row it read by `user_cache_token`, new each time
the row is read from the database again.
"""

from __future__ import annotations

import secrets
from importlib import import_module

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

USER_TIMEOUT = 300


def user_key(user_id) -> str:
    """The cache key of a user's row (also read, alone, by `matches.own_pages`)."""
    return f"auth:user:{user_id}"


#: The session engines whose sessions live in the cache, where `session_cache_key` finds them.
CACHED_SESSION_ENGINES = (
    "django.contrib.sessions.backends.cached_db",
    "django.contrib.sessions.backends.cache",
)


def session_cache_key(session_key: str) -> str | None:
    """Where the session named by a cookie is kept in the default cache, or None when the
    engine keeps it elsewhere (or the key is not a session key)."""
    if settings.SESSION_ENGINE not in CACHED_SESSION_ENGINES:
        return None
    if settings.SESSION_CACHE_ALIAS != "default":
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    if store.session_key is None:
        return None
    return store.cache_key


def keep(user) -> None:
    """Keep a user row just read from the database (active) in the cache."""
    # A new token each time the row is read again (after `forget` or its
    # timeout): a page kept for this user (`matches.own_pages`) names it.
    user.user_cache_token = secrets.token_hex(8)
    cache.set(user_key(user.pk), user, timeout=USER_TIMEOUT)


def _load(backend, user_id):
    user = cache.get(user_key(user_id))
    if user is None:
        user = backend.get_user(user_id)
        if user is not None:
            keep(user)
    return user


def load_session(session_key: str) -> None:
    """Bring a `cached_db` session that is not in the cache there, from the database (as
    the session middleware would on its first read): `matches.own_pages` then finds it."""
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db":
        import_module(settings.SESSION_ENGINE).SessionStore(session_key).load()


def user_row(backend_path: str, user_id):
    """The user row `get_user` would load for a session naming `backend_path` (the cache,
    else the database, then kept)."""
    return _load(load_backend(backend_path), user_id)


def active_user(user_id):
    """The active user `user_id` (an API token's), from the cache, or None."""
    user = _load(ModelBackend(), user_id)
    return user if user is not None and user.is_active else None


#: What `session_user` found: the user with the session's hash matching the current one
#: (`CURRENT`), matching a secret-key fallback (`FALLBACK`: the session must move to a new
#: key), nobody (`NOBODY`: no user named, or the account is gone or deactivated), or a user
#: the session no longer signs in (`REFUSED`: a password changed; the session is flushed).
CURRENT, FALLBACK, NOBODY, REFUSED = "current", "fallback", "nobody", "refused"


def session_user_id(session):
    """The user id and backend a session names, or None."""
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    return user_id, backend_path


def session_user(session, load) -> tuple[object, str]:
    """Django's recipe (`django.contrib.auth.get_user`) on a session's data (a session or
    the dict kept in the cache): `(user, verdict)`, the user from `load(backend, user_id)`.
    Used by `get_user` below and by `matches.own_pages` (from the cache alone)."""
    named = session_user_id(session)
    if named is None:
        return None, NOBODY
    user_id, backend_path = named
    user = load(load_backend(backend_path), user_id)
    if user is None:
        return None, NOBODY  # gone or deactivated: anonymous, as Django says (no flush)
    if not hasattr(user, "get_session_auth_hash"):
        return user, CURRENT
    session_hash = session.get(HASH_SESSION_KEY)
    if session_hash and constant_time_compare(session_hash, user.get_session_auth_hash()):
        return user, CURRENT
    if session_hash and any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        return user, FALLBACK
    return None, REFUSED


def get_user(request):
    """`django.contrib.auth.get_user`, with the user row from the cache."""
    user, verdict = session_user(request.session, _load)
    if verdict == CURRENT:
        return user
    if verdict == FALLBACK:
        request.session.cycle_key()
        request.session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        return user
    if verdict == REFUSED:
        request.session.flush()
    return AnonymousUser()


class CachedAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's, with `request.user` from `get_user` above."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))


def forget(user_id) -> None:
    """Drop the cached row now and once the current transaction commits."""
    key = user_key(user_id)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def _changed(sender, instance, **kwargs) -> None:
    forget(instance.pk)


def connect() -> None:
    model = get_user_model()
    post_save.connect(_changed, sender=model, dispatch_uid="user-cache-save")
    post_delete.connect(_changed, sender=model, dispatch_uid="user-cache-delete")
