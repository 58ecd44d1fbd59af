"""Input that cannot hurt the server: a bound on every request body and on JSON nesting.

- `RequestBodyLimitMiddleware` refuses a body longer than `REQUEST_BODY_MAX_BYTES` (or the
  path's own limit, `REQUEST_BODY_LIMITS_BY_PATH`: the TOM save endpoints) before
  anything reads it, from its `Content-Length` (a WSGI request without one has no body for
  Django). The API answers `{"code": "request-too-large", "detail"}`, pages a short text;
  both with 400, like Django's own `RequestDataTooBig`.
- `BoundedJSONParser` is DRF's JSON parser with a depth bound: JSON nested deeper than
  `JSON_MAX_DEPTH` is a 400 `json-too-deep`, whether Python's decoder gives up on it
  (`RecursionError`, which used to be a 500) or it parses and is merely deeper than any of
  our requests can be. A NUL character in any string (JSON, form or multipart) is a 400 `nul-character`.
- `RefuseNulMiddleware`: a NUL character in the path or the query string (`%00`, raw or
  percent-encoded) is the same 400 `nul-character` before any view runs (PostgreSQL cannot
  compare one, so a lookup with it was a 500). Numbers in them are read by
  `league.params.parse_number`.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from rules.errors import DomainError


def _too_large(request, limit: int):
    detail = f"The request body is larger than {limit:,} bytes."
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "request-too-large", "detail": detail}, status=400)
    return HttpResponse(detail, status=400, content_type="text/plain; charset=utf-8")


def body_limit(path: str) -> int:
    """The body limit of a path: its own from `REQUEST_BODY_LIMITS_BY_PATH` (the TOM save
    endpoints), else `REQUEST_BODY_MAX_BYTES`."""
    for pattern, limit in getattr(settings, "REQUEST_BODY_LIMITS_BY_PATH", ()):
        if re.match(pattern, path):
            return limit
    return settings.REQUEST_BODY_MAX_BYTES


class RequestBodyLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = body_limit(request.path_info)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            return _too_large(request, limit)
        return self.get_response(request)


NUL_DETAIL = "Text may not contain NUL characters."


class RefuseNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "\x00" in request.path_info or _has_nul(query):
            if request.path.startswith("/api/"):
                return JsonResponse({"code": "nul-character", "detail": NUL_DETAIL}, status=400)
            return HttpResponse(NUL_DETAIL, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _has_nul(query: str) -> bool:
    return "\x00" in query or "%00" in query or "\x00" in unquote_plus(query)


def json_problem(data, limit: int) -> DomainError | None:
    """What is wrong with `data` (parsed JSON), if anything: lists/objects nested deeper
    than `limit`, or a NUL character in a string (PostgreSQL cannot even compare one, so a
    lookup with it would be a 500). Iterative, so it cannot itself run out of stack."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return DomainError("nul-character", _("Text may not contain NUL characters."))
            continue
        if isinstance(value, dict):
            children = [*value.keys(), *value.values()]
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return DomainError("json-too-deep", _too_deep(limit))
        stack.extend((child, depth + 1) for child in children)
    return None


def _too_deep(limit: int) -> str:
    return ngettext(
        "JSON may nest at most %(limit)s level.", "JSON may nest at most %(limit)s levels.", limit
    ) % {"limit": limit}


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.JSON_MAX_DEPTH
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise DomainError("json-too-deep", _too_deep(limit)) from None
        problem = json_problem(data, limit)
        if problem is not None:
            raise problem
        return data


def _refuse_nul(data) -> None:
    for key, values in data.lists():
        if "\x00" in key or any(isinstance(v, str) and "\x00" in v for v in values):
            raise DomainError("nul-character", _("Text may not contain NUL characters."))


class BoundedFormParser(FormParser):
    """DRF's form parser, refusing a NUL character as the JSON parser does."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        _refuse_nul(data)
        return data


class BoundedMultiPartParser(MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        _refuse_nul(parsed.data)
        return parsed
