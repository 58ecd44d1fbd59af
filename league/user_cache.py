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
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    _get_user_session_key,
    get_user_model,
    load_backend,
)
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

USER_TIMEOUT = 300


def _key(user_id) -> str:
    return f"auth:user:{user_id}"


def _load(backend, user_id):
    key = _key(user_id)
    user = cache.get(key)
    if user is None:
        user = backend.get_user(user_id)
        if user is not None:
            cache.set(key, user, timeout=USER_TIMEOUT)
    return user


def get_user(request):
    """`django.contrib.auth.get_user`, with the user row from the cache."""
    try:
        user_id = _get_user_session_key(request)
        backend_path = request.session[BACKEND_SESSION_KEY]
    except KeyError:
        return AnonymousUser()
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return AnonymousUser()
    user = _load(load_backend(backend_path), user_id)
    if not hasattr(user, "get_session_auth_hash"):
        return user or AnonymousUser()
    session_hash = request.session.get(HASH_SESSION_KEY)
    current = user.get_session_auth_hash()
    if session_hash and constant_time_compare(session_hash, current):
        return user
    if session_hash and any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        request.session.cycle_key()
        request.session[HASH_SESSION_KEY] = current
        return user
    request.session.flush()
    return AnonymousUser()


class CachedAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's, with `request.user` from `get_user` above."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))


def forget(user_id) -> None:
    """Drop the cached row now and once the current transaction commits."""
    key = _key(user_id)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def _changed(sender, instance, **kwargs) -> None:
    forget(instance.pk)


def connect() -> None:
    model = get_user_model()
    post_save.connect(_changed, sender=model, dispatch_uid="user-cache-save")
    post_delete.connect(_changed, sender=model, dispatch_uid="user-cache-delete")
