"""Turn a `DomainError` into the same JSON shape DRF uses for its own errors."""

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rules.errors import DomainError


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        return Response({"code": exc.code, "detail": exc.message}, status=exc.status)
    return drf_exception_handler(exc, context)
