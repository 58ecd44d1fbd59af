"""The site's error pages (403, 404, 500): in the site's frame (`base.html`), with the reason
the code gave (`PermissionDenied("Decklists are private …")`, `Http404("No such round.")`)
and a way on: back where the person came from, the home page, and "Log in" for someone not
signed in. Under /api/ the same errors answer JSON, as every other API error."""

import logging

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)

TITLES = {
    403: _("You can't open this page"),
    404: _("We couldn't find this page"),
    500: _("Something went wrong on our side"),
}
DEFAULT_REASONS = {
    403: _("Your account is not allowed to see this page."),
    404: _("The address may be mistyped, or the page was removed."),
    500: _(
        "The error has been logged. Try again in a minute; if it happens again, tell the organiser."
    ),
}
API_CODES = {403: "not-allowed", 404: "not-found", 500: "server-error"}
API_DETAILS = {403: _("Not allowed."), 404: _("Not found."), 500: _("Server error.")}


def reason_of(status: int, exception) -> str:
    """The message the code raised with, when it is one written for people. Django's own
    `get_object_or_404` message names a model ("No Event matches the given query."): not
    for people, so the page's default reason is shown instead."""
    message = ""
    if exception is not None and exception.args and isinstance(exception.args[0], str):
        message = exception.args[0].strip()
    if not message or "matches the given query" in message:
        return DEFAULT_REASONS[status]
    return message


def _back(request) -> str:
    referer = request.META.get("HTTP_REFERER", "")
    same_site = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return referer if same_site and referer != request.build_absolute_uri() else ""


def render_error(request, status: int, exception=None) -> HttpResponse:
    reason = reason_of(status, exception)
    if request.path.startswith("/api/"):
        detail = API_DETAILS[status] if reason == DEFAULT_REASONS[status] else reason
        return JsonResponse({"code": API_CODES[status], "detail": detail}, status=status)
    context = {
        "status": status,
        "title": TITLES[status],
        "reason": reason,
        "path": request.get_full_path(),
    }
    try:
        context["back"] = _back(request)
        html = render_to_string("error.html", context, request=request)
    except Exception:  # the failure may be the database the context processors read
        if status != 500:
            raise
        logger.exception("The 500 page rendered without the request's context")
        html = render_to_string("error.html", context)
    return HttpResponse(html, status=status)


def permission_denied(request, exception=None):
    return render_error(request, 403, exception)


def not_found(request, exception=None):
    return render_error(request, 404, exception)


def server_error(request):
    return render_error(request, 500)
