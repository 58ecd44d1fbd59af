"""Turn a `DomainError` into the same JSON shape DRF uses for its own errors, and a login
throttled by django-axes into its 429. Errors outside DRF (404 for an unknown address, 403,
500) are `config.error_pages`."""

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rules.errors import DomainError

from .login_throttle import lockout_response


def exception_handler(exc, context):
    request = context.get("request")
    if request is not None and getattr(request, "axes_locked_out", False):
        # django-axes refused a password check made through the API (it marks DRF's request,
        # which its middleware does not see): the same 429 as the login page.
        return lockout_response(request)
    if isinstance(exc, DomainError):
        return Response({"code": exc.code, "detail": exc.message}, status=exc.status)
    return drf_exception_handler(exc, context)
