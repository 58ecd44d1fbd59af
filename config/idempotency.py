"""`Idempotency-Key` on API writes: a client that retries a POST/PUT/PATCH/DELETE with the
same key and the same body gets the first answer again, and nothing runs twice; the same
key with a different body is a 422 (`idempotency-key-reused`); a retry while the first is
still running is a 409 (`idempotency-key-in-use`). Only answers below 500 are kept, for a
day in the shared cache, so a failure can be retried.

Keys belong to an authenticated user: the caller is authenticated first, as the API does
(a personal token, `config.api_auth.TokenAuthentication`, or the signed-in session), and
the key is stored per user. A request that does not authenticate (a revoked or wrong
token, an anonymous caller) is passed to the view untouched, which answers it as any other
(401/403 for writes that need a user): no stored answer is replayed to it."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from config.api_auth import TokenAuthentication
from rules.errors import DomainError

KEEP_SECONDS = 24 * 3600
RUNNING_SECONDS = 60
WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()


def _error(error: DomainError) -> JsonResponse:
    return JsonResponse({"code": error.code, "detail": error.message}, status=error.status)


def _authenticated_user_id(request) -> int | None:
    """The id of the user the API would authenticate this request as, or None. A request
    carrying an `Authorization` header is judged by it alone (the API tries the token
    first); otherwise the session's user (`AuthenticationMiddleware` ran before)."""
    if authentication.get_authorization_header(request):
        try:
            found = TokenAuthentication().authenticate(request)
        except exceptions.AuthenticationFailed:
            return None
        return found[0].pk if found else None
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


class IdempotencyKeyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.headers.get("Idempotency-Key", "")
        if not key or request.method not in WRITES or not request.path.startswith("/api/"):
            return self.get_response(request)
        if len(key) > 255:
            too_long = "Idempotency-Key: 255 characters at most."
            return _error(DomainError("idempotency-key-invalid", too_long, status=400))
        user_id = _authenticated_user_id(request)
        if user_id is None:
            return self.get_response(request)
        slot = "idempotency:" + _digest(f"user:{user_id}", key)
        body = _digest(request.method, request.path, request.body)
        # The first request with a key (the usual case) costs one cache write: the `add`
        # that claims the key; only a retry reads what is stored.
        if cache.add(slot, {"body": body, "running": True}, RUNNING_SECONDS):
            return self._first(request, slot, body)
        stored = cache.get(slot) or {"body": body, "running": True}  # gone since: retry
        if stored["body"] != body:
            return _error(
                DomainError(
                    "idempotency-key-reused",
                    _("This Idempotency-Key was used with another request: use a new key."),
                    status=422,
                )
            )
        if stored.get("running"):
            return _error(
                DomainError(
                    "idempotency-key-in-use",
                    _("The first request with this key is still running."),
                    status=409,
                )
            )
        response = HttpResponse(
            stored["content"], status=stored["status"], content_type=stored["content_type"]
        )
        response["Idempotent-Replayed"] = "true"
        return response

    def _first(self, request, slot: str, body: str):
        try:
            response = self.get_response(request)
        except BaseException:
            cache.delete(slot)
            raise
        if response.status_code >= 500 or getattr(response, "streaming", False):
            cache.delete(slot)
            return response
        if hasattr(response, "render") and not response.is_rendered:
            response.render()
        cache.set(
            slot,
            {
                "body": body,
                "status": response.status_code,
                "content": response.content,
                "content_type": response.get("Content-Type", "application/json"),
            },
            KEEP_SECONDS,
        )
        return response
