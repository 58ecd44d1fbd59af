"""The OpenAPI schema documents every answer the API gives, errors included.

drf-spectacular describes the success of each operation; `AutoSchema` adds the error
answers any operation can give, with their bodies: 400 (a field's errors, or
`{"code", "detail"}` for a bad request, a too-large body or too-deep JSON), 401/403 (not
logged in / not allowed), 404 (no such object, or one you may not see), 405, 409 (a
conflict with the event's state), 415 (a body that is not JSON or a form), and 429 (a
throttled login). Schemathesis checks every response against it (tests/test_api_fuzz.py).
"""

from __future__ import annotations

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """Every error: what went wrong, and for the site's own errors a stable kebab-case code."""

    detail = serializers.CharField()
    code = serializers.CharField(required=False)


ERROR = ErrorSerializer
#: 400 is either `{"code", "detail"}` or a serializer's `{field: [messages]}`.
BAD_REQUEST = {"type": "object", "additionalProperties": True}

ERRORS = {
    "400": ("Bad input: field errors, or `code` with `detail`", BAD_REQUEST),
    "401": ("Credentials were given and are wrong", ERROR),
    "403": ("Not logged in, or not allowed", ERROR),
    "404": ("No such object, or one you may not see", ERROR),
    "405": ("Method not allowed", ERROR),
    "409": ("A conflict with the current state (`code` says which)", ERROR),
    "415": ("Unsupported media type", ERROR),
    "429": ("Too many failed logins (`login-throttled`)", ERROR),
}


class AutoSchema(openapi.AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code, (description, body) in ERRORS.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(response=body, description=description), code
                )
        return responses
