"""`Idempotency-Key` on API writes: a client that retries a POST/PUT/PATCH/DELETE with the
same key and the same body gets the first answer again, and nothing runs twice; the same
key with a different body is a 422 (`idempotency-key-reused`); a retry while the first is
still running is a 409 (`idempotency-key-in-use`). Keys belong to the caller (the
`Authorization` header or the session) and are kept for a day in the shared cache.
Only answers below 500 are kept, so a failure can be retried."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import HttpResponse, JsonResponse

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
        caller = request.headers.get("Authorization") or request.COOKIES.get("sessionid", "")
        slot = "idempotency:" + _digest(caller, key)
        body = _digest(request.method, request.path, request.body)
        stored = cache.get(slot)
        if stored is None and not cache.add(slot, {"body": body, "running": True}, RUNNING_SECONDS):
            stored = cache.get(slot)
        elif stored is None:
            return self._first(request, slot, body)
        if stored["body"] != body:
            return _error(
                DomainError(
                    "idempotency-key-reused",
                    "This Idempotency-Key was used with another request: use a new key.",
                    status=422,
                )
            )
        if stored.get("running"):
            return _error(
                DomainError(
                    "idempotency-key-in-use",
                    "The first request with this key is still running.",
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
            {"body": body, "status": response.status_code, "content": response.content,
             "content_type": response.get("Content-Type", "application/json")},
            KEEP_SECONDS,
        )  # fmt: skip
        return response
